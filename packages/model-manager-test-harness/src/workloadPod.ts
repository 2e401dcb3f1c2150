import type { KubeTarget } from '@model-manager/kube-api-test-server';
/**
 * KServe's vLLM workload pod of an LLMInferenceService, as its controller labels it and the
 * kubelet reports it: scheduled on node-1, one container `main` (an image the tests' failing
 * deploys pin), not Ready, with the container status given (waiting reason, restarts, last
 * termination). Put it whole on the double; on a real server, put it without `status` and set
 * that through the status subresource.
 */
export function vllmWorkloadPod(opts: {
  model: string;
  namespace: string;
  name: string;
  container: Record<string, unknown>;
}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: opts.name,
      namespace: opts.namespace,
      labels: {
        'app.kubernetes.io/part-of': 'llminferenceservice',
        'app.kubernetes.io/name': opts.model,
        'app.kubernetes.io/component': 'llminferenceservice-workload',
        'kserve.io/component': 'workload',
      },
    },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'main', image: 'vllm/vllm-openai:v9.9.9' }],
    },
    status: {
      phase: 'Running',
      containerStatuses: [{ name: 'main', ready: false, ...opts.container }],
    },
  };
}

/**
 * Puts an object as its controller or the kubelet leaves it: the object, then its `status`
 * through the status subresource (a create through the API stores no status of its own, on the
 * double as on a real server).
 */
export async function putWithStatus(
  kube: KubeTarget,
  object: { apiVersion: string; kind: string; metadata: any; status?: any },
): Promise<void> {
  const { status, ...rest } = object;
  await kube.objects.put(rest);
  if (status !== undefined)
    await kube.objects.setStatus(
      {
        apiVersion: object.apiVersion,
        kind: object.kind,
        namespace: object.metadata.namespace,
        name: object.metadata.name,
      },
      status,
    );
}
