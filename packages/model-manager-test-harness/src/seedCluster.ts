import { resolvePackagePath } from '@backstage/backend-plugin-api';
import {
  readManifests,
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
 * Envoy Gateway's config ConfigMap as Envoy AI Gateway's install makes it, with the Backend API
 * on (the routing aigateway's preflight reads it). The file is also what the browser suite and
 * `npm run dev` seed their API double with (`KUBE_API_TEST_SERVER_MANIFESTS`).
 */
export const ENVOY_GATEWAY_CONFIG_FILE = resolvePackagePath(
  '@model-manager/test-harness',
  'cluster/envoy-gateway-config.yaml',
);

const installed = () => readManifests(ENVOY_GATEWAY_CONFIG_FILE);

/**
 * A cluster whose deploys pass preflight: a Ready node with room, a default StorageClass, the
 * AI gateway of the OpenVINO plumbing and KServe's default Gateway (`seedWorkingCluster` of the
 * API test server), and Envoy Gateway's config with its Backend API on.
 */
export function seedSchedulableCluster(kube: KubeApiTestServer): void {
  seedWorkingCluster(kube, {
    gateways: [TEST_GATEWAY, KSERVE_GATEWAY],
    secrets: TEST_SECRETS,
    objects: installed(),
  });
}

/** {@link seedSchedulableCluster} through the API, for the double and a real kube-apiserver alike. */
export async function seedSchedulableTarget(kube: KubeTarget): Promise<void> {
  await seedWorkingClusterObjects(kube, {
    gateways: [TEST_GATEWAY, KSERVE_GATEWAY],
    secrets: TEST_SECRETS,
    objects: installed(),
  });
}
