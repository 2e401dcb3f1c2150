import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  fakeApi,
  fleetOf,
  heldSync,
  renderWithApi,
  target,
} from '../../__testUtils__';
import type { ModelManagerApi } from '../../api';
import { WhatRunsCard } from './WhatRunsCard';

const render = (api: ModelManagerApi) =>
  renderWithApi(api, <WhatRunsCard model="qwen" />);

describe('WhatRunsCard', () => {
  it('shows what runs (live version, image, env, args, revision with its overrides, the hold) apart from what a new deploy would apply, and each difference with its reason', async () => {
    await render(
      fakeApi({
        modelFleet: async () => fleetOf([target({ sync: heldSync() })]),
      }),
    );
    const card = within(await screen.findByTestId('sync-local/models'));
    const [runs, newDeploy] = card
      .getAllByText(/^(What runs|What a new deploy would apply)/)
      .map(h => h.parentElement as HTMLElement);
    expect(runs).toHaveTextContent(
      'Version: 0.19.1Image: docker.io/vllm/vllm-openai-cpu:v0.19.1-hotfixEnv: VLLM_LOGGING_LEVEL=DEBUGArgs: --max-num-seqs=8',
    );
    expect(runs).toHaveTextContent(
      /Applied by: revision 4 \(deploy by user:default\/alice, .*\) with serverVersion 0\.19\.1, arg --max-num-seqs=8/,
    );
    expect(card.getByTestId('hold')).toHaveTextContent(
      'Held at 0.19.1 by request of 2026-12-01 by user:default/alice (revision 4); models.yaml default 0.24.0',
    );
    expect(newDeploy).toHaveTextContent(
      'What a new deploy would apply (models.yaml now, no overrides)Version: 0.24.0Image: docker.io/vllm/vllm-openai-cpu:v0.24.0Env: VLLM_LOGGING_LEVEL=INFOArgs: —',
    );
    const rows = card.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(
      'LLMInferenceService qwen.spec.template.containers[name=main].image',
    );
    expect(within(rows[0]).getByTestId('reason-drift')).toHaveTextContent(
      'drift (edited on the cluster)',
    );
    expect(rows[0]).toHaveTextContent(
      'applied: docker.io/vllm/vllm-openai-cpu:v0.19.1',
    );
    expect(within(rows[1]).getByTestId('reason-request-pin')).toBeVisible();
    expect(rows[1]).toHaveTextContent(
      'asked for by the request of revision 4 by user:default/alice, 2026-12-01: serverVersion 0.19.1, arg --max-num-seqs=8',
    );
    // The manifests as that revision applied them, on request.
    fireEvent.click(card.getByText('Manifests as applied by revision 4'));
    expect(await screen.findByText('Manifests as applied')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.getByRole('tabpanel', { name: 'LLMInferenceService qwen' })
          .textContent,
      ).toContain('applied: rev-4'),
    );
  });

  it('says so when what runs is what a new deploy would apply, and when nothing runs', async () => {
    const sync = heldSync();
    await render(
      fakeApi({
        modelFleet: async () =>
          fleetOf([
            target({
              sync: {
                ...sync,
                state: 'in-sync',
                hold: undefined,
                differences: [],
                summary: 'runs what a new deploy would apply',
              },
            }),
          ]),
      }),
    );
    expect(
      await screen.findByText(
        'No difference: what runs is what a new deploy would apply.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('hold')).not.toBeInTheDocument();
  });

  it('without targets, says nothing runs', async () => {
    await render(
      fakeApi({
        modelFleet: async () => fleetOf([]),
      }),
    );
    expect(
      await screen.findByText('Not running anywhere: nothing is deployed.'),
    ).toBeInTheDocument();
  });
});
