import { screen, within } from '@testing-library/react';
import {
  failsWith,
  fakeApi,
  FLEET,
  renderPage,
  uniqueIdWarnings,
} from '../../__testUtils__';
import type { ModelManagerApi } from '../../api';
import { ModelsPage } from './ModelsPage';

const renderModels = (api: ModelManagerApi) =>
  renderPage(api, <ModelsPage />, '/models');

const headers = () =>
  screen.getAllByRole('columnheader').map(h => h.textContent?.trim());

describe('the Models page fits the screen', () => {
  it('puts the name first, then state (with deployments and drift) and live version; a compact Deploy last', async () => {
    await renderModels(fakeApi({ fleet: jest.fn(async () => FLEET) }));
    await screen.findByText('1 Ready, 1 NotReady');
    expect(headers()).toEqual([
      'Model',
      'State',
      'Live version',
      'Runtime',
      'Category',
      'Owner',
      '',
    ]);
  });

  it('without the fleet, the operational columns are left out, not shown empty', async () => {
    await renderModels(
      fakeApi({ fleet: failsWith('503 Service Unavailable') }),
    );
    await screen.findByText(/Could not read where the models are deployed/);
    expect(headers()).toEqual(['Model', 'Runtime', 'Category', 'Owner', '']);
  });

  it('shows the model id as a second line under the name, in the same cell', async () => {
    await renderModels(fakeApi());
    const link = await screen.findByRole('link', { name: 'qwen' });
    const cell = link.closest('td')!;
    expect(
      within(cell).getByText('Qwen/Qwen2.5-7B-Instruct'),
    ).toBeInTheDocument();
    // One cell holds runtime, version and object kind.
    const row = cell.closest('tr')!;
    const runtime = within(row).getByText('0.24.0 (default)').closest('td')!;
    expect(
      within(runtime).getByText('LLMInferenceService'),
    ).toBeInTheDocument();
    expect(
      within(runtime).getByRole('link', { name: 'vllm' }),
    ).toBeInTheDocument();
  });

  it('gives every row an id (no "unique id" warning from the table)', async () => {
    expect(
      await uniqueIdWarnings(async () => {
        await renderModels(fakeApi());
        await screen.findByText('Qwen/Qwen2.5-7B-Instruct');
      }),
    ).toEqual([]);
  });
});
