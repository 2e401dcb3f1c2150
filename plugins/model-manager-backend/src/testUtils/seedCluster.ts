import {
  seedWorkingCluster,
  type KubeApiTestServer,
} from '@model-manager/kube-api-test-server';

/** The AI gateway the OpenVINO plumbing routes attach to (runtimes/openvino/values.yaml). */
export const TEST_GATEWAY = {
  namespace: 'default',
  name: 'envoy-ai-gateway-basic',
};

/**
 * A cluster whose deploys pass preflight: a Ready node with room, a default StorageClass, and the
 * AI gateway of the OpenVINO plumbing (`seedWorkingCluster` of the API test server).
 */
export function seedSchedulableCluster(kube: KubeApiTestServer): void {
  seedWorkingCluster(kube, { gateways: [TEST_GATEWAY] });
}
