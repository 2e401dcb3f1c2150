import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';
import { ALICE, LLM_ISVC, startActionBackend } from './actionTestContext';

/** Eight vLLM models on the runtime's default version: the fleet of the rollout tests. */
export const FLEET_MODELS = Array.from({ length: 8 }, (_, i) => `model-${i}`);

/** A catalog with the {@link FLEET_MODELS}, in a folder the test may edit; the models.yaml path. */
export function fleetCatalog(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-rollout-'));
  fs.cpSync(
    path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
    path.join(dir, 'runtimes'),
    {
      recursive: true,
    },
  );
  const repo = fs.readFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    'utf8',
  );
  const models = FLEET_MODELS.map(
    m =>
      `  ${m}:\n    model_id: org/${m}\n    category: llm\n    server:\n      runtime: vllm\n`,
  ).join('');
  fs.writeFileSync(
    path.join(dir, 'models.yaml'),
    `models:\n${models}\n${repo.slice(repo.indexOf('\nruntimes:') + 1)}`,
  );
  return path.join(dir, 'models.yaml');
}

type Backend = Awaited<ReturnType<typeof startActionBackend>>;

/**
 * The rollout tests' fleet: one backend (watching) over a {@link fleetCatalog}, and before each
 * test the {@link FLEET_MODELS} deployed at 0.24.0 and Ready, then 0.19.1 promoted to the
 * runtime's default (the spec's promote step), the faults and the request log cleared.
 */
export function useRolloutFleet() {
  let backend: Backend | undefined;
  let modelsFile = '';
  const fleet = {
    get mm(): Backend {
      if (!backend) throw new Error('the rollout fleet has not started');
      return backend;
    },
    /** A request to the backend's REST API as Alice: its status and JSON body. */
    async call(method: string, url: string, body?: unknown) {
      const res = await fetch(
        `http://localhost:${fleet.mm.server.port()}/api/model-manager${url}`,
        {
          method,
          headers: {
            Authorization: mockCredentials.user.header(ALICE),
            'Content-Type': 'application/json',
          },
          body: body ? JSON.stringify(body) : undefined,
        },
      );
      return { status: res.status, body: await res.json() };
    },
    /** Moves the runtime's default_version in models.yaml, until the backend serves it. */
    async setDefault(version: string) {
      fs.writeFileSync(
        modelsFile,
        fs
          .readFileSync(modelsFile, 'utf8')
          .replace(/default_version: "[^"]+"/, `default_version: "${version}"`),
      );
      for (;;) {
        if (
          (await fleet.call('GET', '/runtimes/vllm')).body.defaultVersion ===
          version
        )
          return;
        await new Promise(resolve => setImmediate(resolve));
      }
    },
    /** KServe's Ready condition of a model's LLMInferenceService, as its controller writes it. */
    setReady(model: string, ready: boolean) {
      return fleet.mm.kube.objects.setStatus(
        { ...LLM_ISVC, name: model, namespace: 'models' },
        {
          conditions: [
            {
              type: 'Ready',
              status: ready ? 'True' : 'False',
              ...(ready
                ? {}
                : {
                    reason: 'MinimumReplicasUnavailable',
                    message: 'Deployment does not have minimum availability.',
                  }),
              lastTransitionTime: '2026-12-01T00:00:00Z',
            },
          ],
        },
      );
    },
    /** Real applies (PATCH without dryRun) of a model's LLMInferenceService. */
    appliesOf(model: string) {
      return fleet.mm.kube.requests.filter(
        r =>
          r.method === 'PATCH' &&
          r.path.endsWith(`/llminferenceservices/${model}`) &&
          r.query.dryRun === undefined,
      ).length;
    },
  };

  beforeAll(async () => {
    modelsFile = fleetCatalog();
    backend = await startActionBackend({
      modelsFile,
      runtimesDir: path.join(path.dirname(modelsFile), 'runtimes'),
      modelManagerConfig: { watch: true },
    });
  }, 120_000);
  afterAll(() => backend?.stop(), 120_000);

  beforeEach(async () => {
    fleet.mm.kube.faults.clear();
    await fleet.setDefault('0.24.0');
    for (const model of FLEET_MODELS) {
      expect(
        (
          await fleet.call('POST', `/models/${model}/deploy`, {
            cluster: 'local',
            namespace: 'models',
          })
        ).status,
      ).toBe(200);
      await fleet.setReady(model, true);
    }
    await fleet.setDefault('0.19.1');
    fleet.mm.kube.faults.clear();
    fleet.mm.kube.resetRequests();
  });

  return fleet;
}
