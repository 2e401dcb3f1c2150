import { screen, within } from '@testing-library/react';
import type { ModelManagerApi } from '../../api';
import { fakeApi, renderWithApi, runtimeEntity } from '../../__testUtils__';
import { flatImageOf } from './flatImage';
import { RuntimeContent } from './RuntimeContent';
import { RuntimeSummaryCard } from './RuntimeSummaryCard';

// The OpenVINO runtime as GET /runtimes/openvino answers it: flat, its image in the plumbing.
const openvino = {
  name: 'openvino',
  kind: 'InferenceService',
  versioned: false,
  versions: [],
  env: {},
  categories: [],
  plumbing: {
    image: {
      value: 'openvino/model_server:2026.3',
      source: 'runtimes/openvino/values.yaml:2:8 image',
    },
    routing: {
      value: 'aigateway',
      source: 'runtimes/openvino/values.yaml:8:10 routing',
    },
  },
  models: ['phi-3-5-mini-instruct-int4-ov'],
};

async function renderOpenVino(element: JSX.Element) {
  const api = {
    ...fakeApi(),
    getRuntime: async () => openvino,
  } as unknown as ModelManagerApi;
  await renderWithApi(api, element, { entity: runtimeEntity('openvino') });
}

describe('a flat runtime shows its image', () => {
  it.each([
    [{ versioned: true, plumbing: openvino.plumbing }, undefined],
    [{ versioned: false, plumbing: {} }, undefined],
    [
      openvino,
      {
        image: 'openvino/model_server:2026.3',
        source: 'runtimes/openvino/values.yaml:2:8 image',
      },
    ],
  ])('flatImageOf(%j) is %j', (runtime, expected) => {
    expect(flatImageOf(runtime as any)).toEqual(expected);
  });

  it('the runtime page shows the image and where it is set, not an empty versions table', async () => {
    await renderOpenVino(<RuntimeContent />);
    const image = await screen.findByRole('table', { name: 'Image' });
    expect(
      within(image).getByText('openvino/model_server:2026.3'),
    ).toBeInTheDocument();
    expect(
      within(image).getByText('runtimes/openvino/values.yaml:2:8 image'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Versions')).not.toBeInTheDocument();
  });

  it('the Overview card lists the image', async () => {
    await renderOpenVino(<RuntimeSummaryCard />);
    const summary = await screen.findByRole('table', {
      name: 'Runtime summary',
    });
    expect(within(summary).getByText('flat (no versions)')).toBeInTheDocument();
    expect(
      within(summary).getByText('openvino/model_server:2026.3'),
    ).toBeInTheDocument();
  });
});
