import type { KubernetesObject } from '@kubernetes/client-node';
import {
  JOB_NAME_LABEL,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
} from '@model-manager/plugin-model-manager-common';
import type { ObjectType } from '../managedKinds';
import { KindWatch, type KindSource } from './KindWatch';
import { slimEvent, slimPod } from './slimObjects';

const POD: ObjectType = { apiVersion: 'v1', kind: 'Pod' };
const EVENT: ObjectType = { apiVersion: 'v1', kind: 'Event' };

/**
 * What the NotReady diagnosis reads, as watches: cluster-wide, each as narrow as the API server
 * lets a selector be (a label selector cannot OR two labels, so one watch per pod labelling).
 *
 * - InferenceService pods: `serving.kserve.io/inferenceservice` (any value). KServe sets it on the
 *   predictor's pod template, with the InferenceService's own labels (kserve/kserve
 *   pkg/controller/v1beta1/inferenceservice/components/predictor.go: `Labels:
 *   utils.Union(isvc.Labels, {constants.InferenceServicePodLabelKey: isvc.Name, ...})`,
 *   `InferenceServicePodLabelKey = "serving.kserve.io/inferenceservice"` in pkg/constants). Not
 *   narrowed by our managed-by label, although the union copies it: the LIST the diagnosis falls
 *   back to selects on KServe's label alone, and the two must find the same pods.
 * - LLMInferenceService pods: `app.kubernetes.io/part-of=llminferenceservice` (kserve/kserve
 *   pkg/controller/v1alpha1/llmisvc workload_single_node.go and the scheduler's labels; the name
 *   is in `app.kubernetes.io/name`, which `isServerPod` matches per target).
 * - Weights download pods: `batch.kubernetes.io/job-name` (set by the Job controller on its pods,
 *   Kubernetes 1.27+) and our managed-by label (the Job's pod template carries `${labels}`).
 * - Events: `type=Warning`, a field selector kube-apiserver serves for core Events
 *   (kubernetes pkg/registry/core/event/strategy.go `ToSelectableFields`: involvedObject.*,
 *   reason, source, type, reportingComponent). Not `involvedObject.kind`: field selectors take
 *   only `=`/`!=` (no set), so it would be a watch per kind, and the Events that explain a
 *   NotReady model are on Pods, ReplicaSets (FailedCreate: exceeded quota), Jobs, claims and the
 *   KServe objects. Not per namespace either: a watch per namespace with managed objects would be
 *   a connection each (hundreds at fleet scale) and would have to follow namespaces coming and
 *   going. The fleet's diagnosis only reads Warnings: every `event` signature is one (the
 *   kubelet's `Failed`, the scheduler's `FailedScheduling`, `FailedMount`, `FailedCreate`) and,
 *   without one, the headline names the first Warning.
 *
 * Memory stays bounded: pods and Events are kept trimmed to what the diagnosis reads
 * ({@link slimPod}, {@link slimEvent}), and Events leave the store when kube-apiserver deletes them
 * (its `--event-ttl`, 1 h by default).
 */
export const DIAGNOSIS_WATCHES: ReadonlyArray<{
  name: string;
  type: ObjectType;
  labelSelector: string;
  fieldSelector?: string;
  transform: (o: KubernetesObject) => KubernetesObject;
}> = [
  {
    name: 'inferenceservice pods',
    type: POD,
    labelSelector: 'serving.kserve.io/inferenceservice',
    transform: slimPod,
  },
  {
    name: 'llminferenceservice pods',
    type: POD,
    labelSelector: 'app.kubernetes.io/part-of=llminferenceservice',
    transform: slimPod,
  },
  {
    name: 'download pods',
    type: POD,
    labelSelector: `${JOB_NAME_LABEL},${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`,
    transform: slimPod,
  },
  {
    name: 'warning events',
    type: EVENT,
    labelSelector: '',
    fieldSelector: 'type=Warning',
    transform: slimEvent,
  },
];

type ClusterDiagnosisWatches = {
  watches: Map<string, KindWatch>;
  /** Per namespace, bumped on each change of a pod or Event there. */
  versions: Map<string, number>;
};

export type DiagnosisWatchesOptions = {
  /** How a cluster's kinds are listed and watched (FleetWatches.sources). */
  sources: (cluster: string) => (type: ObjectType) => KindSource;
  backoffMs?: number;
  maxBackoffMs?: number;
  now?: () => number;
};

/**
 * The pods and Warning Events of every cluster the diagnosis reads, kept by watches
 * ({@link KindWatch}: LIST, WATCH from its resourceVersion, bookmarks, re-list on 410, backoff):
 * while a cluster's are live, diagnosing a NotReady target there reads no pod or Event from the
 * cluster. Watches start on a cluster's first diagnosis and run until {@link stop}.
 */
export class DiagnosisWatches {
  private readonly clusters = new Map<string, ClusterDiagnosisWatches>();
  private readonly listeners = new Set<
    (cluster: string, namespace: string) => void
  >();
  private stopped = false;

  private constructor(private readonly options: DiagnosisWatchesOptions) {}

  static create(options: DiagnosisWatchesOptions): DiagnosisWatches {
    return new DiagnosisWatches(options);
  }

  /** Whether every watch of the cluster is live (its pods and Events are the cluster's). */
  live(cluster: string): boolean {
    const c = this.clusters.get(cluster);
    return !!c && [...c.watches.values()].every(w => w.state.phase === 'live');
  }

  /** Starts the cluster's watches (first call); settles after their first list's outcome. */
  async started(cluster: string): Promise<void> {
    const c = this.ensure(cluster);
    if (c) await Promise.all([...c.watches.values()].map(w => w.started()));
  }

  /** The pods of the namespace the watches hold, undefined unless they are live. */
  pods(cluster: string, namespace: string): KubernetesObject[] | undefined {
    return this.held(cluster, namespace, POD);
  }

  /** The Warning Events of the namespace the watch holds, undefined unless it is live. */
  events(cluster: string, namespace: string): KubernetesObject[] | undefined {
    return this.held(cluster, namespace, EVENT);
  }

  /** Moves whenever a pod or Event of the namespace changes (or the watches re-list). */
  version(cluster: string, namespace: string): number {
    return this.clusters.get(cluster)?.versions.get(namespace) ?? 0;
  }

  /** Called with the cluster and namespace of every pod or Event that changed. */
  subscribe(
    listener: (cluster: string, namespace: string) => void,
  ): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop() {
    this.stopped = true;
    for (const c of this.clusters.values())
      for (const w of c.watches.values()) w.stop();
    this.clusters.clear();
  }

  private held(
    cluster: string,
    namespace: string,
    type: ObjectType,
  ): KubernetesObject[] | undefined {
    if (!this.live(cluster)) return undefined;
    const c = this.clusters.get(cluster)!;
    const seen = new Map<string, KubernetesObject>();
    DIAGNOSIS_WATCHES.forEach(d => {
      if (d.type !== type) return;
      // A pod with two of the labellings is in two watches: once is enough.
      for (const o of c.watches.get(d.name)!.objects(namespace))
        seen.set(String(o.metadata?.name), o);
    });
    return [...seen.values()];
  }

  private ensure(cluster: string): ClusterDiagnosisWatches | undefined {
    if (this.stopped) return undefined;
    const existing = this.clusters.get(cluster);
    if (existing) return existing;
    const c: ClusterDiagnosisWatches = {
      watches: new Map(),
      versions: new Map(),
    };
    this.clusters.set(cluster, c);
    const sources = this.options.sources(cluster);
    for (const d of DIAGNOSIS_WATCHES)
      c.watches.set(
        d.name,
        KindWatch.start({
          source: sources(d.type),
          labelSelector: d.labelSelector,
          fieldSelector: d.fieldSelector,
          transform: d.transform,
          backoffMs: this.options.backoffMs,
          maxBackoffMs: this.options.maxBackoffMs,
          now: this.options.now,
          onChange: object => {
            const namespace = object?.metadata?.namespace;
            if (namespace === undefined) return;
            c.versions.set(namespace, (c.versions.get(namespace) ?? 0) + 1);
            for (const l of this.listeners) l(cluster, namespace);
          },
        }),
      );
    return c;
  }
}
