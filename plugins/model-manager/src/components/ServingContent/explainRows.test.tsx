import { screen, within } from '@testing-library/react';
import {
  layerInfo,
  type ExplainRow,
} from '@model-manager/plugin-model-manager-common';
import { fakeApi, modelEntity, renderWithApi } from '../../__testUtils__';
import { explainRows, sourceLink } from './explainRows';
import { ServingContent } from './ServingContent';

const row = (
  key: string,
  value: string,
  layer: ExplainRow['layer'],
  source: string,
): ExplainRow => ({ key, value, layer, source, overrode: [] });

const IMAGE = 'openvino/model_server:2026.3';
const openvinoExplain = [
  row('image', IMAGE, 'plumbing', 'runtimes/openvino/values.yaml:3:1 image'),
  row(
    'plumbing.image',
    IMAGE,
    'plumbing',
    'runtimes/openvino/values.yaml:3:1 image',
  ),
  row(
    'plumbing.device',
    'cpu',
    'plumbing',
    'runtimes/openvino/values.yaml:5:1 device',
  ),
];

const entity = (sourceLocation?: string) =>
  modelEntity(
    'bge',
    sourceLocation ? { 'backstage.io/source-location': sourceLocation } : {},
  );

describe('provenance rows', () => {
  it('shows an image once: plumbing.image repeats the image row', () => {
    expect(explainRows(openvinoExplain).map(r => r.key)).toEqual([
      'image',
      'plumbing.device',
    ]);
  });

  it.each([
    [
      'url:https://github.com/org/models/tree/main/',
      'models.yaml:42:7 models.qwen.server.server_version',
      'https://github.com/org/models/tree/main/models.yaml#L42',
    ],
    [
      'url:https://github.com/org/models/tree/main',
      'runtimes/vllm/values.yaml:5:1 routing',
      'https://github.com/org/models/tree/main/runtimes/vllm/values.yaml#L5',
    ],
    ['file:/srv/models.yaml', 'models.yaml:42:7 x', undefined],
    [undefined, 'models.yaml:42:7 x', undefined],
  ])('source location %s: %s links to %s', (location, source, link) => {
    expect(sourceLink(entity(location) as any, source)).toBe(link);
  });

  it("the Serving tab links each value's file:line to the repository and names a version's image by the version layer, as the CLI does", async () => {
    const api = fakeApi();
    const base = await api.resolve('qwen');
    const resolve = async () => ({
      ...base,
      explain: [
        row(
          'image',
          'vllm:0.19.1',
          'version',
          'models.yaml:110:9 runtimes.vllm.versions.0.19.1.image',
        ),
        ...base.explain,
      ],
    });
    await renderWithApi(fakeApi({ resolve } as any), <ServingContent />, {
      entity: entity('url:https://github.com/org/models/tree/main/'),
    });
    const imageRow = (await screen.findByText('vllm:0.19.1')).closest('tr')!;
    expect(within(imageRow).getByTestId('layer-version')).toHaveTextContent(
      layerInfo('version').label,
    );
    expect(within(imageRow).getByRole('link')).toHaveAttribute(
      'href',
      'https://github.com/org/models/tree/main/models.yaml#L110',
    );
  });
});
