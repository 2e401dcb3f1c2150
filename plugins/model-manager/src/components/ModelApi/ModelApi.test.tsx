import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import {
  catalogApiRef,
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { screen } from '@testing-library/react';
import type { Entity } from '@backstage/catalog-model';
import { modelEntity } from '../../__testUtils__';
import { ApiDefinitionContent, ProvidedApisCard } from '.';

const model: Entity = {
  ...modelEntity('qwen'),
  relations: [
    { type: 'providesApi', targetRef: 'api:default/qwen-openai-api' },
  ],
};

const api: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'API',
  metadata: {
    name: 'qwen-openai-api',
    title: 'Qwen API',
    description: 'OpenAI-compatible API of qwen: POST /v1/chat/completions.',
  },
  spec: {
    type: 'openapi',
    owner: 'group:default/ml',
    lifecycle: 'production',
    definition: '{"openapi":"3.0.3","paths":{"/v1/chat/completions":{}}}',
  },
};

async function renderOn(entity: Entity, element: JSX.Element) {
  await renderInTestApp(
    <TestApiProvider
      apis={[[catalogApiRef, catalogApiMock({ entities: [entity, api] })]]}
    >
      <EntityProvider entity={entity}>{element}</EntityProvider>
    </TestApiProvider>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}

describe('the model and its API entity', () => {
  it('Provides APIs: links the model page to its API entity and to its Definition tab', async () => {
    await renderOn(model, <ProvidedApisCard />);
    expect(
      await screen.findByRole('link', { name: 'Qwen API' }),
    ).toHaveAttribute('href', '/catalog/default/api/qwen-openai-api');
    expect(
      screen.getByText(/POST \/v1\/chat\/completions/),
    ).toBeInTheDocument();
    // The api-docs plugin's Definition tab of the API entity (Swagger UI), not a tab of ours.
    expect(
      screen.getByRole('link', { name: 'Show the definition' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/api/qwen-openai-api/definition',
    );
    expect(
      screen.getByRole('link', { name: /API definition/ }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/api/qwen-openai-api/definition',
    );
  });

  it('the API tab shows the definition of the API the model provides', async () => {
    await renderOn(model, <ApiDefinitionContent />);
    expect(
      await screen.findByRole('link', { name: 'Qwen API' }),
    ).toBeInTheDocument();
    expect(document.body.textContent).toContain('"/v1/chat/completions"');
    // The catalog module stores the definition compact; the tab indents it for reading.
    expect(document.body.textContent).toContain('"openapi": "3.0.3"');
  });

  it('a model without an API entity shows no card and says so on the tab', async () => {
    const plain = { ...model, relations: [] };
    await renderOn(plain, <ProvidedApisCard />);
    expect(screen.queryByText('Provides APIs')).not.toBeInTheDocument();
    await renderOn(plain, <ApiDefinitionContent />);
    expect(screen.getByText(/provides no API entity/)).toBeInTheDocument();
  });
});
