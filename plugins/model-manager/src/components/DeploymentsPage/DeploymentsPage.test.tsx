import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  failsWith,
  fakeApi,
  FLEET,
  fleetOf,
  heldSync,
  liveFleetApi,
  renderPage,
  target,
} from '../../__testUtils__';
import type { ModelManagerApi } from '../../api';
import { DeploymentsPage } from './DeploymentsPage';

/** The Deployments page at `url`, its URL query under test id `search` (to check that the filters are in it). */
const renderDeployments = (api: ModelManagerApi, url = '/model-deployments') =>
  renderPage(api, <DeploymentsPage />, url);

const rowOf = (text: string) =>
  screen.getByText(text).closest('tr') as HTMLElement;

describe('DeploymentsPage', () => {
  it('lists every target with its state and reason, live version and image, last revision and a link to the model', async () => {
    await renderDeployments(fakeApi());
    expect(await screen.findByText('Deployments (3 of 3)')).toBeInTheDocument();
    const prod = rowOf('prod/ml');
    expect(within(prod).getByRole('link', { name: 'qwen' })).toHaveAttribute(
      'href',
      '/catalog/default/component/qwen/serving',
    );
    expect(within(prod).getByTestId('state-NotReady')).toHaveTextContent(
      'NotReady',
    );
    expect(
      within(prod).getByText(
        'WorkloadsReady is False: the vLLM pods are not ready (ImagePullBackOff).',
      ),
    ).toBeInTheDocument();
    expect(within(prod).getByText('0.19.1')).toBeInTheDocument();
    expect(
      within(prod).getByText('docker.io/vllm/vllm-openai-cpu:v0.19.1'),
    ).toBeInTheDocument();
    expect(
      within(prod).getByText(/^rev 1 rollout by user:default\/bob, /),
    ).toBeInTheDocument();
    expect(within(prod).getByTestId('chip-outdated')).toHaveTextContent(
      'outdated: 1',
    );
    const bge = screen
      .getByRole('link', { name: 'bge-ov' })
      .closest('tr') as HTMLElement;
    expect(within(bge).getByTestId('chip-drifted')).toHaveTextContent(
      'drifted: 1',
    );
    expect(
      within(bge).getByText(
        'no revision on record (applied outside this portal)',
      ),
    ).toBeInTheDocument();
  });

  it('lists the changed fields behind a drift chip', async () => {
    await renderDeployments(fakeApi());
    await userEvent.hover(await screen.findByTestId('chip-drifted'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      '.spec.predictor.minReplicas: applied 1 → live 3',
    );
  });

  it('opens a row on the field lists behind its chips', async () => {
    await renderDeployments(fakeApi());
    await screen.findByText('Deployments (3 of 3)');
    expect(
      screen.queryByTestId('details-qwen@prod/ml'),
    ).not.toBeInTheDocument();
    fireEvent.click(within(rowOf('prod/ml')).getByTitle('Field changes'));
    const details = await screen.findByTestId('details-qwen@prod/ml');
    expect(details).toHaveTextContent(
      '.spec.template.containers[name=main].image: applied vllm:0.19.1 → now vllm:0.24.0',
    );
    expect(details).toHaveTextContent(
      'Drift (live objects changed outside model-manager)No changes.',
    );
  });

  it('a held target: says held at which version by whom, and lists what runs against a new deploy with the reasons', async () => {
    await renderDeployments(
      fakeApi({
        fleet: async () =>
          fleetOf([target({ liveVersion: '0.19.1', sync: heldSync() })]),
      }),
    );
    const row = within(
      await screen
        .findByText('local/models')
        .then(e => e.closest('tr') as HTMLElement),
    );
    expect(row.getByTestId('chip-held')).toHaveTextContent(
      'held at 0.19.1 (request)',
    );
    expect(row.getByTestId('chip-differs')).toHaveTextContent(
      'differs from a new deploy: 2 (drift, request-pin)',
    );
    // Not "in sync": what runs is not what a new deploy would apply.
    expect(row.queryByTestId('chip-in-sync')).not.toBeInTheDocument();
    expect(row.getByText('0.24.0')).toBeInTheDocument(); // what a new deploy would apply
    fireEvent.click(row.getByTitle('Field changes'));
    const details = await screen.findByTestId('details-qwen@local/models');
    expect(within(details).getByTestId('sync-summary')).toHaveTextContent(
      'held at 0.19.1 by request of 2026-12-01 by user:default/alice (revision 4); models.yaml default 0.24.0; 2 differences from what a new deploy would apply (drift: 1, request-pin: 1)',
    );
    expect(within(details).getByTestId('reason-drift')).toBeInTheDocument();
    expect(
      within(details).getByTestId('reason-request-pin'),
    ).toBeInTheDocument();
  });

  it('filters by the URL query, so a link shares the view', async () => {
    await renderDeployments(
      fakeApi(),
      '/model-deployments?cluster=prod&runtime=vllm',
    );
    expect(await screen.findByText('Deployments (1 of 3)')).toBeInTheDocument();
    expect(screen.getByText('prod/ml')).toBeInTheDocument();
    expect(screen.queryByText('local/models')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Cluster')).toHaveValue('prod');
    expect(screen.getByLabelText('Runtime')).toHaveValue('vllm');
  });

  it.each([
    ['cluster', 'Cluster', 'local', 2],
    ['namespace', 'Namespace', 'ml', 1],
    ['runtime', 'Runtime', 'openvino', 1],
    ['version', 'Live version', '0.24.0', 1],
    ['state', 'State', 'NotReady', 1],
    ['model', 'Model', 'qwen', 2],
  ])(
    'filters by %s and puts the filter in the URL',
    async (key, label, value, count) => {
      await renderDeployments(fakeApi());
      await screen.findByText('Deployments (3 of 3)');
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
      expect(
        await screen.findByText(`Deployments (${count} of 3)`),
      ).toBeInTheDocument();
      expect(screen.getByTestId('search')).toHaveTextContent(
        `?${key}=${value}`,
      );
      fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
      expect(
        await screen.findByText('Deployments (3 of 3)'),
      ).toBeInTheDocument();
      expect(screen.getByTestId('search')).toBeEmptyDOMElement();
    },
  );

  it('shows an unreachable cluster as a warning and still lists the rest', async () => {
    const fleet = {
      ...FLEET,
      items: [
        ...FLEET.items,
        {
          ...FLEET.items[0],
          cluster: 'edge',
          state: 'Unknown' as const,
          reason: 'cluster edge could not be read',
          liveVersion: undefined,
          liveImage: undefined,
        },
      ],
      errors: [
        { cluster: 'edge', message: 'connect ECONNREFUSED 10.0.0.9:6443' },
      ],
    };
    await renderDeployments(fakeApi({ fleet: async () => fleet }));
    expect(await screen.findByText('Deployments (4 of 4)')).toBeInTheDocument();
    expect(
      screen.getByText(
        /A cluster could not be read: their targets show Unknown/,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/connect ECONNREFUSED 10.0.0.9:6443/),
    ).toBeInTheDocument();
    expect(
      within(rowOf('edge/models')).getByTestId('state-Unknown'),
    ).toBeInTheDocument();
  });

  it('says what to check when the backend does not answer', async () => {
    await renderDeployments(
      fakeApi({
        fleet: failsWith('Failed to fetch'),
      }),
    );
    expect(
      await screen.findByText(/Could not load the deployments/),
    ).toBeInTheDocument();
  });

  it('says when nothing is deployed', async () => {
    await renderDeployments(
      fakeApi({
        fleet: async () => fleetOf([]),
      }),
    );
    expect(
      await screen.findByText(
        'Nothing deployed yet: deploy a model from its Serving tab.',
      ),
    ).toBeInTheDocument();
  });

  it('follows the clusters: a pushed change is shown without reloading, reading only the cluster that changed', async () => {
    const live = liveFleetApi(FLEET);
    await renderDeployments(live.api);
    const prod = rowOf('prod/ml');
    expect(within(prod).getByTestId('state-NotReady')).toBeInTheDocument();
    live.setFleet({
      ...FLEET,
      items: FLEET.items.map(i =>
        i.cluster === 'prod' ? { ...i, state: 'Ready', reason: undefined } : i,
      ),
    });
    live.push(['prod']);
    // The row is drawn again: look it up each time.
    await waitFor(() =>
      expect(
        within(rowOf('prod/ml')).getByTestId('state-Ready'),
      ).toBeInTheDocument(),
    );
    expect((live.api.fleet as jest.Mock).mock.calls).toEqual([
      [{}],
      [{ cluster: 'prod' }],
    ]);
    // The other cluster's rows are the first answer's, in the fleet's order.
    expect(
      screen.getAllByRole('row').flatMap(r => {
        const link = within(r).queryAllByRole('link')[0];
        return link
          ? [
              `${link.textContent} ${
                r.textContent?.includes('prod/ml') ? 'prod' : 'local'
              }`,
            ]
          : [];
      }),
    ).toEqual(['bge-ov local', 'qwen local', 'qwen prod']);
  });

  it("a pushed cluster's new and removed targets and its error take the place of the old ones; most clusters changed reads everything", async () => {
    const at = (cluster: string, model = 'qwen') =>
      target({ model, cluster, namespace: 'models' });
    const four = fleetOf(['a', 'b', 'c', 'd'].map(c => at(c)));
    const live = liveFleetApi(four);
    await renderDeployments(live.api);
    await screen.findByText('Deployments (4 of 4)');
    // On b: qwen undeployed, bge deployed; c cannot be read.
    live.setFleet({
      readAt: '2026-12-01T10:05:00Z',
      errors: [
        { cluster: 'c', message: 'cluster c could not be read: timeout' },
      ],
      items: [
        at('a'),
        at('b', 'bge'),
        { ...at('c'), state: 'Unknown' },
        at('d'),
      ],
    });
    live.push(['b', 'c']);
    await screen.findByText('cluster c could not be read: timeout', {
      exact: false,
    });
    expect(screen.getByText('Deployments (4 of 4)')).toBeInTheDocument();
    expect(rowOf('b/models').textContent).toContain('bge');
    expect(
      within(rowOf('c/models')).getByTestId('state-Unknown'),
    ).toBeInTheDocument();
    expect((live.api.fleet as jest.Mock).mock.calls).toEqual([
      [{}],
      [{ cluster: 'b' }],
      [{ cluster: 'c' }],
    ]);
    // Three of four clusters at once: the whole fleet is read.
    live.setFleet({ ...four, items: [at('a'), at('b'), at('c'), at('d')] });
    live.push(['a', 'b', 'c']);
    await waitFor(() =>
      expect(screen.queryByText(/could not be read: timeout/)).toBeNull(),
    );
    expect((live.api.fleet as jest.Mock).mock.calls[3]).toEqual([{}]);
  });

  it('a read that fails after a push keeps the table, says why, and reads again with the next push', async () => {
    const live = liveFleetApi(FLEET);
    await renderDeployments(live.api);
    await screen.findByText('prod/ml');
    (live.api.fleet as jest.Mock).mockRejectedValueOnce(
      new Error('Request failed with 503 Service Unavailable'),
    );
    live.push(['prod']);
    expect(
      await screen.findByText(/Could not read the latest changes/),
    ).toBeInTheDocument();
    expect(rowOf('prod/ml')).toBeInTheDocument();
    live.setFleet({
      ...FLEET,
      items: FLEET.items.map(i =>
        i.cluster === 'prod' ? { ...i, state: 'Ready', reason: undefined } : i,
      ),
    });
    live.push(['local']);
    await waitFor(() =>
      expect(
        within(rowOf('prod/ml')).getByTestId('state-Ready'),
      ).toBeInTheDocument(),
    );
    expect(screen.queryByText(/Could not read the latest changes/)).toBeNull();
    // The failed cluster is read again with the next push's: prod and local are both clusters
    // of the fleet, so the whole fleet is read.
    expect((live.api.fleet as jest.Mock).mock.calls.slice(2)).toEqual([[{}]]);
  });
});
