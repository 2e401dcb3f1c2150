import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MockPermissionApi } from '@backstage/test-utils';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { HistoryTable } from './HistoryTable';
import { SWRConfig } from 'swr';
import { modelManagerApiRef, type ModelManagerApi } from '../api';
import { ModelsPage } from './ModelsPage';
import { ServingContent } from './ServingContent';
import { KServeStatusCard } from './KServeStatusCard';
import { RuntimeContent } from './RuntimePage';

const entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'qwen', annotations: { 'model-manager.io/model': 'qwen' } },
  spec: { type: 'model-server', owner: 'group:default/ml', lifecycle: 'production' },
};

const origin = (layer: string, path: string) => ({ layer, file: 'models.yaml', path, line: 3, col: 5 });

function fakeApi(overrides: Partial<ModelManagerApi> = {}): ModelManagerApi {
  return {
    listModels: async () => [
      { name: 'qwen', modelId: 'Qwen/Qwen2.5-7B-Instruct', category: 'llm', runtime: 'vllm', kind: 'LLMInferenceService', version: '0.24.0', versionSource: 'runtime-default', image: 'img', moe: false, tags: [] },
      { name: 'bge-ov', modelId: 'OpenVINO/bge', category: 'embed', runtime: 'openvino', kind: 'InferenceService', image: 'img', moe: false, tags: [] },
    ],
    getModel: async () => ({}) as any,
    listRuntimes: async () => [],
    getRuntime: async () => ({
      name: 'vllm', kind: 'LLMInferenceService', versioned: true, defaultVersion: '0.24.0',
      versions: [{ version: '0.24.0', image: 'docker.io/vllm/vllm-openai-cpu:v0.24.0', default: true, env: {}, args: [] }, { version: '0.19.1', image: 'docker.io/vllm/vllm-openai-cpu:v0.19.1', default: false, env: { VLLM_USE_V1: '1' }, args: [] }],
      env: { VLLM_LOGGING_LEVEL: 'INFO' },
      categories: [{ name: 'llm', defaults: { cpu: 8, memory: '16Gi', kv_cache_gb: 8 }, env: {}, args: [] }],
      plumbing: { routing: { value: 'epp', source: 'runtimes/vllm/values.yaml:5:1 routing' } },
      models: ['qwen'],
    }),
    resolve: async () => ({
      server: { model: 'qwen', modelId: 'Qwen/Qwen2.5-7B-Instruct', category: 'llm', runtime: 'vllm', kind: 'LLMInferenceService', version: { value: '0.19.1', origin: origin('model', 'models.qwen.server.server_version'), overrode: [] }, plumbing: { served_model_name: { value: 'model_id', origin: origin('plumbing', 'served_model_name'), overrode: [] } } } as any,
      explain: [
        { key: 'version', value: '0.19.1', layer: 'model', source: 'models.yaml:30:7 models.qwen.server.server_version', overrode: [{ value: '0.24.0', layer: 'runtime-default', source: 'models.yaml:109:5 runtimes.vllm.default_version' }] },
        { key: 'env.VLLM_CPU_KVCACHE_SPACE', value: '8', layer: 'category', source: 'models.yaml:124:54 runtimes.vllm.categories.llm.defaults.kv_cache_gb', overrode: [] },
      ],
    }),
    render: async () => [{ apiVersion: 'serving.kserve.io/v1alpha2', kind: 'LLMInferenceService', name: 'qwen', namespace: 'models', applyPolicy: 'apply', source: 't', manifest: { kind: 'LLMInferenceService', metadata: { name: 'qwen' } } }],
    history: async () => [{ revision: 3, model: 'qwen', cluster: 'local', namespace: 'models', action: 'deploy', outcome: 'succeeded', actor: 'user:default/alice', serverVersion: '0.19.1', createdAt: '2026-11-30T10:00:00Z', results: [] }],
    status: async () => [],
    catalogStatus: async () => ({ ok: true, at: '2026-11-30T10:00:00Z' }),
    diff: async () => ({ model: 'qwen', cluster: 'local', namespace: 'models', inSync: false, objects: [{ kind: 'LLMInferenceService', name: 'qwen', applyPolicy: 'apply', exists: true, changes: [{ path: '.spec.template.containers[name=main].image', rendered: 'vllm:0.24.0', live: 'vllm:0.19.1' }] }] }),
    rollback: jest.fn(async () => ({ ok: true, revision: 4 })),
    ...overrides,
  };
}

const inEntity = (api: ModelManagerApi, children: JSX.Element) => (
  <TestApiProvider apis={[[modelManagerApiRef, api], [permissionApiRef, new MockPermissionApi()]]}>
    <EntityProvider entity={entity}>{children}</EntityProvider>
  </TestApiProvider>
);

describe('ModelsPage', () => {
  it('lists every model with runtime, category and version source', async () => {
    await renderInTestApp(<TestApiProvider apis={[[modelManagerApiRef, fakeApi()]]}><ModelsPage /></TestApiProvider>);
    expect(await screen.findByText('Models (2)')).toBeInTheDocument();
    expect(screen.getByText('Qwen/Qwen2.5-7B-Instruct')).toBeInTheDocument();
    expect(screen.getByText('0.24.0 (default)')).toBeInTheDocument();
    expect(screen.getByText('— (flat runtime)')).toBeInTheDocument();
  });

  it('shows progress while loading', async () => {
    const never = new Promise<never>(() => {});
    await renderInTestApp(<TestApiProvider apis={[[modelManagerApiRef, fakeApi({ listModels: () => never })]]}><ModelsPage /></TestApiProvider>);
    expect(await screen.findByTestId('progress')).toBeInTheDocument();
  });

  it('warns that models.yaml is broken and the last good catalog is shown', async () => {
    const api = fakeApi({ catalogStatus: async () => ({ ok: false, at: '2026-11-30T10:00:00Z', message: "models.yaml:12:7: models.qwen.server.runtime: unknown runtime 'tgi'" }) });
    await renderInTestApp(<TestApiProvider apis={[[modelManagerApiRef, api]]}><ModelsPage /></TestApiProvider>);
    expect(await screen.findByText(/models.yaml has errors: showing the last good catalog/)).toBeInTheDocument();
    expect(screen.getByText("models.yaml:12:7: models.qwen.server.runtime: unknown runtime 'tgi'")).toBeInTheDocument();
    expect(await screen.findByText('Models (2)')).toBeInTheDocument();
  });

  it('says what to check when the backend is down', async () => {
    await renderInTestApp(<TestApiProvider apis={[[modelManagerApiRef, fakeApi({ listModels: async () => { throw new Error('Failed to fetch'); } })]]}><ModelsPage /></TestApiProvider>);
    expect(await screen.findByText(/Could not load the models/)).toBeInTheDocument();
    expect(screen.getByText(/Check that the model-manager backend is running/)).toBeInTheDocument();
  });
});

describe('ServingContent', () => {
  it('shows each value with the layer that set it and what it replaced', async () => {
    await renderInTestApp(inEntity(fakeApi(), <ServingContent />));
    expect(await screen.findByText('Resolved configuration')).toBeInTheDocument();
    expect(screen.getByText('models.yaml:30:7 models.qwen.server.server_version')).toBeInTheDocument();
    expect(screen.getAllByTestId('layer-model')).toHaveLength(1);
    expect(screen.getByTestId('layer-category')).toHaveTextContent('category');
    expect(screen.getByText('0.24.0')).toBeInTheDocument(); // replaced value, struck through
    expect(screen.getByText(/version from the model pin/)).toBeInTheDocument();
    expect(screen.getByText('user:default/alice')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Deploy' })).toHaveAttribute('href', expect.stringContaining('/create/templates/default/deploy-model?formData='));
  });

  it.each([
    { served_model_name: 'model_id', model: 'Qwen/Qwen2.5-7B-Instruct' },
    { served_model_name: 'model_name', model: 'qwen' },
  ])('the client snippet sends the served name the gateway routes on (served_model_name: $served_model_name)', async ({ served_model_name, model }) => {
    const base = await fakeApi().resolve('qwen', {});
    const api = fakeApi({
      resolve: async () => ({ ...base, server: { ...base.server, plumbing: { served_model_name: { value: served_model_name, origin: origin('plumbing', 'served_model_name'), overrode: [] } } } as any }),
      status: async () => [{ cluster: 'local', namespace: 'models', revision: 3, found: true, endpoint: { source: 'status-url', baseUrl: 'http://qwen.models.example.com/v1', message: 'From the URL KServe reports.' } }],
    });
    await renderInTestApp(inEntity(api, <ServingContent />));
    expect(await screen.findByText('Resolved configuration')).toBeInTheDocument();
    await screen.findByTestId('endpoint-local-models');
    // The snippet is split into highlighted spans: read the page's text.
    expect(document.body.textContent).toContain(`model="${model}"`);
  });

  it('explains a model that is gone from models.yaml', async () => {
    const gone = Object.assign(new Error("unknown model 'qwen'"), { response: { status: 404 } });
    await renderInTestApp(inEntity(fakeApi({ resolve: async () => { throw gone; } }), <ServingContent />));
    expect(await screen.findByText(/Model qwen is not in models.yaml/)).toBeInTheDocument();
  });
});

describe('loading states', () => {
  const never = () => new Promise<never>(() => {});
  it.each([
    ['ServingContent', <ServingContent />],
    ['KServeStatusCard', <KServeStatusCard />],
    ['RuntimeContent', <RuntimeContent />],
  ])('%s shows progress while loading', async (_name, element) => {
    await renderInTestApp(inEntity(fakeApi({ resolve: never, status: never, getRuntime: never }), element));
    expect(await screen.findByTestId('progress')).toBeInTheDocument();
  });
});

describe('KServeStatusCard', () => {
  it('says not deployed', async () => {
    await renderInTestApp(inEntity(fakeApi(), <KServeStatusCard />));
    expect(await screen.findByText(/^Not deployed anywhere yet/)).toBeInTheDocument();
  });

  it('shows Ready with the URL, or what is wrong in words', async () => {
    const api = fakeApi({
      status: async () => [
        { cluster: 'local', namespace: 'models', revision: 1, found: true, summary: { kind: 'LLMInferenceService', name: 'qwen', ready: true, url: 'http://qwen.models', conditions: [{ type: 'Ready', status: 'True' }], problems: [] } },
        { cluster: 'prod', namespace: 'ml', revision: 2, found: true, summary: { kind: 'LLMInferenceService', name: 'qwen', ready: false, conditions: [{ type: 'Ready', status: 'False' }, { type: 'WorkloadsReady', status: 'False', reason: 'ImagePullBackOff' }], problems: ['WorkloadsReady is False: the vLLM pods are not ready (ImagePullBackOff).'] } },
      ],
    });
    await renderInTestApp(inEntity(api, <KServeStatusCard />));
    expect(await screen.findByText('local/models: Ready')).toBeInTheDocument();
    expect(screen.getByText('http://qwen.models')).toBeInTheDocument();
    expect(screen.getAllByTestId('kserve-ready').map(e => e.textContent)).toEqual(['Ready: yes', 'Ready: no']);
    expect(screen.getByText('prod/ml: not ready')).toBeInTheDocument();
    expect(screen.getByText('WorkloadsReady is False: the vLLM pods are not ready (ImagePullBackOff).')).toBeInTheDocument();
  });

  it('shows a permission or backend error', async () => {
    await renderInTestApp(inEntity(fakeApi({ status: async () => { throw new Error('NotAllowedError: denied'); } }), <KServeStatusCard />));
    await waitFor(() => expect(screen.getByText(/Could not read the status/)).toBeInTheDocument());
  });
});

describe('RuntimeContent', () => {
  it('shows versions with the default marked, env, categories and plumbing', async () => {
    await renderInTestApp(inEntity(fakeApi(), <RuntimeContent />));
    expect(await screen.findByText('0.24.0 (default)')).toBeInTheDocument();
    expect(screen.getByText('docker.io/vllm/vllm-openai-cpu:v0.19.1')).toBeInTheDocument();
    expect(screen.getByText('VLLM_USE_V1=1')).toBeInTheDocument();
    expect(screen.getByText(/epp \(runtimes\/vllm\/values\.yaml:5:1 routing\)/)).toBeInTheDocument();
  });
});

describe('HistoryTable', () => {
  const history = [{ revision: 3, model: 'qwen', cluster: 'local', namespace: 'models', action: 'deploy' as const, outcome: 'succeeded' as const, actor: 'user:default/alice', serverVersion: '0.19.1', createdAt: '2026-11-30T10:00:00Z', results: [] }];
  const render = (api: ModelManagerApi, result: AuthorizeResult.ALLOW | AuthorizeResult.DENY) =>
    renderInTestApp(
      // A fresh SWR cache per render: usePermission caches decisions by permission name.
      <SWRConfig value={{ provider: () => new Map() }}>
        <TestApiProvider apis={[[modelManagerApiRef, api], [permissionApiRef, new MockPermissionApi(() => result)]]}>
          <HistoryTable model="qwen" history={history} />
        </TestApiProvider>
      </SWRConfig>,
    );

  it('offers rollback to users allowed to deploy, and rolls back', async () => {
    const api = fakeApi();
    await render(api, AuthorizeResult.ALLOW);
    fireEvent.click(await screen.findByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(api.rollback).toHaveBeenCalledWith('qwen', 3));
  });

  it('hides rollback from users who may not deploy', async () => {
    await render(fakeApi(), AuthorizeResult.DENY);
    expect(await screen.findByText('user:default/alice')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Roll back' })).not.toBeInTheDocument();
  });

  it('shows the diff between rendered and live, field by field', async () => {
    await render(fakeApi(), AuthorizeResult.DENY);
    fireEvent.click(await screen.findByRole('button', { name: 'Diff' }));
    expect(await screen.findByText('.spec.template.containers[name=main].image')).toBeInTheDocument();
    expect(screen.getByTestId('diff')).toHaveTextContent('live vllm:0.19.1 → rendered vllm:0.24.0');
  });
});
