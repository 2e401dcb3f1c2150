import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { buildCatalog } from '../catalog/buildCatalog';
import { resolveServer } from '../resolver/resolveServer';
import type { ServerOverrides } from '../resolver/types';
import { renderManifests } from '../renderer/renderManifests';
import type { RenderedObject } from '../renderer/types';
import { fixtureSources } from '../testUtils/catalogFixtures';
import {
  GITOPS_RECREATE_ANNOTATIONS,
  GITOPS_SHARED_OBJECT_ANNOTATIONS,
  renderGitOpsLayout,
} from './renderGitOpsLayout';

const catalog = buildCatalog(fixtureSources());
const render = (model: string, overrides: ServerOverrides = {}) =>
  renderManifests(catalog, resolveServer(catalog, model, overrides), {
    namespace: 'models',
  });
const target = (model: string) => ({
  cluster: 'local',
  namespace: 'models',
  model,
});
const byPath = (files: Array<{ path: string; content: string }>) =>
  Object.fromEntries(files.map(f => [f.path, f.content]));

/** What a GitOps engine should create for an object: its manifest, shared ones annotated. */
function expectedObject(o: RenderedObject) {
  const manifest = JSON.parse(JSON.stringify(o.manifest));
  if (o.applyPolicy === 'create-if-absent')
    manifest.metadata.annotations = {
      ...manifest.metadata.annotations,
      ...GITOPS_SHARED_OBJECT_ANNOTATIONS,
    };
  if (o.applyPolicy === 'recreate-when-immutable')
    manifest.metadata.annotations = {
      ...manifest.metadata.annotations,
      ...GITOPS_RECREATE_ANNOTATIONS,
    };
  return manifest;
}
const key = (m: any) =>
  `${m.apiVersion} ${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`;
const keyed = (manifests: any[]) =>
  Object.fromEntries(manifests.map(m => [key(m), m]));

describe('renderGitOpsLayout', () => {
  it('writes <cluster>/<namespace>/<model>/ with one <kind>-<name>.yaml per object and a kustomization.yaml listing them', () => {
    const objects = render('bge-small-en-v1-5-ov');
    const files = renderGitOpsLayout(objects, target('bge-small-en-v1-5-ov'));
    const dir = 'local/models/bge-small-en-v1-5-ov';
    expect(files.map(f => f.path)).toEqual([
      `${dir}/clusterservingruntime-openvino-runtime.yaml`,
      `${dir}/persistentvolumeclaim-model-manager-weights.yaml`,
      `${dir}/job-bge-small-en-v1-5-ov-download.yaml`,
      `${dir}/inferenceservice-bge-small-en-v1-5-ov.yaml`,
      `${dir}/backend-bge-small-en-v1-5-ov.yaml`,
      `${dir}/aiservicebackend-bge-small-en-v1-5-ov.yaml`,
      `${dir}/aigatewayroute-bge-small-en-v1-5-ov.yaml`,
      `${dir}/kustomization.yaml`,
    ]);
    expect(byPath(files)[`${dir}/kustomization.yaml`]).toBe(
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'resources:',
        '  - clusterservingruntime-openvino-runtime.yaml',
        '  - persistentvolumeclaim-model-manager-weights.yaml',
        '  - job-bge-small-en-v1-5-ov-download.yaml',
        '  - inferenceservice-bge-small-en-v1-5-ov.yaml',
        '  - backend-bge-small-en-v1-5-ov.yaml',
        '  - aiservicebackend-bge-small-en-v1-5-ov.yaml',
        '  - aigatewayroute-bge-small-en-v1-5-ov.yaml',
        '',
      ].join('\n'),
    );
  });

  it('each file is its object, and only the shared (create-if-absent) ones carry the Argo CD and Flux annotations', () => {
    const objects = render('bge-small-en-v1-5-ov');
    const files = renderGitOpsLayout(objects, target('bge-small-en-v1-5-ov'));
    const parsed = files.slice(0, -1).map(f => parse(f.content));
    expect(parsed).toEqual(objects.map(expectedObject));
    const annotated = parsed
      .filter(
        m =>
          m.metadata.annotations?.['argocd.argoproj.io/sync-options'] ===
          'Prune=false,Delete=false',
      )
      .map(m => m.kind);
    expect(annotated).toEqual([
      'ClusterServingRuntime',
      'PersistentVolumeClaim',
    ]);
    // The download Job is replaced when what it downloads changes (its pod template is immutable).
    expect(
      parsed
        .filter(
          m =>
            m.metadata.annotations?.['kustomize.toolkit.fluxcd.io/force'] ===
            'enabled',
        )
        .map(m => [
          m.kind,
          m.metadata.annotations['argocd.argoproj.io/sync-options'],
        ]),
    ).toEqual([['Job', 'Force=true,Replace=true']]);
  });

  it('puts the layout under targetPath', () => {
    const files = renderGitOpsLayout(render('bge-m3'), {
      ...target('bge-m3'),
      targetPath: './deploy/models/',
    });
    expect(files.map(f => f.path)).toEqual([
      'deploy/models/local/models/bge-m3/llminferenceservice-bge-m3.yaml',
      'deploy/models/local/models/bge-m3/kustomization.yaml',
    ]);
  });

  it('writes apiVersion, kind and metadata first and gives the same bytes for the same objects', () => {
    const [object] = render('bge-m3');
    const { apiVersion, kind, metadata, ...rest } = object.manifest;
    const shuffled = {
      ...object,
      manifest: { ...rest, metadata, kind, apiVersion },
    };
    const a = renderGitOpsLayout([shuffled], target('bge-m3'));
    const b = renderGitOpsLayout([object], target('bge-m3'));
    expect(a).toEqual(b);
    expect(a[0].content.split('\n').slice(0, 3)).toEqual([
      'apiVersion: serving.kserve.io/v1alpha2',
      'kind: LLMInferenceService',
      'metadata:',
    ]);
  });

  it('does not change the objects it is given', () => {
    const objects = render('bge-small-en-v1-5-ov');
    const before = JSON.stringify(objects);
    renderGitOpsLayout(objects, target('bge-small-en-v1-5-ov'));
    expect(JSON.stringify(objects)).toBe(before);
  });

  it('quotes strings a YAML 1.1 reader (kubectl, PyYAML) would take for booleans or numbers', () => {
    const values = {
      A: 'yes',
      B: 'off',
      C: '0123',
      D: '1e3',
      E: '0.24.0',
      F: 'plain',
    };
    const files = renderGitOpsLayout(
      render('bge-m3', { env: values }),
      target('bge-m3'),
    );
    const text = files[0].content;
    for (const v of ['yes', 'off', '0123', '1e3', '0.24.0'])
      expect(text).toContain(`value: "${v}"`);
    expect(text).toContain('value: plain');
    const env = (
      parse(text, { version: '1.1' }).spec.template.containers[0].env as Array<{
        name: string;
        value: unknown;
      }>
    ).filter(e => e.name in values);
    expect(Object.fromEntries(env.map(e => [e.name, e.value]))).toEqual(values);
  });

  it.each([
    [
      'cluster',
      { cluster: '../etc' },
      /^cluster: '\.\.\/etc' cannot be a folder name/,
    ],
    ['namespace', { namespace: '' }, /^namespace: '' cannot be a folder name/],
    ['model', { model: '..' }, /^model: '\.\.' cannot be a folder name/],
    [
      'targetPath absolute',
      { targetPath: '/etc' },
      /^targetPath: '\/etc' must be a folder relative/,
    ],
    [
      'targetPath leaving the repository',
      { targetPath: 'a/../../b' },
      /^targetPath: 'a\/\.\.\/\.\.\/b' must stay inside/,
    ],
  ])('refuses a %s that is not a plain folder', (_what, bad, message) => {
    expect(() =>
      renderGitOpsLayout(render('bge-m3'), { ...target('bge-m3'), ...bad }),
    ).toThrow(message);
  });

  it('refuses two objects that would share a file', () => {
    const [object] = render('bge-m3');
    expect(() =>
      renderGitOpsLayout(
        [object, { ...object, apiVersion: 'other.io/v1' }],
        target('bge-m3'),
      ),
    ).toThrow(
      'two objects would both be written to local/models/bge-m3/llminferenceservice-bge-m3.yaml: serving.kserve.io/v1alpha2 LLMInferenceService bge-m3 and other.io/v1 LLMInferenceService bge-m3',
    );
  });
});

/** kubectl, when installed (it is on the CI machine and the dev container). */
function findKubectl(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return 'kubectl';
  } catch {
    return undefined;
  }
}
const kubectl = findKubectl();
const describeWithKubectl = kubectl ? describe : describe.skip;
if (!kubectl)
  // eslint-disable-next-line no-console
  console.warn(
    'renderGitOpsLayout: kubectl is not on PATH; skipping the `kubectl kustomize` tests (install kubectl to run them)',
  );

describeWithKubectl(
  'kubectl kustomize builds the layout to the rendered objects',
  () => {
    const overrides: Record<string, ServerOverrides> = {
      'llama-3-1-8b-instruct': {
        serverVersion: '0.24.0',
        env: { FLAG: 'yes', ZIP: '0123' },
        args: ['--max-model-len=4096'],
      },
    };
    let root: string;
    beforeAll(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-gitops-'));
    });
    afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

    it.each(Object.keys(catalog.models))(
      '%s',
      async model => {
        const objects = render(model, overrides[model]);
        const files = renderGitOpsLayout(objects, target(model));
        for (const f of files) {
          fs.mkdirSync(path.dirname(path.join(root, f.path)), {
            recursive: true,
          });
          fs.writeFileSync(path.join(root, f.path), f.content);
        }
        const { stdout } = await promisify(execFile)(
          kubectl!,
          ['kustomize', path.join(root, 'local/models', model)],
          { maxBuffer: 16 * 1024 * 1024 },
        );
        const built = parseAllDocuments(stdout).map(d => d.toJS());
        // kustomize orders objects by kind; compare them by identity.
        expect(keyed(built)).toEqual(keyed(objects.map(expectedObject)));
        expect(built).toHaveLength(objects.length);
      },
      60_000,
    );
  },
);
