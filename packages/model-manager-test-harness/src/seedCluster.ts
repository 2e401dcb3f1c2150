import {
  seedWorkingCluster,
  seedWorkingClusterObjects,
  type KubeApiTestServer,
  type KubeTarget,
} from '@model-manager/kube-api-test-server';

/** The AI gateway the OpenVINO plumbing routes attach to (runtimes/openvino/values.yaml). */
export const TEST_GATEWAY = {
  namespace: 'default',
  name: 'envoy-ai-gateway-basic',
};

/**
 * KServe's default ingress Gateway, which its managed HTTPRoute of a vLLM model on routing epp
 * attaches to (kserve/kserve config/configmap/inferenceservice.yaml kserveIngressGateway; the
 * vLLM profile's controller_gateway): KServe's install creates it.
 */
export const KSERVE_GATEWAY = {
  namespace: 'kserve',
  name: 'kserve-ingress-gateway',
};

/**
 * The Secret models.yaml's gated llama references (`HF_TOKEN` from `hf-token`/`token`), in the
 * namespaces the test backends deploy to: as a platform team would have created it.
 */
export const TEST_SECRETS = ['default', 'models'].map(namespace => ({
  namespace,
  name: 'hf-token',
  key: 'token',
}));

/**
 * A cluster whose deploys pass preflight: a Ready node with room, a default StorageClass, the
 * AI gateway of the OpenVINO plumbing and KServe's default Gateway (`seedWorkingCluster` of the
 * API test server).
 */
export function seedSchedulableCluster(kube: KubeApiTestServer): void {
  seedWorkingCluster(kube, {
    gateways: [TEST_GATEWAY, KSERVE_GATEWAY],
    secrets: TEST_SECRETS,
  });
}

/** {@link seedSchedulableCluster} through the API, for the double and a real kube-apiserver alike. */
export async function seedSchedulableTarget(kube: KubeTarget): Promise<void> {
  await seedWorkingClusterObjects(kube, {
    gateways: [TEST_GATEWAY, KSERVE_GATEWAY],
    secrets: TEST_SECRETS,
  });
}
