export interface Config {
  catalog?: {
    providers?: {
      /**
       * Entities for the models and runtimes of models.yaml (read via modelManager.modelsFile):
       * a Component per model, a Resource per runtime and, by default, an API per model.
       */
      modelManager?: {
        /** Owner of model entities that set no owner in models.yaml, and of runtime entities (default group:default/ml-platform). */
        defaultOwner?: string;
        /** Lifecycle of model (and model API) entities that set none (default production). */
        defaultLifecycle?: string;
        /** System of model, model API and runtime entities that set none (e.g. model-serving; default none). */
        defaultSystem?: string;
        /** Also emit an API entity (OpenAI-compatible, OpenAPI 3) per model (default true). */
        apiEntities?: boolean;
        /**
         * How often the API entities' servers (where KServe reports each model deployed, read from
         * the model-manager backend's `GET /fleet`) are read again, in seconds (default 60; 0: never).
         */
        deploymentsRefreshSeconds?: number;
      };
    };
  };
  modelManager?: {
    kubernetes?: {
      /** Per-cluster settings, keyed by the cluster's name in `kubernetes.clusterLocatorMethods`. */
      clusters?: {
        [name: string]: {
          /**
           * Base URL clients reach the cluster's AI gateway at (e.g. https://ai-gateway.example.com):
           * listed as a server of every model's API entity (clients call `<it>/v1/...`).
           */
          gatewayBaseUrl?: string;
        };
      };
    };
  };
}
