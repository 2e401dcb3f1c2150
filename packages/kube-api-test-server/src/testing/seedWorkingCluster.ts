import type { KubeApiTestServer } from '../KubeApiTestServer';
import type { KubeTarget } from '../envtest/KubeTarget';

/** What to seed besides the node and the StorageClass. */
export type SeedOptions = {
  gateways?: Array<{ namespace: string; name: string }>;
  /** Secrets with one key each, holding a placeholder (never a real credential). */
  secrets?: Array<{ namespace: string; name: string; key: string }>;
  /**
   * Any other objects, as the cluster's installers would have written them (e.g. Envoy Gateway's
   * config ConfigMap); a namespaced one's namespace is created when missing.
   */
  objects?: Array<Record<string, any>>;
};

/** A Secret as a user's `kubectl create secret generic NAME --from-literal=KEY=...` makes it. */
const placeholderSecret = (s: {
  namespace: string;
  name: string;
  key: string;
}) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'Opaque',
  metadata: { name: s.name, namespace: s.namespace },
  data: { [s.key]: Buffer.from('placeholder').toString('base64') },
});

/**
 * What a working cluster holds besides its API server, for tests and local runs whose deploys
 * should pass a preflight: one Ready node (64 CPU, 256Gi allocatable), a default StorageClass (as
 * kind's `standard` and k3s's `local-path` are), and the given Gateways (admitting routes from every
 * namespace). Written through the store (no HTTP, no RBAC): a bare API server, what this double
 * imitates, has none of them, and a cluster's kubelet, installer and gateway controller make them
 * on a real one.
 */
export function seedWorkingCluster(
  server: Pick<KubeApiTestServer, 'store'>,
  options: SeedOptions = {},
): void {
  const { store } = server;
  store.put({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1' },
    spec: {},
  });
  store.setStatus(
    { apiVersion: 'v1', kind: 'Node', name: 'worker-1' },
    {
      capacity: { cpu: '64', memory: '256Gi', pods: '110' },
      allocatable: { cpu: '64', memory: '256Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    },
  );
  store.put({
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
  for (const g of options.gateways ?? []) {
    if (!store.namespaces().includes(g.namespace))
      store.createNamespace(g.namespace);
    store.put(gatewayClassFor(g));
    store.put(gatewayFor(g));
  }
  for (const secret of options.secrets ?? []) {
    if (!store.namespaces().includes(secret.namespace))
      store.createNamespace(secret.namespace);
    store.put(placeholderSecret(secret));
  }
  for (const o of options.objects ?? []) {
    const ns = o.metadata?.namespace;
    if (ns && !store.namespaces().includes(ns)) store.createNamespace(ns);
    store.put(o as any);
  }
}

/**
 * {@link seedWorkingCluster} through a target's API (`objects`), for the double and a real
 * kube-apiserver alike: the same Node (status as its kubelet would write it), default
 * StorageClass and Gateways, written as a cluster admin.
 */
export async function seedWorkingClusterObjects(
  target: Pick<KubeTarget, 'objects'>,
  options: SeedOptions = {},
): Promise<void> {
  const { objects } = target;
  await objects.put({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1' },
    spec: {},
  });
  // The node lifecycle controller's part: a Ready node loses the not-ready taint the API
  // server's TaintNodesByCondition admission put on it at creation.
  await objects.put({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1' },
    spec: { taints: [] },
  });
  await objects.setStatus(
    { apiVersion: 'v1', kind: 'Node', name: 'worker-1' },
    {
      capacity: { cpu: '64', memory: '256Gi', pods: '110' },
      allocatable: { cpu: '64', memory: '256Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    },
  );
  await objects.put({
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
  // The namespaces the Gateways and Secrets go in (KServe's own, kserve, for its Gateway), as
  // their installers create them.
  const namespaces = new Set<string>([
    ...[...(options.gateways ?? []), ...(options.secrets ?? [])].map(
      o => o.namespace,
    ),
    ...(options.objects ?? []).flatMap(o =>
      o.metadata?.namespace ? [o.metadata.namespace as string] : [],
    ),
  ]);
  for (const name of namespaces)
    if (!(await objects.get({ apiVersion: 'v1', kind: 'Namespace', name })))
      await objects.put({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      });
  for (const g of options.gateways ?? []) {
    await objects.put(gatewayClassFor(g));
    await objects.put(gatewayFor(g));
  }
  for (const secret of options.secrets ?? [])
    await objects.put(placeholderSecret(secret));
  for (const o of options.objects ?? []) await objects.put(o as any);
}

/**
 * The GatewayClass of a seeded Gateway (named as the Gateway), served by Envoy Gateway, as Envoy AI
 * Gateway's basic example and KServe's llm-d setup install theirs.
 */
function gatewayClassFor(g: { name: string }) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GatewayClass',
    metadata: { name: g.name },
    spec: { controllerName: 'gateway.envoyproxy.io/gatewayclass-controller' },
  };
}

function gatewayFor(g: { name: string; namespace: string }) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: g.name, namespace: g.namespace },
    spec: {
      gatewayClassName: g.name,
      // Shared by the namespaces models go to, as KServe's install sets up its own Gateway
      // (without it a listener admits routes from its own namespace only).
      listeners: [
        {
          name: 'http',
          protocol: 'HTTP',
          port: 80,
          allowedRoutes: { namespaces: { from: 'All' } },
        },
      ],
    },
  };
}
