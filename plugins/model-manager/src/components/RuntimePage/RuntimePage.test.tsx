import { screen, within } from '@testing-library/react';
import type { ModelManagerApi } from '../../api';
import {
  fakeApi,
  renderWithApi,
  runtimeEntity,
  uniqueIdWarnings,
} from '../../__testUtils__';
import { RuntimeContent } from './RuntimeContent';
import { RuntimeSummaryCard } from './RuntimeSummaryCard';

function api(): ModelManagerApi {
  const base = fakeApi();
  return {
    ...base,
    getRuntime: async (name: string) => ({
      ...(await base.getRuntime(name)),
      env: { VLLM_CPU_OMP_THREADS_BIND: 'auto', VLLM_LOGGING_LEVEL: 'INFO' },
    }),
  } as ModelManagerApi;
}

async function renderOnRuntime(element: JSX.Element) {
  await renderWithApi(api(), element, { entity: runtimeEntity('vllm') });
}

describe('runtime page', () => {
  it('shows env var names verbatim, as one types them', async () => {
    await renderOnRuntime(<RuntimeContent />);
    const env = await screen.findByRole('table', { name: 'Common env' });
    expect(
      within(env).getByText('VLLM_CPU_OMP_THREADS_BIND'),
    ).toBeInTheDocument();
    expect(within(env).getByText('auto')).toBeInTheDocument();
    expect(
      screen.queryByText(/VLLM CPU OMP THREADS BIND/i),
    ).not.toBeInTheDocument();
  });

  it('shows plumbing keys verbatim with the file:line each value comes from', async () => {
    await renderOnRuntime(<RuntimeContent />);
    const plumbing = await screen.findByRole('table', { name: 'Plumbing' });
    expect(within(plumbing).getByText('routing')).toBeInTheDocument();
    expect(within(plumbing).getByText('epp')).toBeInTheDocument();
    expect(
      within(plumbing).getByText('runtimes/vllm/values.yaml:5:1 routing'),
    ).toBeInTheDocument();
  });

  it('the Overview card sums the runtime up: kind, versions, categories, env and its models', async () => {
    await renderOnRuntime(<RuntimeSummaryCard />);
    const summary = await screen.findByRole('table', {
      name: 'Runtime summary',
    });
    expect(
      within(summary).getByText('LLMInferenceService'),
    ).toBeInTheDocument();
    expect(
      within(summary).getByText('0.24.0 (default), 0.19.1'),
    ).toBeInTheDocument();
    expect(within(summary).getByText('llm')).toBeInTheDocument();
    expect(screen.getByText('VLLM_CPU_OMP_THREADS_BIND')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'qwen' })).toHaveAttribute(
      'href',
      '/catalog/default/component/qwen',
    );
  });

  it('gives every table row an id (no "unique id" warning from the table)', async () => {
    expect(
      await uniqueIdWarnings(async () => {
        await renderOnRuntime(<RuntimeContent />);
        await screen.findByText('0.24.0 (default)');
      }),
    ).toEqual([]);
  });
});
