import {
  ApiBlueprint,
  createFrontendPlugin,
  createRouteRef,
  discoveryApiRef,
  fetchApiRef,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { FormFieldBlueprint } from '@backstage/plugin-scaffolder-react/alpha';
import ModelTrainingIcon from '@material-ui/icons/Memory';
import DeploymentsIcon from '@material-ui/icons/Storage';
import { ModelManagerClient, modelManagerApiRef } from './api';

const api = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: modelManagerApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        ModelManagerClient.create({ discoveryApi, fetchApi }),
    }),
});

const modelsRouteRef = createRouteRef();

const modelsPage = PageBlueprint.make({
  params: {
    path: '/models',
    title: 'Models',
    icon: <ModelTrainingIcon />,
    routeRef: modelsRouteRef,
    loader: () => import('./components/ModelsPage').then(m => <m.ModelsPage />),
  },
});

const deploymentsRouteRef = createRouteRef();

/** Every deployment target; the rollout template's output links here (`/model-deployments?runtime=`). */
const deploymentsPage = PageBlueprint.make({
  name: 'deployments',
  params: {
    path: '/model-deployments',
    title: 'Deployments',
    icon: <DeploymentsIcon />,
    routeRef: deploymentsRouteRef,
    loader: () =>
      import('./components/DeploymentsPage').then(m => <m.DeploymentsPage />),
  },
});

const servingContent = EntityContentBlueprint.make({
  name: 'serving',
  params: {
    path: '/serving',
    title: 'Serving',
    filter: {
      'metadata.annotations.model-manager.io/model': { $exists: true },
    },
    loader: () =>
      import('./components/ServingContent').then(m => <m.ServingContent />),
  },
});

const runtimeContent = EntityContentBlueprint.make({
  name: 'runtime',
  params: {
    path: '/runtime',
    title: 'Runtime',
    filter: { 'spec.type': 'model-runtime' },
    loader: () =>
      import('./components/RuntimePage').then(m => <m.RuntimeContent />),
  },
});

const statusCard = EntityCardBlueprint.make({
  name: 'kserve-status',
  params: {
    filter: {
      'metadata.annotations.model-manager.io/model': { $exists: true },
    },
    loader: () =>
      import('./components/KServeStatusCard').then(m => <m.KServeStatusCard />),
  },
});

/** A model's Overview, first: runtime, version, where it runs (state, endpoint) and Deploy. */
const modelSummaryCard = EntityCardBlueprint.make({
  name: 'model-summary',
  params: {
    type: 'content',
    filter: {
      'metadata.annotations.model-manager.io/model': { $exists: true },
    },
    loader: () =>
      import('./components/ModelSummaryCard').then(m => <m.ModelSummaryCard />),
  },
});

/** A runtime's Overview: what the Runtime tab holds, summed up. */
const runtimeSummaryCard = EntityCardBlueprint.make({
  name: 'runtime-summary',
  params: {
    filter: { 'spec.type': 'model-runtime' },
    loader: () =>
      import('./components/RuntimePage').then(m => <m.RuntimeSummaryCard />),
  },
});

/**
 * A model's API entity: "Provides APIs" on the Overview, linking the API entity's page, whose
 * Definition tab (Backstage's api-docs) renders it with Swagger UI. The model's own API tab
 * (the definition as text) is off by default: beside api-docs' "APIs" tab of every component it
 * read as a duplicate. Turn it on with `app.extensions: [entity-content:model-manager/api-definition]`.
 */
const modelApiFilter = {
  kind: 'component',
  'metadata.annotations.model-manager.io/model': { $exists: true },
};
const providedApisCard = EntityCardBlueprint.make({
  name: 'provided-apis',
  params: {
    filter: modelApiFilter,
    loader: () =>
      import('./components/ModelApi').then(m => <m.ProvidedApisCard />),
  },
});
const apiDefinitionContent = EntityContentBlueprint.make({
  name: 'api-definition',
  disabled: true,
  params: {
    path: '/api',
    title: 'API',
    filter: modelApiFilter,
    loader: () =>
      import('./components/ModelApi').then(m => <m.ApiDefinitionContent />),
  },
});

const serverVersionField = FormFieldBlueprint.make({
  name: 'server-version-picker',
  params: {
    field: () =>
      import('./components/fields/formFields').then(
        m => m.serverVersionPickerField,
      ),
  },
});
const envField = FormFieldBlueprint.make({
  name: 'env-editor',
  params: {
    field: () =>
      import('./components/fields/formFields').then(m => m.envEditorField),
  },
});
const argsField = FormFieldBlueprint.make({
  name: 'args-editor',
  params: {
    field: () =>
      import('./components/fields/formFields').then(m => m.argsEditorField),
  },
});
const namespaceField = FormFieldBlueprint.make({
  name: 'namespace-picker',
  params: {
    field: () =>
      import('./components/fields/formFields').then(
        m => m.namespacePickerField,
      ),
  },
});
const clusterField = FormFieldBlueprint.make({
  name: 'cluster-picker',
  params: {
    field: () =>
      import('./components/fields/formFields').then(m => m.clusterPickerField),
  },
});

const runtimeField = FormFieldBlueprint.make({
  name: 'runtime-picker',
  params: {
    field: () =>
      import('./components/fields/formFields').then(m => m.runtimePickerField),
  },
});

const pullRequestCheckField = FormFieldBlueprint.make({
  name: 'pull-request-check',
  params: {
    field: () =>
      import('./components/fields/formFields').then(
        m => m.pullRequestCheckField,
      ),
  },
});

const preflightField = FormFieldBlueprint.make({
  name: 'preflight-checks',
  params: {
    field: () =>
      import('./components/fields/formFields').then(
        m => m.preflightChecksField,
      ),
  },
});

/** model-manager for the new frontend system. */
export default createFrontendPlugin({
  pluginId: 'model-manager',
  title: 'Models',
  extensions: [
    api,
    modelsPage,
    deploymentsPage,
    servingContent,
    runtimeContent,
    modelSummaryCard,
    statusCard,
    providedApisCard,
    runtimeSummaryCard,
    apiDefinitionContent,
    serverVersionField,
    envField,
    argsField,
    namespaceField,
    clusterField,
    runtimeField,
    preflightField,
    pullRequestCheckField,
  ],
  routes: { root: modelsRouteRef, deployments: deploymentsRouteRef },
});
