import { screen } from '@testing-library/react';
import { fakeApi, renderWithApi } from '../../__testUtils__';
import { WithKServeStatus } from './WithKServeStatus';

const component = (annotations: Record<string, string>) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'phi', annotations },
  spec: { type: 'service', owner: 'group:default/ml', lifecycle: 'production' },
});

async function renderTab(entity: ReturnType<typeof component>) {
  const api = fakeApi({ status: jest.fn(async () => []) });
  await renderWithApi(
    api,
    <WithKServeStatus>
      <div>stock Kubernetes content</div>
    </WithKServeStatus>,
    { entity },
  );
  return api;
}

describe('WithKServeStatus (the Kubernetes tab)', () => {
  it('a model entity: the KServe status card above the stock content', async () => {
    const api = await renderTab(
      component({
        'model-manager.io/model': 'phi',
        'backstage.io/kubernetes-id': 'phi',
      }),
    );
    expect(await screen.findByText('KServe status')).toBeInTheDocument();
    expect(screen.getByText('stock Kubernetes content')).toBeInTheDocument();
    expect(
      await screen.findByText(/^Not deployed anywhere yet/),
    ).toBeInTheDocument();
    expect(api.status).toHaveBeenCalledWith('phi');
  });

  it('any other entity: the stock content only, and no model-manager request', async () => {
    const api = await renderTab(
      component({ 'backstage.io/kubernetes-id': 'phi' }),
    );
    expect(
      await screen.findByText('stock Kubernetes content'),
    ).toBeInTheDocument();
    expect(screen.queryByText('KServe status')).toBeNull();
    expect(api.status).not.toHaveBeenCalled();
  });
});
