import path from 'node:path';
import {
  resolvePackagePath,
  type BackendFeature,
} from '@backstage/backend-plugin-api';
import {
  mockServices,
  startTestBackend,
  TestDatabases,
} from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  KubeTarget,
  startKubeTarget,
} from '@model-manager/kube-api-test-server';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';
import type { Knex } from 'knex';
import { testClustersConfig } from './clusterConfig';
import { seedSchedulableTarget } from './seedCluster';

/** The repository root. */
export const REPO_ROOT = resolvePackagePath(
  '@model-manager/test-harness',
  '../..',
);

// MODEL_MANAGER_TEST_DB=POSTGRES_15 runs every backend suite against PostgreSQL (as `.ci/run`
// does, with BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING set); default: SQLite in memory.
const TEST_DB = process.env.MODEL_MANAGER_TEST_DB as 'POSTGRES_15' | undefined;
const databases = TEST_DB
  ? TestDatabases.create({ ids: [TEST_DB], disableDocker: true })
  : undefined;

/** The options of {@link startModelManager}. */
export type StartModelManagerOptions = {
  /**
   * The model-manager backend plugin (`@model-manager/plugin-model-manager-backend`'s default
   * export): passed in, so this package does not depend on the plugin it tests.
   */
  plugin: BackendFeature;
  permission?: AuthorizeResult.ALLOW | AuthorizeResult.DENY;
  /** The Kubernetes API (default: one started for this backend, see `startKubeTarget`). */
  kube?: KubeTarget;
  /**
   * The catalog served (default: the test catalog of `-common`'s testUtils, nine models on two
   * engines, so adding an engine to the shipped models.yaml breaks no suite).
   */
  modelsFile?: string;
  runtimesDir?: string;
  impersonateUser?: boolean;
  token?: string;
  requestTimeoutMs?: number;
  /** More clusters besides `local` (e.g. one that cannot be reached). */
  extraClusters?: Array<{ name: string; url: string }>;
  /** `modelManager.fleet.cacheSeconds` (default here: 0, every fleet request reads the clusters). */
  fleetCacheSeconds?: number;
  /** More config under `modelManager`. */
  modelManagerConfig?: Record<string, unknown>;
  /** The plugin's database (e.g. one PostgreSQL database shared by two replicas). */
  knex?: Knex;
  /** More features or service factories (e.g. a root logger at debug level, to read the logs). */
  features?: Parameters<typeof startTestBackend>[0]['features'];
  /**
   * Whether the API test server this call starts gets a node, a default StorageClass and the AI
   * gateway (`seedSchedulableCluster`, default true); false: a bare API server.
   */
  seedCluster?: boolean;
};

/**
 * A real backend with the model-manager plugin (`startTestBackend` from
 * `@backstage/backend-test-utils`), deploying to a Kubernetes API test server over HTTP. For the
 * tests of this plugin and of the modules that call it (the scaffolder module's actions, the
 * portal's backend).
 * `stop()` stops the backend, and the API test server when this call started it.
 */
export async function startModelManager(options: StartModelManagerOptions) {
  const ownsKube = !options.kube;
  // MODEL_MANAGER_TEST_KUBE=real: a real kube-apiserver (scripts/test-real-kube.js); default: the test double.
  const kube: KubeTarget =
    options.kube ??
    (await startKubeTarget({ namespaces: ['default', 'models'] }));
  // A cluster whose deploys pass preflight (a node, a default StorageClass, the AI gateway).
  if (ownsKube && options.seedCluster !== false)
    await seedSchedulableTarget(kube);
  const auditor = mockServices.auditor.mock();
  const events: Array<{
    eventId: string;
    meta: any;
    outcome?: 'success' | 'fail';
    error?: string;
    successMeta?: any;
  }> = [];
  auditor.createEvent.mockImplementation(async ({ eventId, meta }) => {
    const event: (typeof events)[number] = { eventId, meta };
    events.push(event);
    return {
      success: async o => {
        event.outcome = 'success';
        event.successMeta = o?.meta;
      },
      fail: async o => {
        event.outcome = 'fail';
        event.error = o.error.message;
      },
    };
  });
  const knex =
    options.knex ?? (databases ? await databases.init(TEST_DB!) : undefined);
  const databaseFeatures = knex
    ? [mockServices.database.factory({ knex })]
    : [];
  const backend = await startTestBackend({
    features: [
      options.plugin,
      ...databaseFeatures,
      ...(options.features ?? []),
      auditor.factory,
      mockServices.permissions.factory({
        result: options.permission ?? AuthorizeResult.ALLOW,
      }),
      mockServices.rootConfig.factory({
        data: {
          modelManager: {
            modelsFile:
              options.modelsFile ??
              path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
            runtimesDir:
              options.runtimesDir ?? path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
            watch: false,
            kubernetes: {
              retryBaseDelayMs: 1,
              requestTimeoutMs: options.requestTimeoutMs ?? 5000,
              impersonateUser: options.impersonateUser ?? false,
            },
            // No watch cache unless a test asks (`modelManagerConfig.fleet`): these tests read
            // what they just changed on the cluster, which a watch brings a moment later.
            fleet: {
              cacheSeconds: options.fleetCacheSeconds ?? 0,
              watch: false,
            },
            ...options.modelManagerConfig,
          },
          kubernetes: testClustersConfig([
            { name: 'local', url: kube.url, token: options.token },
            ...(options.extraClusters ?? []),
          ]),
        },
      }),
    ],
  });
  /** Stops the backend, and the API test server when this call started it. */
  const stop = async () => {
    await backend.stop();
    if (ownsKube) await kube.stop();
  };
  return { server: backend.server, backend, kube, events, stop };
}
