import { createBackendModule } from '@backstage/backend-plugin-api';
import { catalogCollatorExtensionPoint } from '@backstage/plugin-search-backend-module-catalog';
import { modelSearchTransformer } from './modelSearchTransformer';

/**
 * Makes the catalog collator (`@backstage/plugin-search-backend-module-catalog`) index models by
 * model id, runtime, category and tags. Add it beside that module.
 */
export const searchModuleModelManager = createBackendModule({
  pluginId: 'search',
  moduleId: 'model-manager-entities',
  register(reg) {
    reg.registerInit({
      deps: { collator: catalogCollatorExtensionPoint },
      async init({ collator }) {
        collator.setEntityTransformer(modelSearchTransformer);
      },
    });
  },
});
