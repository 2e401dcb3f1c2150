import type { DiagnosedContainer } from '../api/diagnosis';

/** The Job label the Job controller puts on its pods (Kubernetes 1.27+; `job-name` before). */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';

/**
 * The label selector of a model server's pods, as KServe labels them:
 * - InferenceService predictor pods carry `serving.kserve.io/inferenceservice: <name>`
 *   (kserve/kserve pkg/constants/constants.go `InferenceServicePodLabelKey = KServeAPIGroupName +
 *   "/" + InferenceServiceName`, set on the predictor's Deployment/Knative template by
 *   pkg/controller/v1beta1/inferenceservice/components/predictor.go);
 * - LLMInferenceService workload and router-scheduler pods carry
 *   `app.kubernetes.io/part-of: llminferenceservice` and `app.kubernetes.io/name: <name>`
 *   (kserve/kserve pkg/controller/v1alpha1/llmisvc workload_single_node.go /
 *   getInferencePoolWorkloadLabelSelector, which adds `kserve.io/component: workload` for the
 *   serving pods; the scheduler's pods have other components, and are wanted here too).
 * @returns undefined for a kind KServe does not make pods for.
 */
export function serverPodSelector(
  kind: string,
  name: string,
): string | undefined {
  if (kind === 'InferenceService')
    return `serving.kserve.io/inferenceservice=${name}`;
  if (kind === 'LLMInferenceService')
    return `app.kubernetes.io/part-of=llminferenceservice,app.kubernetes.io/name=${name}`;
  return undefined;
}

/** Whether a pod's labels are those of {@link serverPodSelector}. */
export function isServerPod(
  kind: string,
  name: string,
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  if (kind === 'InferenceService')
    return l['serving.kserve.io/inferenceservice'] === name;
  if (kind === 'LLMInferenceService')
    return (
      l['app.kubernetes.io/part-of'] === 'llminferenceservice' &&
      l['app.kubernetes.io/name'] === name
    );
  return false;
}

/**
 * The container logs worth reading: a container that restarted (its previous run's log), or
 * that terminated with a non-zero code (its own log). A container waiting for its image or not
 * yet started has no log (the kubelet refuses). At most `limit` logs.
 */
export function logsToRead(
  pods: Array<{ name: string; containers: DiagnosedContainer[] }>,
  limit = 3,
): Array<{ pod: string; container: string; previous: boolean }> {
  const out: Array<{ pod: string; container: string; previous: boolean }> = [];
  for (const pod of pods)
    for (const c of pod.containers) {
      if (out.length >= limit) return out;
      if (c.state === 'terminated' && c.exitCode !== 0)
        out.push({ pod: pod.name, container: c.name, previous: false });
      else if (c.restartCount > 0 && !c.ready && c.lastTermination)
        out.push({ pod: pod.name, container: c.name, previous: true });
    }
  return out;
}
