import {
  act,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  failsWith,
  fakeApi,
  FLEET,
  generateModels,
  modelList,
  renderPage,
} from '../../__testUtils__';
import type { ModelManagerApi } from '../../api';
import { ModelsPage } from './ModelsPage';

/** The Models page at `url`, its URL query under test id `search` (to check that the view is in it). */
const renderModels = (api: ModelManagerApi, url = '/models') =>
  renderPage(api, <ModelsPage />, url);

/** How long the search waits for typing to pause (ModelsPage's SEARCH_DEBOUNCE_MS). */
const SEARCH_PAUSE_MS = 300;

/** The model links of the table, in order. */
const modelLinks = () =>
  screen
    .getAllByRole('link')
    .filter(a =>
      a.getAttribute('href')?.startsWith('/catalog/default/component/'),
    )
    .map(a => a.textContent);

/** A fake backend with 10,000 models (50 owners), its queryModels a jest mock. */
const bigApi = () =>
  fakeApi({ queryModels: jest.fn(modelList(generateModels(10_000))) });

describe('ModelsPage', () => {
  it('lists the models with runtime, category and version source', async () => {
    await renderModels(fakeApi());
    expect(await screen.findByText('Models (2)')).toBeInTheDocument();
    expect(screen.getByText('Qwen/Qwen2.5-7B-Instruct')).toBeInTheDocument();
    expect(screen.getByText('0.24.0 (default)')).toBeInTheDocument();
    expect(screen.getByText('— (flat runtime)')).toBeInTheDocument();
    expect(document.title).toBe('Models | Backstage');
  });

  it('offers a Deploy action on every row: the Deploy model template with the model picked', async () => {
    await renderModels(fakeApi());
    expect(await screen.findByText('Models (2)')).toBeInTheDocument();
    for (const name of ['qwen', 'bge-ov']) {
      const href = screen
        .getByRole('button', { name: `Deploy ${name}` })
        .getAttribute('href')!;
      const url = new URL(href, 'http://portal');
      expect(url.pathname).toBe('/create/templates/default/deploy-model');
      expect(JSON.parse(url.searchParams.get('formData')!)).toEqual({
        model: `component:default/${name}`,
      });
    }
  });

  it('keeps names, runtimes, versions and object kinds on one line (no break mid-word)', async () => {
    await renderModels(fakeApi());
    const qwen = (await screen.findByText('Qwen/Qwen2.5-7B-Instruct')).closest(
      'tr',
    )!;
    for (const text of ['0.24.0 (default)', 'LLMInferenceService'])
      expect(within(qwen).getByText(text).closest('td')).toHaveStyle({
        whiteSpace: 'nowrap',
      });
  });

  it('shows per model its deployments, live versions, states and drift/outdated counts from one fleet call', async () => {
    const api = fakeApi({ fleet: jest.fn(async () => FLEET) });
    await renderModels(api);
    const qwen = (await screen.findByText('Qwen/Qwen2.5-7B-Instruct')).closest(
      'tr',
    )!;
    expect(
      await within(qwen).findByRole('link', { name: '2' }),
    ).toHaveAttribute('href', '/model-deployments?model=qwen');
    expect(within(qwen).getByText('0.19.1, 0.24.0')).toBeInTheDocument();
    expect(within(qwen).getByText('1 Ready, 1 NotReady')).toBeInTheDocument();
    expect(within(qwen).getByText('1 outdated')).toBeInTheDocument();
    expect(within(qwen).queryByText(/drifted/)).not.toBeInTheDocument();
    const bge = screen.getByText('OpenVINO/bge').closest('tr')!;
    expect(within(bge).getByText('1 drifted')).toBeInTheDocument();
    expect(api.fleet).toHaveBeenCalledTimes(1);
  });

  it('still lists the models when the fleet cannot be read', async () => {
    await renderModels(
      fakeApi({
        fleet: failsWith('503 Service Unavailable'),
      }),
    );
    expect(await screen.findByText('Models (2)')).toBeInTheDocument();
    expect(
      await screen.findByText(/Could not read where the models are deployed/),
    ).toBeInTheDocument();
    expect(screen.queryByText('Deployments')).not.toBeInTheDocument();
  });

  it('shows progress while loading', async () => {
    const never = new Promise<never>(() => {});
    await renderModels(fakeApi({ queryModels: () => never }));
    expect(await screen.findByTestId('progress')).toBeInTheDocument();
  });

  it('warns that models.yaml is broken and the last good catalog is shown', async () => {
    const api = fakeApi({
      catalogStatus: async () => ({
        ok: false,
        at: '2026-11-30T10:00:00Z',
        message:
          "models.yaml:12:7: models.qwen.server.runtime: unknown runtime 'tgi'",
        models: 1,
        runtimes: 1,
      }),
    });
    await renderModels(api);
    expect(
      await screen.findByText(
        /models.yaml has errors: showing the last good catalog/,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        "models.yaml:12:7: models.qwen.server.runtime: unknown runtime 'tgi'",
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('Models (2)')).toBeInTheDocument();
  });

  it('says what to check when the backend is down', async () => {
    await renderModels(
      fakeApi({
        queryModels: failsWith('Failed to fetch'),
      }),
    );
    expect(
      await screen.findByText(/Could not load the models/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Check that the model-manager backend is running/),
    ).toBeInTheDocument();
  });

  it('with 10,000 models asks the backend for one page of 20 and shows only those rows', async () => {
    const api = bigApi();
    await renderModels(api);
    expect(await screen.findByText('Models (10000)')).toBeInTheDocument();
    expect(api.queryModels).toHaveBeenCalledTimes(1);
    expect(api.queryModels).toHaveBeenCalledWith({
      sort: 'name',
      limit: 20,
      offset: 0,
    });
    const links = modelLinks();
    expect(links).toHaveLength(20);
    expect(links[0]).toBe('model-00000');
    expect(screen.getByText('1-20 of 10000')).toBeInTheDocument();
  });

  it('pages through the backend and keeps the page in the URL', async () => {
    const api = bigApi();
    await renderModels(api);
    await screen.findByText('Models (10000)');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('21-40 of 10000')).toBeInTheDocument();
    await waitFor(() => expect(modelLinks()[0]).toBe('model-00020'));
    expect(screen.getByTestId('search')).toHaveTextContent('?page=2');
    expect(api.queryModels).toHaveBeenLastCalledWith({
      sort: 'name',
      limit: 20,
      offset: 20,
    });
  });

  it('opens the view a shared link describes: filters, search, sort and page', async () => {
    const api = bigApi();
    await renderModels(
      api,
      '/models?owner=group%3Adefault%2Fteam-7&q=model-01&sort=-name&page=2&pageSize=50',
    );
    expect(await screen.findByText('Models (20)')).toBeInTheDocument();
    expect(api.queryModels).toHaveBeenCalledWith({
      owner: 'group:default/team-7',
      q: 'model-01',
      sort: '-name',
      limit: 50,
      offset: 50,
    });
    expect(screen.getByLabelText('Owner')).toHaveValue('group:default/team-7');
    expect(screen.getByLabelText('Search')).toHaveValue('model-01');
    expect(screen.getByLabelText('Sort by')).toHaveValue('-name');
    expect(
      screen.getByText('No models on this page: go back to the first page.'),
    ).toBeInTheDocument();
  });

  it('a filter goes to the URL and back to the first page; Clear filters empties both', async () => {
    const api = bigApi();
    await renderModels(api, '/models?page=3');
    await screen.findByText('Models (10000)');
    fireEvent.change(screen.getByLabelText('Owner'), {
      target: { value: 'group:default/team-3' },
    });
    expect(await screen.findByText('Models (200)')).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent(
      '?owner=group%3Adefault%2Fteam-3',
    );
    expect(modelLinks()[0]).toBe('model-00003');
    await userEvent.click(
      screen.getByRole('button', { name: 'Clear filters' }),
    );
    expect(await screen.findByText('Models (10000)')).toBeInTheDocument();
    expect(screen.getByTestId('search')).toBeEmptyDOMElement();
  });

  it('a key typed while the search it paused for goes to the URL is kept', async () => {
    const api = fakeApi();
    await renderModels(api);
    await screen.findByText(/^Models \(\d+\)$/);
    jest.useFakeTimers();
    try {
      const box = screen.getByLabelText('Search');
      fireEvent.change(box, { target: { value: 'llam' } });
      // In one turn: the pause ends ("llam" goes to the URL) and the next key arrives; React
      // renders both together, the URL's "llam" and the box's "llama".
      act(() => {
        jest.advanceTimersByTime(SEARCH_PAUSE_MS);
        fireEvent.change(box, { target: { value: 'llama' } });
      });
      expect(screen.getByTestId('search')).toHaveTextContent('?q=llam');
      expect(box).toHaveValue('llama');
      act(() => {
        jest.advanceTimersByTime(SEARCH_PAUSE_MS);
      });
      expect(screen.getByTestId('search')).toHaveTextContent('?q=llama');
      expect(box).toHaveValue('llama');
    } finally {
      jest.useRealTimers();
    }
  });

  it('searches through the backend once typing pauses, and sorts', async () => {
    const api = bigApi();
    await renderModels(api);
    // Generous bounds: the search waits for typing to pause, then filters 10,000 models, which
    // takes long on a busy machine (these are upper bounds, not waits).
    const slow = { timeout: 90_000 };
    await screen.findByText('Models (10000)', undefined, slow);
    // The keys in the page's own time, with no pause between them (a busy machine's real pauses
    // between keys are longer than the search waits for, and each key would be a search).
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({
        advanceTimers: jest.advanceTimersByTime,
        delay: null,
      });
      await user.type(screen.getByLabelText('Search'), 'model-0999');
      expect(screen.getByTestId('search')).toBeEmptyDOMElement();
      act(() => {
        jest.advanceTimersByTime(SEARCH_PAUSE_MS);
      });
    } finally {
      jest.useRealTimers();
    }
    expect(
      await screen.findByText('Models (10)', undefined, slow),
    ).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent('?q=model-0999');
    // One request for the search, not one per key.
    expect(
      (api.queryModels as jest.Mock).mock.calls.filter(([q]) => q.q),
    ).toEqual([[{ q: 'model-0999', sort: 'name', limit: 20, offset: 0 }]]);
    fireEvent.change(screen.getByLabelText('Sort by'), {
      target: { value: '-name' },
    });
    await waitFor(() => expect(modelLinks()[0]).toBe('model-09999'), slow);
    expect(screen.getByTestId('search')).toHaveTextContent(
      '?q=model-0999&sort=-name',
    );
  }, 240_000);
});
