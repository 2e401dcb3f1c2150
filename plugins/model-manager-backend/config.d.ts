export interface Config {
  /** model-manager: where the catalog files are and how deploys behave. */
  modelManager?: {
    /** Path of models.yaml, relative to the backend's working directory. */
    modelsFile: string;
    /** Path of the runtimes folder; default: `runtimes/` beside models.yaml. */
    runtimesDir?: string;
    /** Reload when models.yaml or runtimes/ change (default true). */
    watch?: boolean;
    /** What runs where (`GET /fleet`, rollout plans). */
    fleet?: {
      /**
       * How long the live objects read from the clusters are reused, in seconds (default 5).
       * Concurrent requests share one read; a deploy through this backend reads again.
       */
      cacheSeconds?: number;
      /**
       * Keep a watch cache of the managed objects per cluster and kind (default true): a LIST, then
       * a WATCH, started on a cluster's first fleet read; while it is live, `/fleet`, rollout plans
       * and the model status answer from it without reading the cluster. The pods and Warning
       * Events the NotReady diagnosis reads are watched too (needs list/watch on pods and events in
       * all namespaces; without it the diagnosis lists per namespace). false: every read lists
       * (after `cacheSeconds`).
       */
      watch?: boolean;
    };
    /** The opt-in permission policy (`@model-manager/plugin-permission-backend-module-model-manager`). */
    permissionPolicy?: {
      /**
       * Its admin group (e.g. group:default/platform); this plugin names it in the message of a
       * denied deploy/undeploy.
       */
      adminGroup?: string;
    };
    /** Kubernetes deploy settings. */
    kubernetes?: {
      /**
       * Send `Impersonate-User: <signed-in user's entity ref>` so the cluster's RBAC applies to
       * the real person (default false). The service account needs `impersonate` on users.
       */
      impersonateUser?: boolean;
      /** Path of a kubeconfig file whose contexts are offered as extra clusters (local use). */
      kubeconfig?: string;
      /** Timeout of one Kubernetes API request in milliseconds (default 10000). */
      requestTimeoutMs?: number;
      /** Attempts for retryable failures (429, 5xx, connection errors), default 4. */
      maxAttempts?: number;
      /** First retry delay in milliseconds, doubling per attempt (default 250). */
      retryBaseDelayMs?: number;
      /**
       * Refuse to start while a configured cluster has no `clusters.<name>.namespaces` allowlist
       * (default false; the production overlay sets it): an open cluster lets any signed-in user
       * deploy into any namespace with the backend's service account.
       */
      requireNamespaceAllowlist?: boolean;
      /** Per-cluster settings, keyed by the cluster's name in `kubernetes.clusterLocatorMethods`. */
      clusters?: {
        [name: string]: {
          /**
           * Base URL clients reach the cluster's AI gateway at (e.g. https://ai-gateway.example.com);
           * clients call `<it>/v1/...`. The endpoint shown for OpenVINO models (routed by the Envoy
           * AI Gateway), and for vLLM models until KServe reports a `status.url`.
           */
          gatewayBaseUrl?: string;
          /**
           * The only namespaces models may be deployed to on this cluster (deploy, dry run,
           * rollback, rollout, undeploy, diff); any other is refused with 403 before a Kubernetes
           * call. Absent: every namespace.
           */
          namespaces?: string[];
        };
      };
    };
  };
}
