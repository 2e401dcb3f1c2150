/*
 * The portal's backend: Backstage's own plugins plus model-manager's. No product logic here.
 */
import { createBackend } from '@backstage/backend-defaults';
import {
  coreServices,
  createBackendFeatureLoader,
} from '@backstage/backend-plugin-api';

const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));
backend.add(import('@backstage/plugin-proxy-backend'));

// auth: guest sign-in for the embedded default (see app-config.yaml)
backend.add(import('@backstage/plugin-auth-backend'));
backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));

// catalog
backend.add(import('@backstage/plugin-catalog-backend'));
backend.add(
  import('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'),
);
backend.add(import('@backstage/plugin-catalog-backend-module-logs'));
backend.add(
  import('@model-manager/plugin-catalog-backend-module-model-manager'),
);

// permissions: allow-all for the embedded default; with modelManager.permissionPolicy.enabled,
// model-manager's policy (owners deploy their models, an admin group deploys anything)
backend.add(import('@backstage/plugin-permission-backend'));
backend.add(
  createBackendFeatureLoader({
    deps: { config: coreServices.rootConfig },
    *loader({ config }) {
      if (config.getOptionalBoolean('modelManager.permissionPolicy.enabled'))
        yield import(
          '@model-manager/plugin-permission-backend-module-model-manager'
        );
      else
        yield import(
          '@backstage/plugin-permission-backend-module-allow-all-policy'
        );
    },
  }),
);

// scaffolder
backend.add(import('@backstage/plugin-scaffolder-backend'));
// publish:github:pull-request, for "Propose model deployment (pull request)" (GitOps)
backend.add(import('@backstage/plugin-scaffolder-backend-module-github'));
backend.add(
  import('@model-manager/plugin-scaffolder-backend-module-model-manager'),
);

// search: the stock search page, with the catalog's collator (models, runtimes, APIs, templates)
backend.add(import('@backstage/plugin-search-backend'));
backend.add(import('@backstage/plugin-search-backend-module-catalog'));
backend.add(
  import('@model-manager/plugin-search-backend-module-model-manager'),
);

// kubernetes (the Kubernetes tab)
backend.add(import('@backstage/plugin-kubernetes-backend'));

// model-manager
backend.add(import('@model-manager/plugin-model-manager-backend'));

backend.start();
