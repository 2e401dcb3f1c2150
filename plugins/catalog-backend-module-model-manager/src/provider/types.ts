import type { Entity } from '@backstage/catalog-model';

/** What {@link buildEntities} needs besides the catalog (read from config by `readProviderConfig`). */
export interface EntityOptions {
  /** Absolute path of models.yaml: the entities' `backstage.io/managed-by-location` is `file:<it>`. */
  modelsFile: string;
  /** Owner of models that set no `owner`, and of runtimes (`catalog.providers.modelManager.defaultOwner`). */
  defaultOwner: string;
  /** Lifecycle of models that set no `lifecycle` (`catalog.providers.modelManager.defaultLifecycle`). */
  defaultLifecycle: string;
  /**
   * System of models (and their APIs) that set no `system`, and of runtimes
   * (`catalog.providers.modelManager.defaultSystem`); none when unset.
   */
  defaultSystem?: string;
  /** Also emit one API entity per model (`catalog.providers.modelManager.apiEntities`). */
  apiEntities: boolean;
  /**
   * The clusters' gateways (`modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`): the API
   * entities' OpenAPI `servers`. Empty: the API says it has no endpoint yet.
   */
  gateways: Array<{ cluster: string; baseUrl: string }>;
}

/** The entities of one catalog, and what was skipped (one message per skipped entity). */
export interface BuiltEntities {
  entities: Entity[];
  warnings: string[];
}

/** Where a model is deployed and the URL KServe reports there (`status.url`), per model name. */
export type ModelDeployments = Record<
  string,
  Array<{ cluster: string; namespace: string; url: string }>
>;
