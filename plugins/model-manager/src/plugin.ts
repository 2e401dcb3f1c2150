import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  createRouteRef,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { ModelManagerClient, modelManagerApiRef } from './api';

export const rootRouteRef = createRouteRef({ id: 'model-manager' });
/** The Deployments page; a legacy app mounts it at `/model-deployments` (links from the rollout template go there). */
export const deploymentsRouteRef = createRouteRef({
  id: 'model-manager-deployments',
});

/** The model-manager frontend plugin (legacy frontend system; see `/alpha` for the new one). */
export const modelManagerPlugin = createPlugin({
  id: 'model-manager',
  apis: [
    createApiFactory({
      api: modelManagerApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        ModelManagerClient.create({ discoveryApi, fetchApi }),
    }),
  ],
  routes: { root: rootRouteRef, deployments: deploymentsRouteRef },
});

/** The Models page: every model in a table. */
export const ModelsPage = modelManagerPlugin.provide(
  createRoutableExtension({
    name: 'ModelsPage',
    component: () => import('./components/ModelsPage').then(m => m.ModelsPage),
    mountPoint: rootRouteRef,
  }),
);

/** The Deployments page: every target (model, cluster, namespace) with its live state, drift and outdated fields. */
export const DeploymentsPage = modelManagerPlugin.provide(
  createRoutableExtension({
    name: 'DeploymentsPage',
    component: () =>
      import('./components/DeploymentsPage').then(m => m.DeploymentsPage),
    mountPoint: deploymentsRouteRef,
  }),
);

/** Entity content for a model: resolved values with provenance, manifests, history. */
export const EntityServingContent = modelManagerPlugin.provide(
  createComponentExtension({
    name: 'EntityServingContent',
    component: {
      lazy: () =>
        import('./components/ServingContent').then(m => m.ServingContent),
    },
  }),
);

/** Entity content for a runtime. */
export const EntityRuntimeContent = modelManagerPlugin.provide(
  createComponentExtension({
    name: 'EntityRuntimeContent',
    component: {
      lazy: () =>
        import('./components/RuntimePage').then(m => m.RuntimeContent),
    },
  }),
);
