import { mockCredentials, TestDatabases } from '@backstage/backend-test-utils';
import { KubeApiTestServer } from '@model-manager/kube-api-test-server';
import knexFactory, { type Knex } from 'knex';
import request from 'supertest';
import { seedSchedulableCluster } from '@model-manager/test-harness';
import {
  startModelManager,
  type ModelManagerTestContext,
} from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const PG_ENV = 'BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING';
const MODELS = [
  'qwen2-5-7b-instruct',
  'bge-m3',
  'bge-reranker-v2-m3',
  'qwen3-30b-a3b',
  'bge-small-en-v1-5-ov',
];

const databases = TestDatabases.create({
  ids: ['POSTGRES_15'],
  disableDocker: true,
});

it('runs against PostgreSQL in CI (the .ci/run script starts one)', () => {
  // Without this, a CI machine without PostgreSQL would silently skip the replica tests.
  if (process.env.CI)
    expect(process.env[PG_ENV]).toMatch(/^postgres(ql)?:\/\//);
});

// Two backend replicas, each with its own connection pool, on one PostgreSQL database and one
// cluster, as a production deployment with two pods runs.
(databases.supports('POSTGRES_15') ? describe : describe.skip)(
  'two backend replicas on one PostgreSQL',
  () => {
    let kube: KubeApiTestServer;
    let first: Knex;
    let second: Knex;
    const replicas: ModelManagerTestContext[] = [];

    beforeAll(async () => {
      kube = await KubeApiTestServer.start({
        namespaces: ['default', 'models'],
      });
      // A cluster whose deploys pass preflight (a node, a default StorageClass, the AI gateway).
      seedSchedulableCluster(kube);
      first = await databases.init('POSTGRES_15');
      second = knexFactory(first.client.config);
      replicas.push(await startModelManager({ kube, knex: first }));
      replicas.push(await startModelManager({ kube, knex: second }));
    }, 120_000);
    afterAll(async () => {
      for (const r of replicas) await r.stop();
      await second.destroy();
      await kube.stop();
    }, 120_000);

    it('50 deploys spread over both replicas get unique per-model revisions, none lost', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          request(replicas[i % 2].server)
            .post(
              `/api/model-manager/models/${MODELS[i % MODELS.length]}/deploy`,
            )
            .set('Authorization', ALICE)
            .send({
              cluster: 'local',
              namespace: 'models',
              env: { REQUEST: String(i) },
            }),
        ),
      );
      expect(results.map(r => r.status)).toEqual(Array(50).fill(200));
      for (const model of MODELS) {
        const revisions = results
          .filter(r => r.body.model === model)
          .map(r => r.body.revision as number)
          .sort((a, b) => a - b);
        expect(revisions).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
        // Either replica lists the same ten rows.
        for (const replica of replicas) {
          const history = await request(replica.server)
            .get(`/api/model-manager/models/${model}/deployments`)
            .set('Authorization', ALICE);
          expect(history.body.items.map((r: any) => r.revision)).toEqual(
            Array.from({ length: 10 }, (_, i) => 10 - i),
          );
        }
      }
    });

    it('both replicas show the same fleet', async () => {
      const [a, b] = await Promise.all(
        replicas.map(r =>
          request(r.server)
            .get('/api/model-manager/fleet')
            .set('Authorization', ALICE),
        ),
      );
      expect(a.status).toBe(200);
      expect(
        a.body.items.map(
          (t: any) => `${t.model}@${t.namespace} rev ${t.revision?.revision}`,
        ),
      ).toEqual(
        MODELS.slice()
          .sort()
          .map(m => `${m}@models rev 10`),
      );
      expect(b.body.items).toEqual(a.body.items);
    });
  },
);
