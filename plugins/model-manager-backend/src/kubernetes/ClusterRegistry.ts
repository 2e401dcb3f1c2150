import fs from 'node:fs';
import type { Config } from '@backstage/config';
import { InputError, NotAllowedError } from '@backstage/errors';
import type { KubeConfig } from '@kubernetes/client-node';
import { isNamespaceName } from '@model-manager/plugin-model-manager-common';
import { clientNode } from './clientNode';

/** A cluster we can deploy to, as the Kubernetes plugin's config describes it. */
export interface ClusterInfo {
  name: string;
  url: string;
  /** Where it was configured: `kubernetes.clusterLocatorMethods` or `kubeconfig`. */
  source: 'config' | 'kubeconfig';
  /**
   * Where clients reach models through the cluster's gateway (`modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`),
   * used for the endpoint while KServe reports none, and for OpenVINO models behind the AI gateway.
   */
  gatewayBaseUrl?: string;
  /**
   * The namespaces models may be deployed to (`modelManager.kubernetes.clusters.<name>.namespaces`);
   * absent: any namespace.
   */
  namespaces?: string[];
}

/**
 * The clusters to deploy to. One list with the Backstage Kubernetes plugin: the `config` entries
 * of `kubernetes.clusterLocatorMethods` (url, serviceAccountToken, caData/caFile,
 * skipTLSVerify), plus the contexts of `modelManager.kubernetes.kubeconfig` for local use.
 */
export class ClusterRegistry {
  private constructor(private readonly clusters: Map<string, Cluster>) {}

  /**
   * @param options.logger told about settings under `modelManager.kubernetes.clusters` for a
   * cluster that is not configured (a base config's `local` under a production overlay's
   * clusters): they are ignored, with a warning naming the key.
   */
  static fromConfig(
    config: Config,
    options: { logger?: { warn(message: string): void } } = {},
  ): ClusterRegistry {
    const clusters = new Map<string, Cluster>();
    const methods =
      config.getOptionalConfigArray('kubernetes.clusterLocatorMethods') ?? [];
    methods.forEach((method, m) => {
      if (method.getString('type') !== 'config') return;
      (method.getOptionalConfigArray('clusters') ?? []).forEach(
        (cluster, c) => {
          const key = `kubernetes.clusterLocatorMethods[${m}].clusters[${c}]`;
          const name = cluster.getString('name');
          const url = cluster.getString('url');
          const authProvider =
            cluster.getOptionalString('authProvider') ?? 'serviceAccount';
          const token = cluster.getOptionalString('serviceAccountToken');
          if (authProvider !== 'serviceAccount') {
            // Other auth providers (oidc, google, aws...) carry the *user's* token from the browser;
            // deploys run in the backend and need a service account.
            return;
          }
          let caData = cluster.getOptionalString('caData');
          const caFile = cluster.getOptionalString('caFile');
          if (!caData && caFile) {
            try {
              caData = fs.readFileSync(caFile).toString('base64');
            } catch (e) {
              throw new Error(
                `${key}.caFile: cannot read ${caFile}: ${(e as Error).message}`,
              );
            }
          }
          const skipTLSVerify =
            cluster.getOptionalBoolean('skipTLSVerify') ?? false;
          if (url.startsWith('http://') && !skipTLSVerify) {
            // @kubernetes/client-node refuses plain http unless TLS verification is off.
            throw new Error(
              `${key}.url is plain http (${url}); use https, or set ${key}.skipTLSVerify: true for a local test cluster`,
            );
          }
          const kubeOptions = {
            clusters: [{ name, server: url, caData, skipTLSVerify }],
            users: [{ name: `${name}-user`, token }],
            contexts: [{ name, cluster: name, user: `${name}-user` }],
            currentContext: name,
          };
          clusters.set(name, {
            info: { name, url, source: 'config' },
            // Built on first use, when the client library is loaded.
            kubeConfig: () => {
              const kubeConfig = new (clientNode().KubeConfig)();
              kubeConfig.loadFromOptions(kubeOptions);
              return kubeConfig;
            },
          });
        },
      );
    });
    const kubeconfigPath = config.getOptionalString(
      'modelManager.kubernetes.kubeconfig',
    );
    if (kubeconfigPath) {
      // A kubeconfig file is for local use; reading it needs the client library now.
      const { KubeConfig } = clientNode();
      const base = new KubeConfig();
      try {
        base.loadFromFile(kubeconfigPath);
      } catch (e) {
        throw new Error(
          `modelManager.kubernetes.kubeconfig: cannot load ${kubeconfigPath}: ${
            (e as Error).message
          }`,
        );
      }
      for (const context of base.getContexts()) {
        if (clusters.has(context.name)) continue;
        const kubeConfig = new KubeConfig();
        kubeConfig.loadFromString(base.exportConfig());
        kubeConfig.setCurrentContext(context.name);
        const cluster = kubeConfig.getCurrentCluster();
        if (!cluster) continue;
        clusters.set(context.name, {
          info: {
            name: context.name,
            url: cluster.server,
            source: 'kubeconfig',
          },
          kubeConfig: () => kubeConfig,
        });
      }
    }
    const unknown = (key: string, name: string) =>
      options.logger?.warn(
        `${key}: there is no cluster '${name}' in kubernetes.clusterLocatorMethods (clusters: ${
          [...clusters.keys()].join(', ') || 'none'
        }), so this setting applies to nothing; fix the name if it is meant for one of them`,
      );
    readClusterSettings(config, clusters, unknown);
    assertAllowlists(config, clusters);
    return new ClusterRegistry(clusters);
  }

  list(): ClusterInfo[] {
    return [...this.clusters.values()].map(c => c.info);
  }

  /** The cluster's configured gateway base URL, if any (unknown clusters: undefined). */
  gatewayBaseUrl(name: string): string | undefined {
    return this.clusters.get(name)?.info.gatewayBaseUrl;
  }

  /** @throws InputError naming the known clusters when `name` is not one of them. */
  assertKnown(name: string): void {
    this.get(name);
  }

  /**
   * @throws NotAllowedError when the cluster has a namespace allowlist without `namespace`
   * (checked before any Kubernetes call, dry runs included).
   */
  assertNamespaceAllowed(cluster: string, namespace: string): void {
    const allowed = this.get(cluster).info.namespaces;
    if (allowed && !allowed.includes(namespace)) {
      throw new NotAllowedError(
        `namespace '${namespace}' is not open to model deployments on cluster ${cluster}; allowed: ${allowed.join(
          ', ',
        )} (modelManager.kubernetes.clusters.${cluster}.namespaces)`,
      );
    }
  }

  /** The cluster's KubeConfig (loads the client library on first use); throws as {@link assertKnown}. */
  kubeConfig(name: string): KubeConfig {
    const cluster = this.get(name);
    cluster.built ??= cluster.kubeConfig();
    return cluster.built;
  }

  private get(name: string): Cluster {
    const cluster = this.clusters.get(name);
    if (!cluster) {
      const known = [...this.clusters.keys()];
      throw new InputError(
        `unknown cluster '${name}'; clusters: ${
          known.length
            ? known.join(', ')
            : '(none configured: add one under kubernetes.clusterLocatorMethods)'
        }`,
      );
    }
    return cluster;
  }
}

/**
 * With `modelManager.kubernetes.requireNamespaceAllowlist` (the production overlay sets it), a
 * cluster without a namespace allowlist stops the start: an open cluster would let any signed-in
 * user deploy into any namespace (kube-system included) with the backend's service account. A
 * failed start is chosen over "start, refuse every deploy" because the operator learns it at
 * once, from the message naming the key, instead of from users' refused deploys.
 */
function assertAllowlists(config: Config, clusters: Map<string, Cluster>) {
  if (
    !config.getOptionalBoolean(
      'modelManager.kubernetes.requireNamespaceAllowlist',
    )
  )
    return;
  const open = [...clusters.values()].filter(c => !c.info.namespaces);
  if (open.length === 0) return;
  throw new Error(
    `modelManager.kubernetes.requireNamespaceAllowlist is on, but ${open
      .map(c => `cluster ${c.info.name}`)
      .join(', ')} ${
      open.length === 1 ? 'has' : 'have'
    } no namespace allowlist: set ${open
      .map(c => `modelManager.kubernetes.clusters.${c.info.name}.namespaces`)
      .join(
        ', ',
      )} to the namespaces models may go to (e.g. [models]), or turn requireNamespaceAllowlist off to leave every namespace open`,
  );
}

/** Told about a setting for a cluster that is not configured (the key and the name). */
type UnknownCluster = (key: string, name: string) => void;

/**
 * The settings of `modelManager.kubernetes.clusters.<name>`: each reads its value, checks it
 * (throwing an Error that names the key) and stores it in the cluster's info.
 */
const CLUSTER_SETTINGS: Record<
  string,
  (cluster: Config, name: string, info: ClusterInfo, key: string) => void
> = {
  gatewayBaseUrl: (cluster, name, info, key) => {
    const url = cluster.getOptionalString(`${name}.gatewayBaseUrl`);
    if (url === undefined) return;
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
      throw new Error(
        `${key}: '${url}' is not an http(s) URL; set the base URL clients reach the cluster's gateway at, e.g. https://ai-gateway.example.com`,
      );
    }
    info.gatewayBaseUrl = url.replace(/\/+$/, '');
  },
  namespaces: (cluster, name, info, key) => {
    const namespaces = cluster.getOptionalStringArray(`${name}.namespaces`);
    if (namespaces === undefined) return;
    const bad = namespaces.filter(n => !isNamespaceName(n));
    if (bad.length > 0) {
      throw new Error(
        `${key}: ${bad.map(b => `'${b}'`).join(', ')} ${
          bad.length === 1
            ? 'is not a namespace name'
            : 'are not namespace names'
        } (DNS-1123 labels: lowercase letters, digits and -)`,
      );
    }
    info.namespaces = namespaces;
  },
};

/**
 * Reads `modelManager.kubernetes.clusters.<name>.*` into the clusters' info. A setting for a
 * cluster that is not configured is passed to `unknown` and applies to nothing.
 * @throws Error naming the key for a value that is not valid.
 */
function readClusterSettings(
  config: Config,
  clusters: Map<string, Cluster>,
  unknown: UnknownCluster,
) {
  const perCluster = config.getOptionalConfig(
    'modelManager.kubernetes.clusters',
  );
  for (const name of perCluster?.keys() ?? []) {
    const cluster = clusters.get(name);
    for (const [setting, read] of Object.entries(CLUSTER_SETTINGS)) {
      const key = `modelManager.kubernetes.clusters.${name}.${setting}`;
      if (!cluster) {
        if (perCluster!.has(`${name}.${setting}`)) unknown(key, name);
        continue;
      }
      read(perCluster!, name, cluster.info, key);
    }
  }
}

interface Cluster {
  info: ClusterInfo;
  kubeConfig: () => KubeConfig;
  built?: KubeConfig;
}
