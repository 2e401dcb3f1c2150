import {
  diagnose,
  diagnosePod,
  isServerPod,
  logsToRead,
  serverPodSelector,
  type CompiledSignature,
  type DiagnosedLog,
  type Diagnosis,
} from '@model-manager/plugin-model-manager-common';
import { KubernetesApiError } from '../kubernetes/KubernetesApiError';
import type { ServerSideApplier } from '../kubernetes/ServerSideApplier';

type KubeJson = Record<string, any>;

/** One deployed model to diagnose at a cluster/namespace. */
export interface DiagnosisTarget {
  model: string;
  /** The model server object (InferenceService or LLMInferenceService). */
  server: { kind: string; name: string };
  /** It as live, when it was read (for its conditions). */
  serverLive?: KubeJson;
  /**
   * The object that reports the model's preparation (its profile's `progress:` object, e.g. the
   * weights download Job), for models with one: its name and the label its pods carry.
   */
  progress?: { name: string; podLabel: string };
  /** Names of the model's other objects (their Events concern the model). */
  objectNames: string[];
  /** The engine's signatures, then the common ones (`signaturesFor`). */
  signatures: readonly CompiledSignature[];
}

/** How many last lines of a failed container's log are read. */
export const LOG_TAIL_LINES = 40;

type Applier = Pick<ServerSideApplier, 'list' | 'readPodLog'>;

/**
 * Pods and Events as a watch cache holds them (`DiagnosisWatches`): a namespace's, or undefined
 * when the cluster's watches are not live (then they are listed). `DiagnosisWatches` holds the
 * Warning Events only (the fleet's headline reads no other): a reader that shows every Event (the
 * Serving tab's diagnosis) is created without it.
 */
export interface WatchedDiagnosisObjects {
  pods(cluster: string, namespace: string): KubeJson[] | undefined;
  events(cluster: string, namespace: string): KubeJson[] | undefined;
}

/** `cannot read <what> on cluster X: RBAC (needs <verb> on <resource> in namespace N)`, or why else. */
function readProblem(
  what: string,
  cluster: string,
  namespace: string,
  needs: string,
  e: unknown,
): string {
  if (e instanceof KubernetesApiError && e.statusCode === 403)
    return `cannot read ${what} on cluster ${cluster}: RBAC (needs ${needs} in namespace ${namespace}): ${e.message}`;
  if (e instanceof KubernetesApiError && e.statusCode === 401)
    return `cannot read ${what} on cluster ${cluster}: the cluster refused the credentials (401); check the cluster's token`;
  return `cannot read ${what} on cluster ${cluster}: ${(e as Error).message}`;
}

const quoteIn = (names: string[]) => `in (${[...new Set(names)].join(',')})`;

/**
 * Reads what a diagnosis needs from one namespace and hands it to the pure `diagnose`: the pods
 * of the given models (one LIST per pod labelling KServe uses, with a set-based label selector
 * over all the models, plus one for their download Jobs' pods), the namespace's Events (one
 * LIST), and the last lines of the logs of failed containers (`previous` where a container
 * restarted). What the cluster refuses (RBAC, a refused token) becomes a problem in the
 * diagnosis, never a failure of the whole answer.
 */
export class DiagnosisReader {
  private constructor(
    private readonly applier: Applier,
    private readonly watched?: WatchedDiagnosisObjects,
  ) {}

  /**
   * With `watched`, a namespace whose cluster's watches are live is read from them (no LIST); a
   * read as another user (`impersonateUser`) always lists, so that user's RBAC applies.
   */
  static create(options: {
    applier: Applier;
    watched?: WatchedDiagnosisObjects;
  }): DiagnosisReader {
    return new DiagnosisReader(options.applier, options.watched);
  }

  async diagnoseNamespace(
    cluster: string,
    namespace: string,
    targets: DiagnosisTarget[],
    impersonateUser?: string,
  ): Promise<Map<string, Diagnosis>> {
    const problems: string[] = [];
    const list = async (
      type: { apiVersion: string; kind: string },
      selector: string,
      what: string,
      needs: string,
    ): Promise<KubeJson[]> => {
      try {
        return ((await this.applier.list(cluster, type, selector, {
          namespace,
          impersonateUser,
        })) ?? []) as KubeJson[];
      } catch (e) {
        const problem = readProblem(what, cluster, namespace, needs, e);
        if (!problems.includes(problem)) problems.push(problem);
        return [];
      }
    };
    const POD = { apiVersion: 'v1', kind: 'Pod' };
    const selectors = podSelectors(targets);
    const cached = impersonateUser
      ? undefined
      : this.watched && {
          pods: this.watched.pods(cluster, namespace),
          events: this.watched.events(cluster, namespace),
        };
    const [podLists, events] = await Promise.all([
      cached?.pods
        ? [cached.pods]
        : Promise.all(selectors.map(s => list(POD, s, 'pods', 'list on pods'))),
      cached?.events ??
        list(
          { apiVersion: 'v1', kind: 'Event' },
          '',
          'events',
          'list on events',
        ),
    ]);
    const pods = dedupe(podLists.flat());
    const result = new Map<string, Diagnosis>();
    await Promise.all(
      targets.map(async t => {
        result.set(
          t.model,
          await this.diagnoseTarget(
            cluster,
            namespace,
            t,
            pods,
            events,
            problems,
            impersonateUser,
          ),
        );
      }),
    );
    return result;
  }

  private async diagnoseTarget(
    cluster: string,
    namespace: string,
    t: DiagnosisTarget,
    allPods: KubeJson[],
    allEvents: KubeJson[],
    problems: readonly string[],
    impersonateUser?: string,
  ): Promise<Diagnosis> {
    const pods = allPods.flatMap(
      (pod): Array<{ role: 'server' | 'download'; pod: KubeJson }> => {
        const labels = pod.metadata?.labels as
          | Record<string, string>
          | undefined;
        if (isServerPod(t.server.kind, t.server.name, labels))
          return [{ role: 'server' as const, pod }];
        if (t.progress && labels?.[t.progress.podLabel] === t.progress.name)
          return [{ role: 'download' as const, pod }];
        return [];
      },
    );
    const names = new Set([
      t.server.name,
      ...t.objectNames,
      ...(t.progress ? [t.progress.name] : []),
      ...pods.map(p => String(p.pod.metadata?.name)),
    ]);
    // KServe names what it creates after the model (<name>-predictor, <name>-kserve-...).
    const events = allEvents.filter(e => {
      const name = String(e.involvedObject?.name ?? '');
      return names.has(name) || name.startsWith(`${t.server.name}-`);
    });
    const ownProblems = [...problems];
    const logs = await this.readLogs(
      cluster,
      namespace,
      pods.map(p => diagnosePod(p.role, p.pod)),
      ownProblems,
      impersonateUser,
    );
    return diagnose({
      cluster,
      namespace,
      server: t.serverLive,
      serverRef: `${t.server.kind}/${t.server.name}`,
      pods,
      events,
      logs,
      signatures: t.signatures,
      problems: ownProblems,
    });
  }

  private async readLogs(
    cluster: string,
    namespace: string,
    pods: ReturnType<typeof diagnosePod>[],
    problems: string[],
    impersonateUser?: string,
  ): Promise<DiagnosedLog[]> {
    return Promise.all(
      logsToRead(pods).map(async ref => {
        try {
          const text = await this.applier.readPodLog(
            cluster,
            { namespace, ...ref, tailLines: LOG_TAIL_LINES },
            impersonateUser,
          );
          const lines = text.split('\n');
          if (lines[lines.length - 1] === '') lines.pop();
          return { ...ref, lines };
        } catch (e) {
          const problem = readProblem(
            'pod logs',
            cluster,
            namespace,
            'get on pods/log',
            e,
          );
          if (
            e instanceof KubernetesApiError &&
            (e.statusCode === 403 || e.statusCode === 401)
          ) {
            if (!problems.includes(problem)) problems.push(problem);
          }
          return { ...ref, lines: [], error: (e as Error).message };
        }
      }),
    );
  }
}

/** The label selectors that find the targets' pods: one per KServe labelling, one for the Jobs. */
function podSelectors(targets: DiagnosisTarget[]): string[] {
  const byKind = new Map<string, string[]>();
  for (const t of targets) {
    if (!serverPodSelector(t.server.kind, t.server.name)) continue;
    byKind.set(t.server.kind, [
      ...(byKind.get(t.server.kind) ?? []),
      t.server.name,
    ]);
  }
  const out: string[] = [];
  const isvc = byKind.get('InferenceService');
  if (isvc) out.push(`serving.kserve.io/inferenceservice ${quoteIn(isvc)}`);
  const llm = byKind.get('LLMInferenceService');
  if (llm)
    out.push(
      `app.kubernetes.io/part-of=llminferenceservice,app.kubernetes.io/name ${quoteIn(
        llm,
      )}`,
    );
  // One selector per pod label of the targets' progress objects (a Job's: batch.kubernetes.io/job-name).
  const byLabel = new Map<string, string[]>();
  for (const t of targets) {
    if (!t.progress) continue;
    byLabel.set(t.progress.podLabel, [
      ...(byLabel.get(t.progress.podLabel) ?? []),
      t.progress.name,
    ]);
  }
  for (const [label, names] of byLabel) out.push(`${label} ${quoteIn(names)}`);
  return out;
}

function dedupe(pods: KubeJson[]): KubeJson[] {
  const seen = new Map<string, KubeJson>();
  for (const p of pods) seen.set(String(p.metadata?.name), p);
  return [...seen.values()];
}
