import fs from 'node:fs';
import path from 'node:path';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { KubeApiTestServer } from '@model-manager/kube-api-test-server';
import { testClustersConfig } from '@model-manager/test-harness';
import {
  GITOPS_RECREATE_ANNOTATIONS,
  GITOPS_SHARED_OBJECT_ANNOTATIONS,
} from '@model-manager/plugin-model-manager-common';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
import scaffolderModuleGithub from '@backstage/plugin-scaffolder-backend-module-github';
import modelManagerPlugin from '@model-manager/plugin-model-manager-backend';
import request from 'supertest';
import yaml from 'yaml';
import { scaffolderModuleModelManager } from './module';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

/**
 * The "Propose model deployment (pull request)" template, dry-run by the real scaffolder
 * (`POST /api/scaffolder/v2/dry-run`, what the template editor's dry run calls) in a backend with
 * the model-manager plugin, this module and Backstage's GitHub module. The scaffolder runs every
 * step of a dry run whose action declares `supportsDryRun` (model-manager:render writes the files;
 * publish:github:pull-request logs and outputs without calling GitHub:
 * plugins/scaffolder-backend-module-github/src/actions/githubPullRequest.ts, `if (ctx.isDryRun)`)
 * and answers with the workspace's files in `directoryContents`.
 */
const REPO_ROOT = path.resolve(__dirname, '../../..');
const TEMPLATE = yaml.parse(
  fs.readFileSync(
    path.join(
      REPO_ROOT,
      'scaffolder-templates/propose-model-deployment/template.yaml',
    ),
    'utf8',
  ),
);
const ALICE = 'user:default/alice';

describe('scaffolder-templates/propose-model-deployment: the scaffolder dry run', () => {
  let kube: KubeApiTestServer;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  beforeAll(async () => {
    kube = await KubeApiTestServer.start({ namespaces: ['default', 'models'] });
    backend = await startTestBackend({
      features: [
        modelManagerPlugin,
        scaffolderPlugin,
        scaffolderModuleGithub,
        scaffolderModuleModelManager,
        catalogServiceMock.factory({ entities: [] }),
        mockServices.rootConfig.factory({
          data: {
            // A token, so the PR action can build its GitHub client; a dry run never calls GitHub.
            integrations: {
              github: [{ host: 'github.com', token: 'not-a-real-token' }],
            },
            modelManager: {
              modelsFile: path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
              runtimesDir: path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
              watch: false,
              kubernetes: {
                retryBaseDelayMs: 1,
                requestTimeoutMs: 5000,
                clusters: { local: { namespaces: ['default', 'models'] } },
              },
            },
            kubernetes: testClustersConfig([{ name: 'local', url: kube.url }]),
          },
        }),
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await backend?.stop();
    await kube?.stop();
  }, 120_000);
  beforeEach(() => kube.resetRequests());

  const dryRun = (values: Record<string, unknown>) =>
    request(backend.server)
      .post('/api/scaffolder/v2/dry-run')
      .set('Authorization', mockCredentials.user.header(ALICE))
      .send({ template: TEMPLATE, values, directoryContents: [] });

  it('shows the files the pull request would add, and the pull request step dry-run', async () => {
    const res = await dryRun({
      model: 'component:default/bge-small-en-v1-5-ov',
      cluster: 'local',
      namespace: 'models',
      repoUrl: 'github.com?owner=acme&repo=gitops',
      targetPath: 'clusters',
    });
    expect(res.status).toBe(200);
    const dir = 'clusters/local/models/bge-small-en-v1-5-ov';
    const files = Object.fromEntries(
      (
        res.body.directoryContents as Array<{
          path: string;
          base64Content: string;
        }>
      ).map(f => [
        f.path,
        Buffer.from(f.base64Content, 'base64').toString('utf8'),
      ]),
    );
    const names = [
      'clusterservingruntime-openvino-runtime.yaml',
      'persistentvolumeclaim-model-manager-weights.yaml',
      'job-bge-small-en-v1-5-ov-download.yaml',
      'inferenceservice-bge-small-en-v1-5-ov.yaml',
      'backend-bge-small-en-v1-5-ov.yaml',
      'aiservicebackend-bge-small-en-v1-5-ov.yaml',
      'aigatewayroute-bge-small-en-v1-5-ov.yaml',
    ];
    expect(Object.keys(files).sort()).toEqual(
      [...names, 'kustomization.yaml'].map(n => `${dir}/${n}`).sort(),
    );
    expect(yaml.parse(files[`${dir}/kustomization.yaml`])).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: names,
    });

    // The files are what the model-manager backend renders for that target.
    const rendered = await request(backend.server)
      .post('/api/model-manager/models/bge-small-en-v1-5-ov/render')
      .set('Authorization', mockCredentials.user.header(ALICE))
      .send({ namespace: 'models' });
    expect(rendered.status).toBe(200);
    // Shared objects carry the GitOps engines' create-if-absent annotations, the download Job
    // their replace annotations (its pod template is immutable).
    const gitopsAnnotations: Record<string, Record<string, string>> = {
      'create-if-absent': GITOPS_SHARED_OBJECT_ANNOTATIONS,
      'recreate-when-immutable': GITOPS_RECREATE_ANNOTATIONS,
    };
    const expected = rendered.body.items.map((o: any) =>
      gitopsAnnotations[o.applyPolicy]
        ? {
            ...o.manifest,
            metadata: {
              ...o.manifest.metadata,
              annotations: {
                ...o.manifest.metadata.annotations,
                ...gitopsAnnotations[o.applyPolicy],
              },
            },
          }
        : o.manifest,
    );
    expect(
      names.map(n => yaml.parse(files[`${dir}/${n}`], { version: '1.1' })),
    ).toEqual(expected);

    // Both steps ran as a dry run; the pull request step without calling GitHub.
    const messages = (
      res.body.log as Array<{ body: { message: string; stepId?: string } }>
    ).map(l =>
      // eslint-disable-next-line no-control-regex
      l.body.message.replace(/\u001b\[\d+m/g, '').replace(/^info: /, ''),
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^Wrote 7 objects of model bge-small-en-v1-5-ov for cluster local, namespace models to ${dir}/: `,
          ),
        ),
        'Performing dry run of creating pull request',
        'Dry run complete',
      ]),
    );
    // The branch and title the form left empty, as the template computes them.
    expect(messages.join('\n')).toContain(
      '"branchName": "model-manager/bge-small-en-v1-5-ov-local-models"',
    );
    expect(messages.join('\n')).toContain(
      '"title": "Deploy bge-small-en-v1-5-ov to local/models"',
    );
    expect(res.body.output.links).toEqual([
      {
        title: 'Pull request',
        icon: 'github',
        url: 'github.com?owner=acme&repo=gitops',
      },
      {
        title: 'Model in the catalog',
        icon: 'catalog',
        entityRef: 'component:default/bge-small-en-v1-5-ov',
      },
    ]);
    expect(res.body.output.text[0].content).toContain(`\`${dir}/\`: 8 files`);
    // Rendering a proposal reaches no cluster.
    expect(kube.requestCount).toBe(0);
  }, 120_000);

  it('fails for a namespace the cluster does not allow, naming the config key', async () => {
    const res = await dryRun({
      model: 'component:default/bge-m3',
      cluster: 'local',
      namespace: 'kube-system',
      repoUrl: 'github.com?owner=acme&repo=gitops',
    });
    const messages = JSON.stringify(res.body);
    expect(messages).toContain(
      "namespace 'kube-system' is not open to model deployments on cluster local; allowed: default, models (modelManager.kubernetes.clusters.local.namespaces)",
    );
    expect(res.body.directoryContents ?? []).toEqual([]);
    expect(kube.requestCount).toBe(0);
  }, 120_000);
});
