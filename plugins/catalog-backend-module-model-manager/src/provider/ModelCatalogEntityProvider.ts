import type { LoggerService } from '@backstage/backend-plugin-api';
import type { Config } from '@backstage/config';
import type { EntityProvider, EntityProviderConnection } from '@backstage/plugin-catalog-node';
import type { Catalog } from '@model-manager/plugin-model-manager-common';
import type { ModelCatalogService } from '@model-manager/plugin-model-manager-node';
import { LOCATION_KEY, PROVIDER_NAME } from './constants';
import { buildEntities } from './entities';
import { readProviderConfig } from './readProviderConfig';
import type { EntityOptions } from './types';

/**
 * Emits the entities of models.yaml (see {@link buildEntities}) as full mutations: one on
 * connect, if a catalog is loaded, and one after every successful reload of the model catalog
 * service. A reload that fails validation notifies nobody, so a broken models.yaml never
 * removes or changes entities: the catalog keeps those of the last good file.
 */
export class ModelCatalogEntityProvider implements EntityProvider {
  private readonly catalog: Pick<ModelCatalogService, 'current' | 'loadStatus' | 'subscribe'>;
  private readonly logger: LoggerService;
  private readonly options: EntityOptions;
  private connection: EntityProviderConnection | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Mutations are applied one after another, so the newest catalog is always the last applied. */
  private queue: Promise<void> = Promise.resolve();

  private constructor(opts: {
    catalog: Pick<ModelCatalogService, 'current' | 'loadStatus' | 'subscribe'>;
    logger: LoggerService;
    options: EntityOptions;
  }) {
    this.catalog = opts.catalog;
    this.logger = opts.logger;
    this.options = opts.options;
  }

  /** Reads `catalog.providers.modelManager.*` and `modelManager.modelsFile`; see readProviderConfig. */
  static fromConfig(
    config: Config,
    deps: {
      catalog: Pick<ModelCatalogService, 'current' | 'loadStatus' | 'subscribe'>;
      logger: LoggerService;
    },
  ): ModelCatalogEntityProvider {
    return new ModelCatalogEntityProvider({ ...deps, options: readProviderConfig(config) });
  }

  getProviderName(): string {
    return PROVIDER_NAME;
  }

  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    this.unsubscribe?.();
    this.unsubscribe = this.catalog.subscribe(catalog => {
      void this.apply(catalog);
    });
    const current = this.catalog.current();
    if (current) {
      await this.apply(current);
    } else {
      this.logger.warn(
        `model-manager: no valid models.yaml loaded yet, so no model entities; they appear once ${this.options.modelsFile} loads. Latest problem: ${this.catalog.loadStatus().message ?? 'unknown'}`,
      );
    }
  }

  private apply(catalog: Catalog): Promise<void> {
    const connection = this.connection;
    if (!connection) return this.queue;
    const run = async () => {
      const { entities, warnings } = buildEntities(catalog, this.options);
      for (const warning of warnings) this.logger.warn(warning);
      await connection.applyMutation({
        type: 'full',
        entities: entities.map(entity => ({ entity, locationKey: LOCATION_KEY })),
      });
      this.logger.info(`model-manager: provided ${entities.length} catalog entities from ${this.options.modelsFile}`);
    };
    this.queue = this.queue.then(run).catch(e => {
      this.logger.error(
        `model-manager: could not update the catalog entities of ${this.options.modelsFile}; the previous ones stay: ${(e as Error).message}`,
      );
    });
    return this.queue;
  }
}
