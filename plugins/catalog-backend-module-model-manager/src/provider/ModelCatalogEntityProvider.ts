import type { LoggerService } from '@backstage/backend-plugin-api';
import type { Entity } from '@backstage/catalog-model';
import type { Config } from '@backstage/config';
import type {
  EntityProvider,
  EntityProviderConnection,
} from '@backstage/plugin-catalog-node';
import type { Catalog } from '@model-manager/plugin-model-manager-common';
import type { ModelCatalogService } from '@model-manager/plugin-model-manager-node';
import { LOCATION_KEY, PROVIDER_NAME } from './constants';
import {
  diffEntities,
  entityInputs,
  unchangedModels,
  type ProvidedEntities,
} from './diffEntities';
import { buildEntities } from './entities';
import { readProviderConfig } from './readProviderConfig';
import type { DeploymentReader } from './readDeployments';
import type { EntityOptions, ModelDeployments } from './types';

/**
 * Emits the entities of models.yaml (see {@link buildEntities}): a full mutation on connect, if a
 * catalog is loaded, then after every successful reload of the model catalog service a delta
 * mutation of only the entities that changed, appeared or went away (nothing when none did); only
 * the models whose inputs changed are built again (see `unchangedModels`). A
 * mutation the catalog refuses makes the next one full again. A reload that fails validation
 * notifies nobody, so a broken models.yaml never removes or changes entities: the catalog keeps
 * those of the last good file.
 */
export class ModelCatalogEntityProvider implements EntityProvider {
  private readonly catalog: Pick<
    ModelCatalogService,
    'current' | 'loadStatus' | 'subscribe'
  >;
  private readonly logger: LoggerService;
  private readonly options: EntityOptions;
  private connection: EntityProviderConnection | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Mutations are applied one after another, so the newest catalog is always the last applied. */
  private queue: Promise<void> = Promise.resolve();
  /** What the catalog holds from us (digests by entity ref); undefined: the next mutation is full. */
  private provided: ProvidedEntities | undefined;

  private readonly deploymentReader: DeploymentReader | undefined;
  /** Where models are deployed, as last read: the API entities' servers. */
  private deployments: ModelDeployments = {};
  private deploymentsError: string | undefined;

  private constructor(opts: {
    catalog: Pick<ModelCatalogService, 'current' | 'loadStatus' | 'subscribe'>;
    logger: LoggerService;
    options: EntityOptions;
    deployments?: DeploymentReader;
  }) {
    this.catalog = opts.catalog;
    this.logger = opts.logger;
    this.options = opts.options;
    this.deploymentReader = opts.deployments;
  }

  /** Reads `catalog.providers.modelManager.*` and `modelManager.modelsFile`; see readProviderConfig. */
  static fromConfig(
    config: Config,
    deps: {
      catalog: Pick<
        ModelCatalogService,
        'current' | 'loadStatus' | 'subscribe'
      >;
      logger: LoggerService;
      /** Where models are deployed (the module reads the model-manager backend's fleet). */
      deployments?: DeploymentReader;
    },
  ): ModelCatalogEntityProvider {
    return new ModelCatalogEntityProvider({
      ...deps,
      options: readProviderConfig(config),
    });
  }

  getProviderName(): string {
    return PROVIDER_NAME;
  }

  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    this.provided = undefined;
    this.unsubscribe?.();
    this.unsubscribe = this.catalog.subscribe(catalog => {
      void this.apply(catalog);
    });
    const current = this.catalog.current();
    if (current) {
      await this.apply(current);
    } else {
      this.logger.warn(
        `model-manager: no valid models.yaml loaded yet, so no model entities; they appear once ${
          this.options.modelsFile
        } loads. Latest problem: ${
          this.catalog.loadStatus().message ?? 'unknown'
        }`,
      );
    }
  }

  /**
   * Reads where models are deployed again; when that changed, provides the entities again (their
   * API servers). A failed read is logged once per message and keeps the previous servers.
   */
  async refreshDeployments(): Promise<void> {
    if (!this.deploymentReader) return;
    let next: ModelDeployments;
    try {
      next = await this.deploymentReader.read();
    } catch (e) {
      const message = (e as Error).message;
      if (message !== this.deploymentsError) {
        this.logger.warn(
          `model-manager: could not read where models are deployed, so the API entities keep their servers: ${message}`,
        );
      }
      this.deploymentsError = message;
      return;
    }
    this.deploymentsError = undefined;
    if (JSON.stringify(next) === JSON.stringify(this.deployments)) return;
    this.deployments = next;
    const current = this.catalog.current();
    if (current) await this.apply(current);
  }

  private apply(catalog: Catalog): Promise<void> {
    const connection = this.connection;
    if (!connection) return this.queue;
    const run = async () => {
      // Models whose inputs did not change since the last successful mutation are not built again.
      const inputs = entityInputs(catalog, this.deployments);
      const { entities, warnings } = buildEntities(
        catalog,
        this.options,
        this.deployments,
        unchangedModels(this.provided, inputs),
      );
      for (const warning of warnings) this.logger.warn(warning);
      await this.provide(connection, catalog, inputs, entities);
    };
    this.queue = this.queue.then(run).catch(e => {
      this.logger.error(
        `model-manager: could not update the catalog entities of ${
          this.options.modelsFile
        }; the previous ones stay: ${(e as Error).message}`,
      );
    });
    return this.queue;
  }

  /** A full mutation when nothing was provided yet (or the last one failed), else a delta. */
  private async provide(
    connection: EntityProviderConnection,
    catalog: Catalog,
    inputs: ReturnType<typeof entityInputs>,
    entities: Entity[],
  ): Promise<void> {
    const previous = this.provided;
    // Unknown until this mutation succeeds: a failed one makes the next one full.
    this.provided = undefined;
    const { added, removed, provided } = diffEntities(
      previous,
      catalog,
      inputs,
      entities,
    );
    if (!previous) {
      await connection.applyMutation({
        type: 'full',
        entities: entities.map(entity => ({
          entity,
          locationKey: LOCATION_KEY,
        })),
      });
      this.provided = provided;
      this.logger.info(
        `model-manager: provided ${entities.length} catalog entities from ${this.options.modelsFile}`,
      );
      return;
    }
    if (added.length || removed.length) {
      await connection.applyMutation({
        type: 'delta',
        added: added.map(entity => ({ entity, locationKey: LOCATION_KEY })),
        removed: removed.map(entityRef => ({
          entityRef,
          locationKey: LOCATION_KEY,
        })),
      });
    }
    this.provided = provided;
    this.logger.info(
      `model-manager: ${added.length} catalog entities added or changed, ${removed.length} removed, from ${this.options.modelsFile}`,
    );
  }
}
