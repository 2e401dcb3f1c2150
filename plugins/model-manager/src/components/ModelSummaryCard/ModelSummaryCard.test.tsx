import { screen } from '@testing-library/react';
import {
  fakeApi,
  fleetOf,
  heldSync,
  modelEntity,
  renderWithApi,
  target,
} from '../../__testUtils__';
import { ModelSummaryCard } from './ModelSummaryCard';

describe('ModelSummaryCard', () => {
  it('says why a target runs another version than the one a deploy would use (its hold), and nothing for one that is the same', async () => {
    const api = fakeApi({
      getModel: async () =>
        ({
          name: 'qwen',
          runtime: 'vllm',
          kind: 'LLMInferenceService',
          version: '0.24.0',
          versionSource: 'runtime',
          category: 'llm',
          modelId: 'Qwen/Qwen2.5-7B-Instruct',
        } as any),
      modelFleet: async () =>
        fleetOf([
          target({
            cluster: 'prod',
            namespace: 'ml',
            liveVersion: '0.19.1',
            sync: heldSync(),
          }),
          target({ cluster: 'local', namespace: 'models' }),
        ]),
    });
    await renderWithApi(api, <ModelSummaryCard />, {
      entity: modelEntity('qwen'),
    });
    expect(await screen.findByText('prod/ml: 0.19.1')).toBeInTheDocument();
    expect(screen.getByTestId('model-summary-sync-prod-ml')).toHaveTextContent(
      /^held at 0\.19\.1 by .*; 2 differences from what a new deploy would apply \(drift: 1, request-pin: 1\) \(Serving lists each difference\)$/,
    );
    expect(screen.queryByTestId('model-summary-sync-local-models')).toBeNull();
  });
});
