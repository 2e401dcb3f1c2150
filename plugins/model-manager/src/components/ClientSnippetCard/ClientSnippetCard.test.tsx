import { screen, within } from '@testing-library/react';
import type { ModelStatus } from '../../api';
import { fakeApi, renderWithApi } from '../../__testUtils__';
import { ClientSnippetCard } from './ClientSnippetCard';

const deployed = (endpoint: ModelStatus['endpoint']): ModelStatus => ({
  cluster: 'local',
  namespace: 'models',
  revision: 1,
  found: true,
  summary: {
    kind: 'InferenceService',
    name: 'phi',
    ready: undefined,
    conditions: [],
    problems: [],
  },
  endpoint,
});

/** Deployed on local/models, reached through the cluster's gateway. */
const THROUGH_GATEWAY = deployed({
  source: 'gateway',
  baseUrl: 'https://ai.example.com/v1',
  message: "From the cluster's gateway.",
});

async function renderCard(
  items: ModelStatus[],
  category = 'llm',
  operations: readonly string[] = ['chat', 'completions'],
) {
  await renderWithApi(
    fakeApi({ status: async () => items }),
    <ClientSnippetCard
      model="phi"
      servedName="phi"
      category={category}
      operations={operations}
    />,
  );
}

describe('ClientSnippetCard', () => {
  it('curl and the OpenAI SDK against the real endpoint, sending the served name', async () => {
    await renderCard([THROUGH_GATEWAY]);
    const card = await screen.findByTestId('endpoint-local-models');
    // Code snippets are split into highlighted spans: read the text.
    const text = card.textContent!;
    expect(text).toContain('curl https://ai.example.com/v1/chat/completions');
    expect(text).toContain('"model": "phi"');
    expect(text).toContain('base_url="https://ai.example.com/v1"');
    expect(text).toContain('model="phi"');
    expect(document.body.textContent).not.toMatch(/<gateway>|<token>/);
  });

  // The call shown is the first operation the engine profile gives the category (api.operations):
  // a category named anything gets the right example with no code change.
  it.each([
    [
      'embed',
      ['embeddings'],
      'https://ai.example.com/v1/embeddings',
      'client.embeddings.create(model="phi"',
    ],
    [
      'rerank',
      ['rerank', 'score'],
      'https://ai.example.com/v1/rerank',
      '"model": "phi"',
    ],
    [
      'vectors',
      ['embeddings'],
      'https://ai.example.com/v1/embeddings',
      'client.embeddings.create(model="phi"',
    ],
    [
      'scorer',
      ['score'],
      'https://ai.example.com/v1/score',
      '"text_1": "what is model serving?"',
    ],
    [
      'writer',
      ['completions'],
      'https://ai.example.com/v1/completions',
      'client.completions.create(model="phi", prompt="Hello!")',
    ],
  ])(
    '%s %j: the operation of the category',
    async (category, operations, curl, python) => {
      await renderCard([THROUGH_GATEWAY], category, operations);
      const text = (await screen.findByTestId('endpoint-local-models'))
        .textContent!;
      expect(text).toContain(`curl ${curl}`);
      expect(text).toContain(python);
    },
  );

  it('a category its engine profile gives no operation: says so, no code', async () => {
    await renderCard([THROUGH_GATEWAY], 'speech', []);
    const card = await screen.findByTestId('endpoint-local-models');
    expect(within(card).getByTestId('no-operation')).toHaveTextContent(
      /^Category speech serves no OpenAI-compatible operation .* list none\), so there is no call to show\.$/,
    );
    expect(card.textContent).not.toMatch(/curl |base_url/);
  });

  it('says "not deployed yet" and shows no placeholder when the model is deployed nowhere', async () => {
    await renderCard([]);
    expect(
      await screen.findByTestId('endpoint-not-deployed'),
    ).toHaveTextContent(/^Not deployed yet/);
    expect(document.body.textContent).not.toMatch(/curl |base_url|<gateway>/);
  });

  it('deployed without a URL: says why, no code', async () => {
    const message =
      'Deployed, but no endpoint yet: KServe has not reported a URL, and no gateway base URL is configured for cluster local (modelManager.kubernetes.clusters.local.gatewayBaseUrl).';
    await renderCard([deployed({ source: 'none', message })]);
    const card = await screen.findByTestId('endpoint-local-models');
    expect(within(card).getByText(message)).toBeInTheDocument();
    expect(card.textContent).not.toMatch(/curl|base_url/);
  });

  it('OpenVINO through the AI gateway: the /v1 path the route serves, and how to get a token', async () => {
    await renderCard([THROUGH_GATEWAY]);
    const card = await screen.findByTestId('endpoint-local-models');
    expect(within(card).getByTestId('gateway-paths')).toHaveTextContent(
      'POST https://ai.example.com/v1/chat/completions with "model": "phi".',
    );
    expect(within(card).getByTestId('gateway-token')).toHaveTextContent(
      /answers 401 without one.*export OPENAI_API_KEY/,
    );
  });

  it('OpenVINO with no gateway URL configured: the calls go to the gateway (its address from $AI_GATEWAY_URL), never /v3 direct to OVMS', async () => {
    await renderCard([
      deployed({
        source: 'status-url',
        baseUrl: 'http://phi-models.example.com/v3',
        message:
          'From the URL KServe reports. It reaches OpenVINO Model Server directly (its /v3 API), not through the AI gateway.',
        bypassesGateway: true,
      }),
    ]);
    const card = await screen.findByTestId('endpoint-local-models');
    const text = card.textContent!;
    expect(text).toContain('curl "$AI_GATEWAY_URL/v1/chat/completions"');
    expect(text).toContain('base_url=os.environ["AI_GATEWAY_URL"] + "/v1"');
    expect(within(card).getByTestId('gateway-paths')).toHaveTextContent(
      'POST $AI_GATEWAY_URL/v1/chat/completions with "model": "phi".',
    );
    // The direct URL is named once, as what it is; no call uses it.
    const unknown = within(card).getByTestId('gateway-unknown');
    expect(unknown).toHaveTextContent(
      /modelManager\.kubernetes\.clusters\.local\.gatewayBaseUrl/,
    );
    expect(unknown).toHaveTextContent(
      'http://phi-models.example.com/v3 reaches the engine directly, bypassing the gateway',
    );
    expect(text.replace(unknown.textContent!, '')).not.toContain('/v3');
  });
});
