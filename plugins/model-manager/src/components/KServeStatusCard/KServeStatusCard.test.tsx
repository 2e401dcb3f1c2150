import { within } from '@testing-library/react';
import type { ModelStatus } from '../../api';
import { renderStatusCard } from '../../__testUtils__';
import type { ConditionSummary } from '@model-manager/plugin-model-manager-common';

const JOB = { name: 'phi-download', namespace: 'models', found: true };
const isvc = (
  ready: boolean | undefined,
  conditions: ConditionSummary[],
  problems: string[] = [],
) => ({
  kind: 'InferenceService',
  name: 'phi',
  namespace: 'models',
  ready,
  conditions,
  problems,
});
const WAITING =
  'KServe has not reported a Ready condition for this InferenceService yet; the controller may still be reconciling it (or KServe is not installed on this cluster).';

/** The status card on the page of model phi, the status answering `items`: the card of the first target. */
const renderCard = (items: ModelStatus[]) => renderStatusCard(items, 'phi');

describe('KServeStatusCard', () => {
  it('a model waiting for its weights: the download progress and the gateway endpoint, no error', async () => {
    const card = await renderCard([
      {
        cluster: 'local',
        namespace: 'models',
        revision: 2,
        found: true,
        summary: isvc(undefined, [], [WAITING]),
        download: {
          ...JOB,
          progress: {
            name: 'phi-download',
            phase: 'running',
            message: 'Downloading.',
            failedPods: 0,
          },
        },
        endpoint: {
          source: 'gateway',
          baseUrl: 'https://ai.example.com/v1',
          message: "From the cluster's gateway.",
        },
      },
    ]);
    expect(
      within(card).getByText('local/models: waiting for the weights download'),
    ).toBeInTheDocument();
    expect(within(card).getByTestId('kserve-ready')).toHaveTextContent(
      'Ready: not reported yet',
    );
    expect(within(card).getByTestId('weights-download')).toHaveTextContent(
      'Weights download (Job models/phi-download): running Downloading.',
    );
    expect(within(card).getByTestId('kserve-endpoint')).toHaveTextContent(
      'Endpoint: https://ai.example.com/v1',
    );
    // Waiting for KServe is not an error: nothing on the card is shown in the error colour.
    expect(within(card).getByText(WAITING)).not.toHaveClass(
      'MuiTypography-colorError',
    );
    expect(card.querySelector('.MuiTypography-colorError')).toBeNull();
  });

  it('not ready: Ready in words and the first false condition with its reason and message', async () => {
    const card = await renderCard([
      {
        cluster: 'prod',
        namespace: 'ml',
        revision: 3,
        found: true,
        summary: isvc(
          false,
          [
            { type: 'IngressReady', status: 'True' },
            {
              type: 'PredictorReady',
              status: 'False',
              reason: 'RevisionMissing',
              message:
                'Revision "phi-predictor-00001" failed with message: Back-off pulling image',
            },
            { type: 'Ready', status: 'False', reason: 'RevisionMissing' },
          ],
          [
            'PredictorReady is False: the OpenVINO predictor pods are not ready (RevisionMissing).',
          ],
        ),
        download: {
          ...JOB,
          progress: {
            name: 'phi-download',
            phase: 'complete',
            message: 'Download complete at 2026-12-01T10:20:00Z.',
            failedPods: 0,
          },
        },
        endpoint: {
          source: 'none',
          message:
            'Deployed, but no endpoint yet: KServe has not reported a URL, and no gateway base URL is configured for cluster prod (modelManager.kubernetes.clusters.prod.gatewayBaseUrl).',
        },
      },
    ]);
    expect(within(card).getByText('prod/ml: not ready')).toBeInTheDocument();
    expect(within(card).getByTestId('kserve-ready')).toHaveTextContent(
      'Ready: no',
    );
    expect(within(card).getByTestId('kserve-first-false')).toHaveTextContent(
      'PredictorReady is False — RevisionMissing: Revision "phi-predictor-00001" failed with message: Back-off pulling image',
    );
    expect(within(card).getByTestId('weights-download')).toHaveTextContent(
      'complete Download complete at 2026-12-01T10:20:00Z.',
    );
    expect(within(card).getByTestId('kserve-endpoint')).toHaveTextContent(
      /Endpoint: Deployed, but no endpoint yet.*gatewayBaseUrl/,
    );
  });

  it("a failed download says so in the headline, with the pod's reason", async () => {
    const card = await renderCard([
      {
        cluster: 'local',
        namespace: 'models',
        revision: 4,
        found: true,
        summary: isvc(undefined, [], [WAITING]),
        download: {
          ...JOB,
          progress: {
            name: 'phi-download',
            phase: 'failed',
            reason: 'OOMKilled',
            message: 'Download failed (OOMKilled: exit code 137).',
            failedPods: 3,
          },
        },
        endpoint: {
          source: 'gateway',
          baseUrl: 'https://ai.example.com/v1',
          message: 'From the gateway.',
        },
      },
    ]);
    expect(
      within(card).getByText('local/models: weights download failed'),
    ).toBeInTheDocument();
    expect(within(card).getByTestId('weights-download')).toHaveTextContent(
      'failed (OOMKilled) Download failed (OOMKilled: exit code 137).',
    );
  });

  it('Ready is the only green headline', async () => {
    const card = await renderCard([
      {
        cluster: 'local',
        namespace: 'models',
        revision: 5,
        found: true,
        summary: {
          ...isvc(true, [
            { type: 'Ready', status: 'True' },
            { type: 'PredictorReady', status: 'True' },
          ]),
          url: 'http://phi.models.example.com',
        },
        endpoint: {
          source: 'gateway',
          baseUrl: 'https://ai.example.com/v1',
          message: 'From the gateway.',
        },
      },
    ]);
    expect(within(card).getByText('local/models: Ready')).toBeInTheDocument();
    expect(within(card).getByTestId('kserve-ready')).toHaveTextContent(
      'Ready: yes',
    );
    expect(within(card).queryByTestId('kserve-first-false')).toBeNull();
    expect(within(card).queryByTestId('weights-download')).toBeNull();
  });

  it("KServe's Ready with a refused route: not green, and the card says KServe's Ready does not reach clients", async () => {
    const refused =
      'Clients cannot reach the model: Backend phi was refused by its controller (Accepted False, Invalid: The Backend was not accepted since Backend is not enabled in Envoy Gateway Config).';
    const card = await renderCard([
      {
        cluster: 'local',
        namespace: 'models',
        revision: 5,
        found: true,
        summary: isvc(false, [{ type: 'Ready', status: 'True' }], [refused]),
        endpoint: { source: 'gateway', message: 'From the gateway.' },
      },
    ]);
    expect(
      within(card).getByText('local/models: not ready'),
    ).toBeInTheDocument();
    expect(within(card).getByTestId('kserve-ready')).toHaveTextContent(
      'Ready on KServe: yes; to clients: no, its route is refused',
    );
    expect(within(card).getByText(refused)).toBeInTheDocument();
  });
});
