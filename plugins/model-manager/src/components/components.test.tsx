import { MockPermissionApi } from '@backstage/test-utils';
import {
  act,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type { ModelManagerApi } from '../api';
import { ServingContent } from './ServingContent';
import { DeclaredVsLive } from './ServingContent/DeclaredVsLive';
import { KServeStatusCard } from './KServeStatusCard';
import { RuntimeContent } from './RuntimePage';
import {
  failsWith,
  fakeApi,
  fleetOf,
  FLEET,
  historyRow,
  liveApi,
  liveFleetApi,
  modelEntity,
  origin,
  qwenStatus,
  renderWithApi,
  target,
  type TestAppOptions,
} from '../__testUtils__';

/** Renders `element` on the page of model qwen, with the fake `api`. */
const renderOnQwen = (
  api: ModelManagerApi,
  element: JSX.Element,
  options: TestAppOptions = {},
) => renderWithApi(api, element, { entity: modelEntity('qwen'), ...options });

describe('ServingContent', () => {
  it('shows each value with the layer that set it and what it replaced', async () => {
    await renderOnQwen(fakeApi(), <ServingContent />);
    expect(
      await screen.findByText('Resolved configuration'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('models.yaml:30:7 models.qwen.server.server_version'),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('layer-model')).toHaveLength(1);
    expect(screen.getByTestId('layer-category')).toHaveTextContent('category');
    expect(screen.getByText('0.24.0', { selector: 's' })).toBeInTheDocument(); // replaced value, struck through
    expect(screen.getByText(/version from the model pin/)).toBeInTheDocument();
    expect(screen.getByText('user:default/alice')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Deploy' })).toHaveAttribute(
      'href',
      expect.stringContaining(
        '/create/templates/default/deploy-model?formData=',
      ),
    );
  });

  it.each([
    ['may deploy and undeploy this model', AuthorizeResult.ALLOW, true],
    ['may not', AuthorizeResult.DENY, false],
  ])(
    'shows Deploy, Roll back and Undeploy to users who %s',
    async (_who, result, shown) => {
      const asked: string[] = [];
      const permissions = new MockPermissionApi(request => {
        asked.push(`${request.permission.name} ${request.resourceRef}`);
        return result;
      });
      await renderOnQwen(
        // Two revisions on the target: the live one (3) offers no Roll back, the earlier one does.
        fakeApi({
          history: async () => [
            historyRow(),
            historyRow({ id: 9, revision: 2, serverVersion: '0.24.0' }),
          ],
        }),
        <ServingContent />,
        { permissions },
      );
      expect(await screen.findByText('Deploy history')).toBeInTheDocument();
      await screen.findByTestId('declared-vs-live');
      const count = (name: string) =>
        screen.queryAllByRole('button', { name }).length;
      await waitFor(() => expect(count('Deploy')).toBe(shown ? 1 : 0));
      await waitFor(() => expect(count('Undeploy') > 0).toBe(shown));
      expect(count('Roll back') > 0).toBe(shown);
      expect(new Set(asked)).toEqual(
        new Set([
          'model-manager.model.deploy component:default/qwen',
          'model-manager.model.undeploy component:default/qwen',
        ]),
      );
    },
  );

  it('says when the backend cannot be reached, and loads on Retry', async () => {
    const working = fakeApi();
    let up = false;
    const resolve = jest.fn(async (name: string) => {
      if (!up) throw new TypeError('Failed to fetch');
      return working.resolve(name);
    });
    await renderOnQwen(fakeApi({ resolve }), <ServingContent />);
    expect(
      await screen.findByText(
        /^Error: The model-manager backend could not be reached$/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Failed to fetch')).toBeInTheDocument();
    expect(screen.queryByText(/Could not resolve/)).toBeNull();
    up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByText('Resolved configuration'),
    ).toBeInTheDocument();
    expect(
      screen.queryByText(/The model-manager backend could not be reached/),
    ).toBeNull();
  });

  it('keeps what it loaded when a reload fails, and says what it shows', async () => {
    const working = fakeApi();
    let calls = 0;
    const resolve = jest.fn(async (name: string) => {
      calls += 1;
      if (calls > 1)
        throw Object.assign(new Error('Service Unavailable'), {
          response: { status: 503 },
        });
      return working.resolve(name);
    });
    await renderOnQwen(fakeApi({ resolve }), <ServingContent />);
    const prod = (await screen.findByText('prod/ml')).closest('tr')!;
    // An undeploy reloads the tab; the backend then answers 503.
    fireEvent.click(
      await within(prod).findByRole('button', { name: 'Undeploy' }),
    );
    fireEvent.click(
      await screen.findByRole('button', { name: 'Undeploy from prod/ml' }),
    );
    expect(
      await screen.findByText(
        /^Warning: The model-manager backend could not be reached: this tab shows what was loaded at /,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Resolved configuration')).toBeInTheDocument();
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  it('undeploys a target after asking, and says so', async () => {
    const api = fakeApi();
    const toast = { post: jest.fn(() => ({ close: () => {} })) };
    await renderOnQwen(api, <ServingContent />, { toast });
    const prod = (await screen.findByText('prod/ml')).closest('tr')!;
    fireEvent.click(
      await within(prod).findByRole('button', { name: 'Undeploy' }),
    );
    expect(api.undeploy).not.toHaveBeenCalled();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Undeploy from prod/ml' }),
    );
    await waitFor(() =>
      expect(api.undeploy).toHaveBeenCalledWith('qwen', {
        cluster: 'prod',
        namespace: 'ml',
      }),
    );
    await waitFor(() =>
      expect(toast.post).toHaveBeenCalledWith(
        expect.objectContaining({
          title: 'Undeployed qwen from prod/ml',
          status: 'success',
        }),
      ),
    );
  });

  it('shows declared vs live for each target of the model in its header', async () => {
    await renderOnQwen(fakeApi(), <ServingContent />);
    const card = within(await screen.findByTestId('declared-vs-live'));
    expect(card.getByText('Declared vs live')).toBeInTheDocument();
    const prod = (await card.findByText('prod/ml')).closest('tr')!;
    expect(
      within(prod).getAllByText('docker.io/vllm/vllm-openai-cpu:v0.24.0'),
    ).toHaveLength(1); // declared
    expect(
      within(prod).getByText('docker.io/vllm/vllm-openai-cpu:v0.19.1'),
    ).toBeInTheDocument(); // live
    expect(within(prod).getByTestId('state-NotReady')).toHaveTextContent(
      'ImagePullBackOff',
    );
    expect(within(prod).getByTestId('chip-outdated')).toHaveTextContent(
      'outdated: 1',
    );
    // Worded about the configuration, not health.
    expect(
      within(card.getByText('local/models').closest('tr')!).getByTestId(
        'chip-in-sync',
      ),
    ).toHaveTextContent(/^same as a new deploy$/);
    expect(screen.queryByText('bge-ov')).not.toBeInTheDocument();
  });

  it('follows pushes one read at a time, and keeps the table with a warning when a read fails', async () => {
    const reads: Array<(answer: Error | undefined) => void> = [];
    const { api, push } = liveApi({
      modelFleet: jest.fn(
        () =>
          new Promise((resolve, reject) =>
            reads.push(failure =>
              failure
                ? reject(failure)
                : resolve({
                    ...FLEET,
                    items: FLEET.items.filter(i => i.model === 'qwen'),
                  }),
            ),
          ),
      ),
    });
    await renderOnQwen(api, <DeclaredVsLive model="qwen" />);
    await waitFor(() => expect(reads).toHaveLength(1));
    await act(async () => reads[0](undefined));
    const card = within(await screen.findByTestId('declared-vs-live'));
    expect(card.getAllByText('local/models').length).toBeGreaterThan(0);
    // A rollout pushes three times while the next read is under way: one more read, not three.
    push(['local']);
    await waitFor(() => expect(reads).toHaveLength(2));
    push(['local']);
    push(['prod']);
    push(['local']);
    await act(async () =>
      reads[1](new Error('ServiceUnavailable: the backend restarts')),
    );
    await waitFor(() => expect(reads).toHaveLength(3));
    expect(
      await card.findByText(/Could not read the latest changes/),
    ).toBeInTheDocument();
    expect(card.getAllByText('local/models').length).toBeGreaterThan(0);
    await act(async () => reads[2](undefined));
    await waitFor(() =>
      expect(
        card.queryByText(/Could not read the latest changes/),
      ).not.toBeInTheDocument(),
    );
    expect(api.modelFleet).toHaveBeenCalledTimes(3);
  });

  it('keeps the tab working when the fleet cannot be read', async () => {
    await renderOnQwen(
      fakeApi({ modelFleet: failsWith('cluster prod: connect ECONNREFUSED') }),
      <ServingContent />,
    );
    expect(
      await screen.findByText(/Could not read where this model runs/),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Resolved configuration'),
    ).toBeInTheDocument();
  });

  it.each([
    { served_model_name: 'model_id', model: 'Qwen/Qwen2.5-7B-Instruct' },
    { served_model_name: 'model_name', model: 'qwen' },
  ])(
    'the client snippet sends the served name the gateway routes on (served_model_name: $served_model_name)',
    async ({ served_model_name, model }) => {
      const base = await fakeApi().resolve('qwen', {});
      const api = fakeApi({
        resolve: async () => ({
          ...base,
          server: {
            ...base.server,
            plumbing: {
              served_model_name: {
                value: served_model_name,
                origin: origin('plumbing', 'served_model_name'),
                overrode: [],
              },
            },
          } as any,
        }),
        status: async () => [
          {
            cluster: 'local',
            namespace: 'models',
            revision: 3,
            found: true,
            endpoint: {
              source: 'status-url',
              baseUrl: 'http://qwen.models.example.com/v1',
              message: 'From the URL KServe reports.',
            },
          },
        ],
      });
      await renderOnQwen(api, <ServingContent />);
      expect(
        await screen.findByText('Resolved configuration'),
      ).toBeInTheDocument();
      await screen.findByTestId('endpoint-local-models');
      // The snippet is split into highlighted spans: read the page's text.
      expect(document.body.textContent).toContain(`model="${model}"`);
    },
  );

  it('explains a model that is gone from models.yaml', async () => {
    const gone = Object.assign(new Error("unknown model 'qwen'"), {
      response: { status: 404 },
    });
    await renderOnQwen(
      fakeApi({
        resolve: async () => {
          throw gone;
        },
      }),
      <ServingContent />,
    );
    expect(
      await screen.findByText(/Model qwen is not in models.yaml/),
    ).toBeInTheDocument();
  });
});

describe('loading states', () => {
  const never = () => new Promise<never>(() => {});
  it.each([
    ['ServingContent', <ServingContent />],
    ['KServeStatusCard', <KServeStatusCard />],
    ['RuntimeContent', <RuntimeContent />],
  ])('%s shows progress while loading', async (_name, element) => {
    await renderOnQwen(
      fakeApi({ resolve: never, status: never, getRuntime: never }),
      element,
    );
    expect(await screen.findByTestId('progress')).toBeInTheDocument();
  });
});

describe('KServeStatusCard', () => {
  it('follows the clusters: a change the backend pushes is shown without reloading, the card staying meanwhile', async () => {
    const at = (ready: boolean) => [
      qwenStatus({
        ready,
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
        problems: ready ? [] : ['Ready is False.'],
      }),
    ];
    let answer = at(false);
    const { api, push } = liveApi({ status: jest.fn(async () => answer) });
    await renderOnQwen(api, <KServeStatusCard />);
    expect(
      await screen.findByText('local/models: not ready'),
    ).toBeInTheDocument();
    answer = at(true);
    push(['local']);
    expect(await screen.findByText('local/models: Ready')).toBeInTheDocument();
    expect(screen.queryByTestId('progress')).not.toBeInTheDocument();
    expect(api.status).toHaveBeenCalledTimes(2);
  });

  it('keeps the last status with a warning when a read after a push fails', async () => {
    let failing = false;
    const { api, push } = liveApi({
      status: jest.fn(async () => {
        if (failing)
          throw new Error('ServiceUnavailable: the backend restarts');
        return [qwenStatus()];
      }),
    });
    await renderOnQwen(api, <KServeStatusCard />);
    expect(await screen.findByText('local/models: Ready')).toBeInTheDocument();
    failing = true;
    push(['local']);
    expect(
      await screen.findByText(/Could not read the latest status/),
    ).toBeInTheDocument();
    expect(screen.getByText('local/models: Ready')).toBeInTheDocument();
  });

  it('says not deployed', async () => {
    await renderOnQwen(fakeApi(), <KServeStatusCard />);
    expect(
      await screen.findByText(/^Not deployed anywhere yet/),
    ).toBeInTheDocument();
  });

  it('shows Ready with the URL, or what is wrong in words', async () => {
    const api = fakeApi({
      status: async () => [
        qwenStatus({ url: 'http://qwen.models' }),
        qwenStatus(
          {
            ready: false,
            conditions: [
              { type: 'Ready', status: 'False' },
              {
                type: 'WorkloadsReady',
                status: 'False',
                reason: 'ImagePullBackOff',
              },
            ],
            problems: [
              'WorkloadsReady is False: the vLLM pods are not ready (ImagePullBackOff).',
            ],
          },
          { cluster: 'prod', namespace: 'ml', revision: 2 },
        ),
      ],
    });
    await renderOnQwen(api, <KServeStatusCard />);
    expect(await screen.findByText('local/models: Ready')).toBeInTheDocument();
    expect(screen.getByText('http://qwen.models')).toBeInTheDocument();
    expect(
      screen.getAllByTestId('kserve-ready').map(e => e.textContent),
    ).toEqual(['Ready: yes', 'Ready: no']);
    expect(screen.getByText('prod/ml: not ready')).toBeInTheDocument();
    expect(
      screen.getByText(
        'WorkloadsReady is False: the vLLM pods are not ready (ImagePullBackOff).',
      ),
    ).toBeInTheDocument();
  });

  it('shows a permission or backend error', async () => {
    await renderOnQwen(
      fakeApi({ status: failsWith('NotAllowedError: denied') }),
      <KServeStatusCard />,
    );
    await waitFor(() =>
      expect(screen.getByText(/Could not read the status/)).toBeInTheDocument(),
    );
  });
});

describe('RuntimeContent', () => {
  it('follows the clusters: the fleet by version reads again the cluster a push names, the matrix staying meanwhile', async () => {
    // Every reader of the page subscribes (the matrix and the plan line).
    const { api, push, setFleet } = liveFleetApi(FLEET);
    await renderOnQwen(api, <RuntimeContent />);
    expect(await screen.findByTestId('live-0.19.1')).toHaveTextContent('1');
    // The target on local moved to 0.19.1 (a rollout elsewhere): the matrix counts it there.
    setFleet({
      ...FLEET,
      items: FLEET.items.map(i =>
        i.cluster === 'local' && i.runtime === 'vllm'
          ? { ...i, liveVersion: '0.19.1' }
          : i,
      ),
    });
    push(['local']);
    await waitFor(() =>
      expect(screen.getByTestId('live-0.19.1')).toHaveTextContent('2'),
    );
    expect(screen.queryByTestId('progress')).not.toBeInTheDocument();
    // vllm runs on local and prod: only local is read again.
    expect((api.fleet as jest.Mock).mock.calls).toEqual([
      [{ runtime: 'vllm' }],
      [{ runtime: 'vllm', cluster: 'local' }],
    ]);
  });

  it('keeps the matrix with a warning when a read after a push fails, and reads again with the next push', async () => {
    let failing = false;
    const { api, push } = liveApi({
      fleet: jest.fn(async () => {
        if (failing)
          throw new Error('ServiceUnavailable: the backend restarts');
        return FLEET;
      }),
    });
    await renderOnQwen(api, <RuntimeContent />);
    expect(await screen.findByTestId('live-0.19.1')).toHaveTextContent('1');
    failing = true;
    push(['local']);
    expect(
      await screen.findByText(/Could not read the latest changes/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/ServiceUnavailable: the backend restarts/),
    ).toBeInTheDocument();
    // The matrix read before stays.
    expect(screen.getByTestId('live-0.19.1')).toHaveTextContent('1');
    failing = false;
    push(['prod']);
    await waitFor(() =>
      expect(
        screen.queryByText(/Could not read the latest changes/),
      ).not.toBeInTheDocument(),
    );
  });

  it('the plan line is read one plan at a time: pushes during a read make one more read, not one each', async () => {
    const plans: Array<(moves: number) => void> = [];
    const plan = (runtime: string, moves: number) => ({
      runtime,
      moves: Array.from({ length: moves }, (_, i) => ({
        model: `m${i}`,
        cluster: 'local',
        namespace: 'models',
        fromVersion: '0.19.1',
        toVersion: '0.24.0',
        overrides: {},
        changes: [],
      })),
      stays: [],
      errors: [],
    });
    const { api, push } = liveApi({
      rolloutPlan: jest.fn(
        ({ runtime }) =>
          new Promise(resolve =>
            plans.push(moves => resolve(plan(runtime, moves))),
          ),
      ),
    });
    await renderOnQwen(api, <RuntimeContent />);
    await waitFor(() => expect(plans).toHaveLength(1));
    // A rollout pushes again and again while the first plan is built.
    push(['local']);
    push(['prod']);
    push(['local']);
    await act(async () => plans[0](3));
    expect(await screen.findByTestId('plan-line')).toHaveTextContent(
      'would move 3 targets',
    );
    await waitFor(() => expect(plans).toHaveLength(2));
    await act(async () => plans[1](1));
    await waitFor(() =>
      expect(screen.getByTestId('plan-line')).toHaveTextContent(
        'would move 1 target (',
      ),
    );
    expect(api.rolloutPlan).toHaveBeenCalledTimes(2);
  });

  it('offers no Roll out toward the version every target already runs', async () => {
    const api = fakeApi({
      fleet: jest.fn(async () =>
        fleetOf([
          target({
            cluster: 'local',
            namespace: 'models',
            liveVersion: '0.24.0',
          }),
          target({ cluster: 'prod', namespace: 'ml', liveVersion: '0.24.0' }),
        ]),
      ),
    });
    await renderOnQwen(api, <RuntimeContent />);
    expect(await screen.findByText('every target runs it')).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Roll out 0.24.0' }),
    ).not.toBeInTheDocument();
    // Toward the version none runs, it moves both.
    expect(
      screen.getByRole('button', { name: 'Roll out 0.19.1' }),
    ).toBeInTheDocument();
  });

  it('shows versions with the default marked, env, categories and plumbing', async () => {
    await renderOnQwen(fakeApi(), <RuntimeContent />);
    expect(await screen.findByText('0.24.0 (default)')).toBeInTheDocument();
    expect(
      screen.getByText('docker.io/vllm/vllm-openai-cpu:v0.19.1'),
    ).toBeInTheDocument();
    expect(screen.getByText('VLLM_USE_V1=1')).toBeInTheDocument();
    expect(screen.getByText('epp')).toBeInTheDocument();
    expect(
      screen.getByText('runtimes/vllm/values.yaml:5:1 routing'),
    ).toBeInTheDocument();
  });

  it('counts per version the live targets running it and the outdated ones, and links the rollout template pre-filled', async () => {
    const api = fakeApi({
      fleet: jest.fn(async () => FLEET),
      rolloutPlan: async ({ runtime }) => ({
        runtime,
        moves: [
          {
            model: 'qwen',
            cluster: 'prod',
            namespace: 'ml',
            fromVersion: '0.19.1',
            toVersion: '0.24.0',
            overrides: {},
            changes: [],
          },
        ],
        stays: [
          {
            model: 'qwen',
            cluster: 'local',
            namespace: 'models',
            liveVersion: '0.19.1',
            why: 'held',
            reason:
              'held at 0.19.1 by rollout of 2026-12-01 by user:default/bob (revision 3); models.yaml default 0.24.0; plan with includeHeld to move it',
            hold: {
              version: '0.19.1',
              by: 'rollout',
              revision: 3,
              actor: 'user:default/bob',
              at: '2026-12-01T10:00:00Z',
              catalogVersion: '0.24.0',
              text: 'held at 0.19.1 by rollout of 2026-12-01 by user:default/bob (revision 3); models.yaml default 0.24.0',
            },
          },
        ],
        errors: [],
      }),
    });
    await renderOnQwen(api, <RuntimeContent />);
    expect(await screen.findByText('Fleet by version')).toBeInTheDocument();
    expect(api.fleet).toHaveBeenCalledWith({ runtime: 'vllm' });
    expect(screen.getByTestId('live-0.24.0')).toHaveTextContent('1');
    expect(screen.getByTestId('outdated-0.24.0')).toHaveTextContent('0');
    expect(screen.getByTestId('live-0.19.1')).toHaveTextContent('1');
    expect(screen.getByTestId('outdated-0.19.1')).toHaveTextContent('1');
    expect(screen.getByText('qwen@prod/ml')).toBeInTheDocument();
    expect(screen.queryByText(/bge-ov@/)).not.toBeInTheDocument(); // another runtime
    // The plan without a version says what it moves, and that the held target stays (and why),
    // in the form's words only (the hold, not the REST hint includeHeld).
    expect(await screen.findByTestId('plan-line')).toHaveTextContent(
      'Rolling out what models.yaml resolves now (no version) would move 1 target (0.19.1 -> 0.24.0); 1 held target stays where a rollout or a request put it (qwen@local/models: held at 0.19.1 by rollout of 2026-12-01 by user:default/bob (revision 3); models.yaml default 0.24.0); tick "Move held targets too" in the rollout to move it.',
    );
    const formData = (href: string | null) =>
      JSON.parse(new URL(href!, 'http://x').searchParams.get('formData')!);
    const rollOut = screen.getByRole('button', { name: 'Roll out 0.19.1' });
    expect(rollOut.getAttribute('href')).toMatch(
      /^\/create\/templates\/default\/rollout-runtime-version\?formData=/,
    );
    expect(formData(rollOut.getAttribute('href'))).toEqual({
      runtime: 'vllm',
      version: '0.19.1',
    });
    expect(
      formData(
        screen.getByRole('button', { name: 'Roll out' }).getAttribute('href'),
      ),
    ).toEqual({ runtime: 'vllm' });
  });
});
