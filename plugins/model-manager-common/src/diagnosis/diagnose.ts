import type {
  DiagnosedContainer,
  DiagnosedEvent,
  DiagnosedLog,
  DiagnosedPod,
  Diagnosis,
  DiagnosisFinding,
  SignatureWhere,
} from '../api/diagnosis';
import type { CompiledSignature } from './signatures';

/** A Kubernetes object as JSON (Pods, Events, the model server object). */
type KubeJson = Record<string, any>;

/** What {@link diagnose} reads: all of it already fetched, nothing here calls a cluster. */
export interface DiagnosisInput {
  cluster: string;
  namespace: string;
  /** The model server object as live (InferenceService or LLMInferenceService), if it exists. */
  server?: KubeJson;
  /** `Kind/name` of the model server object, for messages when it is missing. */
  serverRef: string;
  /** The model's pods: the server's and the weights download Job's. */
  pods: Array<{ role: 'server' | 'download'; pod: KubeJson }>;
  /** The Events about the model's objects and pods (core/v1 Events). */
  events: KubeJson[];
  logs: DiagnosedLog[];
  /** The engine's signatures first, then the common ones. */
  signatures: readonly CompiledSignature[];
  /** What could not be read. */
  problems: string[];
}

/** The order findings are ranked in: what the engine said is the most specific. */
const WHERE_RANK: Record<SignatureWhere, number> = {
  log: 0,
  event: 1,
  condition: 2,
  container: 3,
};

const MAX_EVENTS = 20;

function containers(pod: KubeJson): DiagnosedContainer[] {
  const status = pod.status ?? {};
  const read = (cs: KubeJson, init: boolean): DiagnosedContainer => {
    const state = cs.state ?? {};
    const last = cs.lastState?.terminated;
    const base = {
      name: String(cs.name),
      init,
      ready: cs.ready === true,
      restartCount: Number(cs.restartCount ?? 0),
      ...(last
        ? {
            lastTermination: {
              reason: last.reason,
              exitCode: last.exitCode,
              message: last.message,
            },
          }
        : {}),
    };
    if (state.waiting)
      return {
        ...base,
        state: 'waiting',
        reason: state.waiting.reason,
        message: state.waiting.message,
      };
    if (state.terminated)
      return {
        ...base,
        state: 'terminated',
        reason: state.terminated.reason,
        message: state.terminated.message,
        exitCode: state.terminated.exitCode,
      };
    if (state.running) return { ...base, state: 'running' };
    return { ...base, state: 'unknown' };
  };
  return [
    ...(status.initContainerStatuses ?? []).map((c: KubeJson) => read(c, true)),
    ...(status.containerStatuses ?? []).map((c: KubeJson) => read(c, false)),
  ];
}

export function diagnosePod(
  role: 'server' | 'download',
  pod: KubeJson,
): DiagnosedPod {
  const conditions: KubeJson[] = pod.status?.conditions ?? [];
  return {
    name: String(pod.metadata?.name),
    role,
    phase: String(pod.status?.phase ?? 'Unknown'),
    ready: conditions.some(c => c.type === 'Ready' && c.status === 'True'),
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    containers: containers(pod),
  };
}

function diagnoseEvent(e: KubeJson): DiagnosedEvent {
  const lastSeen =
    e.lastTimestamp ??
    e.series?.lastObservedTime ??
    e.eventTime ??
    e.metadata?.creationTimestamp;
  return {
    type: String(e.type ?? 'Normal'),
    reason: String(e.reason ?? ''),
    message: String(e.message ?? ''),
    object: `${e.involvedObject?.kind}/${e.involvedObject?.name}`,
    count: Number(e.count ?? e.series?.count ?? 1),
    ...(lastSeen ? { lastSeen: String(lastSeen) } : {}),
  };
}

/** A text to match and whose words it is. */
interface Said {
  where: SignatureWhere;
  subject: string;
  text: string;
}

function whatWasSaid(
  input: DiagnosisInput,
  pods: DiagnosedPod[],
  events: DiagnosedEvent[],
): Said[] {
  const said: Said[] = [];
  for (const log of input.logs)
    for (const text of log.lines)
      said.push({
        where: 'log',
        subject: `log of pod ${log.pod} container ${log.container}${
          log.previous ? ' (previous run)' : ''
        }`,
        text,
      });
  for (const e of events)
    said.push({
      where: 'event',
      subject: `Event ${e.reason} on ${e.object}`,
      text: e.message,
    });
  for (const c of input.server?.status?.conditions ?? [])
    if (c.status !== 'True' && c.message)
      said.push({
        where: 'condition',
        subject: `condition ${c.type} of ${input.serverRef}`,
        text: String(c.message),
      });
  for (const pod of pods)
    for (const c of pod.containers) {
      const states = [
        { reason: c.reason, message: c.message, run: '' },
        {
          reason: c.lastTermination?.reason,
          message: c.lastTermination?.message,
          run: ' (previous run)',
        },
      ];
      for (const s of states)
        if (s.reason)
          said.push({
            where: 'container',
            subject: `container ${c.name} of pod ${pod.name}${s.run}`,
            text: s.message ? `${s.reason}: ${s.message}` : s.reason,
          });
    }
  return said;
}

function match(
  said: Said[],
  signatures: readonly CompiledSignature[],
): DiagnosisFinding[] {
  const found: Array<DiagnosisFinding & { rank: number }> = [];
  const seen = new Set<string>();
  signatures.forEach((sig, order) => {
    for (const s of said) {
      if (s.where !== sig.where || !sig.regex.test(s.text)) continue;
      if (seen.has(sig.id)) continue;
      seen.add(sig.id);
      found.push({
        signature: sig.id,
        where: sig.where,
        subject: s.subject,
        text: s.text,
        meaning: sig.meaning,
        fix: sig.fix,
        source: sig.source,
        rank: WHERE_RANK[sig.where] * 10_000 + order,
      });
    }
  });
  return found
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank: _rank, ...f }) => f);
}

/** The blocking state when no known signature matched. */
function stateHeadline(
  input: DiagnosisInput,
  pods: DiagnosedPod[],
  events: DiagnosedEvent[],
): string {
  for (const pod of pods) {
    for (const c of pod.containers) {
      if (c.state === 'waiting' && c.reason && c.reason !== 'ContainerCreating')
        return `container ${c.name} of pod ${pod.name} is waiting: ${c.reason}${
          c.message ? `: ${c.message}` : ''
        }`;
      if (c.state === 'terminated' && c.exitCode !== 0)
        return `${c.init ? 'init container' : 'container'} ${c.name} of pod ${
          pod.name
        } exited with code ${c.exitCode}${c.reason ? ` (${c.reason})` : ''}`;
      if (c.restartCount > 0 && !c.ready)
        return `container ${c.name} of pod ${pod.name} restarted ${
          c.restartCount
        } times${
          c.lastTermination?.exitCode !== undefined
            ? `; its last run exited with code ${c.lastTermination.exitCode}`
            : ''
        }`;
    }
  }
  const warning = events.find(e => e.type === 'Warning');
  if (warning)
    return `${warning.object}: ${warning.reason}: ${warning.message}`;
  const pending = pods.find(p => p.phase === 'Pending');
  if (pending) return `pod ${pending.name} is Pending`;
  const servers = pods.filter(p => p.role === 'server');
  const notReady = (input.server?.status?.conditions ?? []).find(
    (c: KubeJson) => c.status !== 'True' && c.message,
  );
  if (servers.length === 0)
    return `no pods of ${input.serverRef} on ${input.cluster}/${
      input.namespace
    }${
      notReady
        ? `; KServe says ${notReady.type}: ${notReady.message}`
        : '; KServe has not created them (yet)'
    }`;
  const starting = servers.find(p => !p.ready);
  if (starting)
    return `pod ${starting.name} is ${starting.phase} but not ready yet (the engine is loading or its readiness probe fails)`;
  if (notReady) return `${notReady.type}: ${notReady.message}`;
  return 'the pods are running and ready';
}

/**
 * Why a model is not Ready at one place, in words, from what was read there: the model's pods
 * (phase, container waiting/terminated reasons, restarts), the Events about them and the model's
 * objects, the last log lines of failed containers and the model server's conditions. Every text
 * is matched against the signatures (the engine's profile first, then the common Kubernetes
 * ones); findings rank log lines above Events above conditions above container states, since
 * the engine's own words are the most specific. The headline is the first finding's meaning
 * (with whose words matched), else the blocking state, else the first thing that could not be
 * read. Pure: the same input gives the same diagnosis.
 */
export function diagnose(input: DiagnosisInput): Diagnosis {
  const pods = input.pods.map(p => diagnosePod(p.role, p.pod));
  const events = input.events
    .map(diagnoseEvent)
    .sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''))
    .slice(0, MAX_EVENTS);
  const findings = match(whatWasSaid(input, pods, events), input.signatures);
  let headline: string;
  if (findings.length > 0)
    headline = `${findings[0].meaning} (${findings[0].subject}: "${findings[0].text}")`;
  else if (pods.length === 0 && input.problems.length > 0)
    headline = input.problems[0];
  else headline = stateHeadline(input, pods, events);
  return {
    cluster: input.cluster,
    namespace: input.namespace,
    headline,
    findings,
    pods,
    events,
    logs: input.logs,
    problems: input.problems,
  };
}
