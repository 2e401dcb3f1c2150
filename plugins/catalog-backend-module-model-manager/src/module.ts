import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { modelCatalogServiceRef } from '@model-manager/plugin-model-manager-node';
import { FleetDeploymentReader, ModelCatalogEntityProvider } from './provider';

/**
 * Catalog module: one Component per model, one Resource per runtime and (by default) one API per
 * model, from the models.yaml the model catalog service loads (`modelManager.modelsFile`).
 * Configuration: `catalog.providers.modelManager.*` (see config.d.ts).
 */
export const catalogModuleModelManager = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'model-manager',
  register(env) {
    env.registerInit({
      deps: {
        catalogProcessing: catalogProcessingExtensionPoint,
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        modelCatalog: modelCatalogServiceRef,
        discovery: coreServices.discovery,
        auth: coreServices.auth,
        scheduler: coreServices.scheduler,
      },
      async init({
        catalogProcessing,
        config,
        logger,
        modelCatalog,
        discovery,
        auth,
        scheduler,
      }) {
        const provider = ModelCatalogEntityProvider.fromConfig(config, {
          catalog: modelCatalog,
          logger,
          deployments: FleetDeploymentReader.create({ discovery, auth }),
        });
        catalogProcessing.addEntityProvider(provider);
        // The API entities' servers: where KServe reports each model deployed, read again every
        // `catalog.providers.modelManager.deploymentsRefreshSeconds` (default 60; 0: never).
        const seconds =
          config.getOptionalNumber(
            'catalog.providers.modelManager.deploymentsRefreshSeconds',
          ) ?? 60;
        if (seconds > 0) {
          await scheduler.scheduleTask({
            id: 'model-manager-api-entity-servers',
            scope: 'local',
            frequency: { seconds },
            timeout: { seconds: Math.max(30, seconds) },
            initialDelay: { seconds: Math.min(10, seconds) },
            fn: () => provider.refreshDeployments(),
          });
        }
      },
    });
  },
});
