export interface Config {
  catalog?: {
    providers?: {
      /** Entities for the models and runtimes of models.yaml (read via modelManager.modelsFile). */
      modelManager?: {
        /** Owner of model entities that set no owner in models.yaml (default group:default/ml-platform). */
        defaultOwner?: string;
        /** Lifecycle of model entities that set none (default production). */
        defaultLifecycle?: string;
        /** Also emit an API entity (OpenAI-compatible) per model (default true). */
        apiEntities?: boolean;
      };
    };
  };
}
