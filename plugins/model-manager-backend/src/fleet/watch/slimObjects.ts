import type { KubernetesObject } from '@kubernetes/client-node';
import { JOB_NAME_LABEL } from '@model-manager/plugin-model-manager-common';

type KubeJson = Record<string, any>;

/** The pod labels the diagnosis matches on (`isServerPod`, the download Job's pods). */
const POD_LABELS = [
  'serving.kserve.io/inferenceservice',
  'app.kubernetes.io/part-of',
  'app.kubernetes.io/name',
  JOB_NAME_LABEL,
];

/** A time as the API sends it (a typed list gives a Date, a watch the RFC 3339 string). */
const time = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

function defined(o: KubeJson): KubeJson {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

function containerStatus(cs: KubeJson): KubeJson {
  const state = (s: KubeJson | undefined) =>
    s &&
    defined({
      ...(s.waiting
        ? {
            waiting: defined({
              reason: s.waiting.reason,
              message: s.waiting.message,
            }),
          }
        : {}),
      ...(s.running ? { running: {} } : {}),
      ...(s.terminated
        ? {
            terminated: defined({
              reason: s.terminated.reason,
              message: s.terminated.message,
              exitCode: s.terminated.exitCode,
            }),
          }
        : {}),
    });
  return defined({
    name: cs.name,
    ready: cs.ready,
    restartCount: cs.restartCount,
    state: state(cs.state),
    lastState: state(cs.lastState),
  });
}

/**
 * A pod as the diagnosis reads it (`diagnosePod`, `isServerPod`, `logsToRead`): its name, the
 * labels it is matched on, the node, phase, conditions and container states. The rest (spec,
 * managedFields, annotations: most of a pod's bytes) is not kept.
 */
export function slimPod(pod: KubernetesObject): KubernetesObject {
  const p = pod as KubeJson;
  const labels: Record<string, string> = {};
  for (const k of POD_LABELS)
    if (p.metadata?.labels?.[k] !== undefined) labels[k] = p.metadata.labels[k];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: defined({
      name: p.metadata?.name,
      namespace: p.metadata?.namespace,
      uid: p.metadata?.uid,
      resourceVersion: p.metadata?.resourceVersion,
      labels,
    }),
    spec: defined({ nodeName: p.spec?.nodeName }),
    status: defined({
      phase: p.status?.phase,
      conditions: p.status?.conditions?.map((c: KubeJson) => ({
        type: c.type,
        status: c.status,
      })),
      initContainerStatuses:
        p.status?.initContainerStatuses?.map(containerStatus),
      containerStatuses: p.status?.containerStatuses?.map(containerStatus),
    }),
  } as KubernetesObject;
}

/**
 * An Event as the diagnosis reads it (`diagnoseEvent` and the per-target filter on
 * `involvedObject.name`): what it is about, type, reason, message, count and when.
 */
export function slimEvent(event: KubernetesObject): KubernetesObject {
  const e = event as KubeJson;
  return defined({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: defined({
      name: e.metadata?.name,
      namespace: e.metadata?.namespace,
      resourceVersion: e.metadata?.resourceVersion,
      creationTimestamp: time(e.metadata?.creationTimestamp),
    }),
    involvedObject: defined({
      kind: e.involvedObject?.kind,
      name: e.involvedObject?.name,
      namespace: e.involvedObject?.namespace,
    }),
    type: e.type,
    reason: e.reason,
    message: e.message,
    count: e.count,
    lastTimestamp: time(e.lastTimestamp),
    eventTime: time(e.eventTime),
    series: e.series
      ? defined({
          count: e.series.count,
          lastObservedTime: time(e.series.lastObservedTime),
        })
      : undefined,
  }) as KubernetesObject;
}
