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
        /** Also emit an API entity (OpenAI-compatible, OpenAPI 3) per model (default true). */
        apiEntities?: boolean;
      };
    };
  };
}
