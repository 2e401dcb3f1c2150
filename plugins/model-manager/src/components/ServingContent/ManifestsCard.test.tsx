import { renderInTestApp } from '@backstage/test-utils';
import { fireEvent, screen, within } from '@testing-library/react';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import {
  fakeApi,
  FLEET,
  modelEntity,
  renderWithApi,
  uniqueIdWarnings,
} from '../../__testUtils__';
import { ManifestsCard } from './ManifestsCard';
import { ServingContent } from './ServingContent';

const object = (kind: string, name: string, extra: object): RenderedObject =>
  ({
    apiVersion: 'v1',
    kind,
    name,
    namespace: 'models',
    applyPolicy: 'apply',
    source: 't',
    manifest: { apiVersion: 'v1', kind, metadata: { name }, ...extra },
  } as unknown as RenderedObject);

const manifests = [
  object('LLMInferenceService', 'qwen', { spec: { replicas: 1 } }),
  object('ConfigMap', 'qwen-config', { data: { MARKER: 'in-the-configmap' } }),
];

describe('ManifestsCard', () => {
  it('shows one tab per object, each with its own YAML and a copy button', async () => {
    await renderInTestApp(
      <ManifestsCard model="qwen" namespace="models" manifests={manifests} />,
    );
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map(t => t.textContent)).toEqual([
      'LLMInferenceService qwen',
      'ConfigMap qwen-config',
    ]);
    const panel = () => screen.getByRole('tabpanel');
    expect(panel().textContent).toContain('replicas: 1');
    expect(panel().textContent).not.toContain('in-the-configmap');
    fireEvent.click(screen.getByRole('tab', { name: 'ConfigMap qwen-config' }));
    expect(panel().textContent).toContain('MARKER: in-the-configmap');
    expect(
      within(panel()).getByRole('button', { name: /copy/i }),
    ).toBeInTheDocument();
  });

  it('downloads <model>.yaml with every object', async () => {
    const blobs: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = jest.fn((b: Blob) => {
      blobs.push(b);
      return 'blob:manifests';
    });
    URL.revokeObjectURL = jest.fn();
    const click = jest
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(function recordClick(this: HTMLAnchorElement) {
        names.push(this.download);
      });
    await renderInTestApp(
      <ManifestsCard model="qwen" namespace="models" manifests={manifests} />,
    );
    fireEvent.click(
      screen.getByRole('button', { name: /Download qwen\.yaml/ }),
    );
    click.mockRestore();
    expect(names).toEqual(['qwen.yaml']);
    const text = await new Response(blobs[0]).text();
    expect(text.split(/^---$/m)).toHaveLength(2);
    expect(text).toContain('kind: LLMInferenceService');
    expect(text).toContain('kind: ConfigMap');
  });
});

describe('ServingContent tables', () => {
  it('give every row an id (no "unique id" warning from the table)', async () => {
    expect(
      await uniqueIdWarnings(async () => {
        await renderWithApi(
          fakeApi({ fleet: async () => FLEET }),
          <ServingContent />,
          { entity: modelEntity('qwen') },
        );
        await screen.findByText('Resolved configuration');
        await screen.findAllByText(/models@|local/);
      }),
    ).toEqual([]);
  });
});
