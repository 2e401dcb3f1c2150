import { coreServices, createBackendModule } from '@backstage/backend-plugin-api';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { modelCatalogServiceRef } from '@model-manager/plugin-model-manager-node';
import { ModelCatalogEntityProvider } from './provider';

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
      },
      async init({ catalogProcessing, config, logger, modelCatalog }) {
        catalogProcessing.addEntityProvider(
          ModelCatalogEntityProvider.fromConfig(config, { catalog: modelCatalog, logger }),
        );
      },
    });
  },
});
