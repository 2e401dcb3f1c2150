import path from 'node:path';
import {
  coreServices,
  createServiceFactory,
  createServiceRef,
} from '@backstage/backend-plugin-api';
import { ModelCatalogStore } from './loader/ModelCatalogStore';

/** The model catalog shared by the model-manager backend plugin and the catalog module. */
export type ModelCatalogService = Pick<
  ModelCatalogStore,
  'current' | 'loadStatus' | 'subscribe' | 'reload'
>;

/**
 * One catalog store per backend (root scope), read from `modelManager.modelsFile` and
 * `modelManager.runtimesDir` and, unless `modelManager.watch` is false, reloaded on file changes.
 */
export const modelCatalogServiceRef = createServiceRef<ModelCatalogService>({
  id: 'model-manager.catalog',
  scope: 'root',
  defaultFactory: async service =>
    createServiceFactory({
      service,
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.rootLogger,
        lifecycle: coreServices.rootLifecycle,
      },
      async factory({ config, logger, lifecycle }) {
        const modelsFile = config.getOptionalString('modelManager.modelsFile');
        if (!modelsFile) {
          throw new Error(
            'model-manager: set modelManager.modelsFile in app-config.yaml to the path of models.yaml (relative to the backend working directory)',
          );
        }
        const runtimesDir = config.getOptionalString(
          'modelManager.runtimesDir',
        );
        const store = await ModelCatalogStore.create({
          location: {
            modelsFile: path.resolve(modelsFile),
            runtimesDir: runtimesDir ? path.resolve(runtimesDir) : undefined,
          },
          logger: logger.child({ plugin: 'model-manager' }),
          watch: config.getOptionalBoolean('modelManager.watch') ?? true,
        });
        lifecycle.addShutdownHook(() => store.close());
        return store;
      },
    }),
});
