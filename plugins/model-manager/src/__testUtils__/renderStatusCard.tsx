import { screen } from '@testing-library/react';
import type { ModelStatus } from '../api';
import { KServeStatusCard } from '../components/KServeStatusCard';
import { modelEntity } from './entities';
import { fakeApi } from './fakeApi';
import { renderWithApi } from './renderWithApi';

/**
 * Renders the KServe status card on the page of model `model`, the fake API's status answering
 * `items`; resolves to the card of the first target.
 */
export async function renderStatusCard(items: ModelStatus[], model: string) {
  await renderWithApi(
    fakeApi({ status: async () => items }),
    <KServeStatusCard />,
    { entity: modelEntity(model) },
  );
  return screen.findByTestId(
    `kserve-status-${items[0].cluster}-${items[0].namespace}`,
  );
}
