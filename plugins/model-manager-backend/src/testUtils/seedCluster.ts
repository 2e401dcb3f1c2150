import type { KubeApiTestServer } from '@model-manager/kube-api-test-server';

/** The AI gateway the OpenVINO plumbing routes attach to (runtimes/openvino/values.yaml). */
export const TEST_GATEWAY = {
  namespace: 'default',
  name: 'envoy-ai-gateway-basic',
};

/**
 * What a working cluster has besides the API server, for tests whose deploys should pass
 * preflight: one Ready node with room (64 CPU, 256Gi allocatable: the largest model of models.yaml asks for 32 and 96Gi), a default StorageClass (as
 * kind's `standard` and k3s's `local-path` are), and the AI Gateway of the OpenVINO plumbing.
 * A bare API server (the test double as started) has none of them.
 */
export function seedSchedulableCluster(kube: KubeApiTestServer): void {
  kube.store.put({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1' },
    spec: {},
  });
  kube.store.setStatus(
    { apiVersion: 'v1', kind: 'Node', name: 'worker-1' },
    {
      capacity: { cpu: '64', memory: '256Gi', pods: '110' },
      allocatable: { cpu: '64', memory: '256Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    },
  );
  kube.store.put({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name: 'standard',
      annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
    },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  });
  kube.store.put({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: TEST_GATEWAY.name, namespace: TEST_GATEWAY.namespace },
    spec: {
      gatewayClassName: 'envoy-ai-gateway-basic',
      listeners: [{ name: 'http', protocol: 'HTTP', port: 80 }],
    },
  });
}
