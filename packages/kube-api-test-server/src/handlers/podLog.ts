/**
 * `GET .../pods/{name}/log`: the container's log as text, answered the way kube-apiserver and the
 * kubelet do. The text itself is what a test set with {@link PodLogs.set}; which container may be
 * read, and the errors, follow the pod's spec and status:
 * - kube-apiserver (pkg/registry/core/pod/strategy.go `LogLocation`, `validateContainer`): a pod with
 *   several containers needs `container` (400 "a container name must be specified for pod P,
 *   choose one of: [a b]"), an unknown one is 400 "container C is not valid for pod P", and a pod
 *   not yet scheduled (no spec.nodeName) answers 200 with no text;
 * - `PodLogOptions` validation (pkg/apis/core/validation `ValidatePodLogOptions`): a negative
 *   `tailLines` is 422 Invalid;
 * - the kubelet (pkg/kubelet/kubelet_pods.go `validateContainerLogStatus`), whose error the
 *   apiserver relays as 400 BadRequest with the kubelet's text: `previous` needs a
 *   lastState.terminated with a containerID ("previous terminated container C in pod P not
 *   found"); a waiting container has no log ("... is waiting to start: trying and failing to pull
 *   image").
 */
import { StatusError } from '../api/errors';
import { fieldErrors } from '../api/fieldErrors';
import { JsonObject, getObject, isObject } from '../util/json';
import { RequestContext } from './context';
import { getStored } from './objects';

/** Log text per container, set by tests (what the container runtime would hold). */
export class PodLogs {
  private readonly texts = new Map<string, string>();

  static create(): PodLogs {
    return new PodLogs();
  }

  private static key(ref: PodLogRef): string {
    return [ref.namespace, ref.pod, ref.container, ref.previous ? 1 : 0].join(
      '\u0000',
    );
  }

  /** Sets the log of a container (`previous`: of its last terminated instance). */
  set(ref: PodLogRef, text: string): void {
    this.texts.set(PodLogs.key(ref), text);
  }

  get(ref: PodLogRef): string {
    return this.texts.get(PodLogs.key(ref)) ?? '';
  }
}

export interface PodLogRef {
  namespace: string;
  pod: string;
  container: string;
  previous?: boolean;
}

const names = (list: unknown): string[] =>
  Array.isArray(list)
    ? list.flatMap(c =>
        isObject(c) && typeof c.name === 'string' ? [c.name] : [],
      )
    : [];

function chooseContainer(pod: JsonObject, requested: string | null): string {
  const podName = String(getObject(pod, 'metadata').name);
  const spec = getObject(pod, 'spec');
  const containers = names(spec.containers);
  const inits = names(spec.initContainers);
  if (!requested) {
    if (containers.length === 1) return containers[0];
    let msg = `a container name must be specified for pod ${podName}, choose one of: [${containers.join(
      ' ',
    )}]`;
    if (inits.length > 0)
      msg += ` or one of the init containers: [${inits.join(' ')}]`;
    throw StatusError.badRequest(msg);
  }
  if (!containers.includes(requested) && !inits.includes(requested))
    throw StatusError.badRequest(
      `container ${requested} is not valid for pod ${podName}`,
    );
  return requested;
}

/** The kubelet's check that a container has a log to read (`validateContainerLogStatus`). */
function checkContainerStatus(
  pod: JsonObject,
  container: string,
  previous: boolean,
): void {
  const podName = String(getObject(pod, 'metadata').name);
  const status = getObject(pod, 'status');
  const all = [
    ...(Array.isArray(status.containerStatuses)
      ? status.containerStatuses
      : []),
    ...(Array.isArray(status.initContainerStatuses)
      ? status.initContainerStatuses
      : []),
  ];
  const cs = all.find(c => isObject(c) && c.name === container) as
    | JsonObject
    | undefined;
  const fail = (what: string) =>
    StatusError.badRequest(
      `container "${container}" in pod "${podName}" ${what}`,
    );
  if (!cs) throw fail('is not available');
  const state = isObject(cs.state) ? cs.state : {};
  const last = isObject(cs.lastState) ? cs.lastState : {};
  const lastTerminated = isObject(last.terminated)
    ? last.terminated
    : undefined;
  if (previous) {
    if (!lastTerminated?.containerID)
      throw StatusError.badRequest(
        `previous terminated container "${container}" in pod "${podName}" not found`,
      );
    return;
  }
  if (isObject(state.running)) return;
  if (isObject(state.terminated)) {
    if (state.terminated.containerID || lastTerminated?.containerID) return;
    throw fail('is terminated');
  }
  if (lastTerminated) {
    if (lastTerminated.containerID) return;
    throw fail('is terminated');
  }
  if (isObject(state.waiting)) {
    const reason = String(state.waiting.reason ?? '');
    if (reason === 'ErrImagePull')
      throw fail("is waiting to start: image can't be pulled");
    if (reason === 'ImagePullBackOff')
      throw fail('is waiting to start: trying and failing to pull image');
    throw fail(`is waiting to start: ${reason}`);
  }
  throw fail('is waiting to start - no logs yet');
}

/** The last `tailLines` lines of `text` (all when absent). */
function tail(text: string, tailLines: number | undefined): string {
  if (tailLines === undefined) return text;
  if (tailLines === 0) return '';
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const kept = lines.slice(-tailLines);
  return kept.length ? `${kept.join('\n')}\n` : '';
}

export function handlePodLog(ctx: RequestContext, logs: PodLogs): string {
  if (ctx.info.verb !== 'get') throw StatusError.methodNotAllowed();
  const pod = getStored(ctx);
  const name = ctx.info.name ?? '';
  const rawTail = ctx.query.get('tailLines');
  let tailLines: number | undefined;
  if (rawTail !== null) {
    tailLines = Number(rawTail);
    if (!Number.isInteger(tailLines))
      throw StatusError.badRequest(
        `strconv.ParseInt: parsing "${rawTail}": invalid syntax`,
      );
    if (tailLines < 0)
      throw StatusError.invalid({ group: '', kind: 'PodLogOptions' }, name, [
        fieldErrors.invalid(
          'tailLines',
          tailLines,
          'must be greater than or equal to 0',
        ),
      ]);
  }
  const previous = ctx.query.get('previous') === 'true';
  const container = chooseContainer(pod, ctx.query.get('container'));
  if (!getObject(pod, 'spec').nodeName) return '';
  checkContainerStatus(pod, container, previous);
  const text = logs.get({
    namespace: ctx.info.namespace ?? '',
    pod: name,
    container,
    previous,
  });
  return tail(text, tailLines);
}
