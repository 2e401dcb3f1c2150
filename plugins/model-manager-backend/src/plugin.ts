import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { modelManagerPermissions } from '@model-manager/plugin-model-manager-common';
import { modelCatalogServiceRef } from '@model-manager/plugin-model-manager-node';
import { ScmIntegrations } from '@backstage/integration';
import { FleetService, FleetWatches, LiveObjectCache } from './fleet';
import { DiagnosisWatches } from './fleet/watch/DiagnosisWatches';
import { WatchedDiagnosis } from './fleet/watch/WatchedDiagnosis';
import { MANAGED_SELECTOR } from './fleet/LiveObjectCache';
import { fleetEventsRouter } from './fleet/watch/fleetEventsRouter';
import { PreflightReader, PreflightService } from './preflight';
import { DeploymentHistory } from './history';
import { ClusterRegistry, ServerSideApplier } from './kubernetes';
import { ModelAuthorizer } from './permissions';
import { createRouter } from './router';
import { DiagnosisReader } from './diagnosis';
import { ModelManagerService } from './service';

/**
 * model-manager backend plugin: the model API, Kubernetes server-side apply, deploy history,
 * permissions and audit. Configuration: `modelManager.*` (see config.d.ts) and the clusters of
 * `kubernetes.clusterLocatorMethods`.
 */
export const modelManagerPlugin = createBackendPlugin({
  pluginId: 'model-manager',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        lifecycle: coreServices.lifecycle,
        logger: coreServices.logger,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        auth: coreServices.auth,
        userInfo: coreServices.userInfo,
        catalogEntities: catalogServiceRef,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        auditor: coreServices.auditor,
        database: coreServices.database,
        catalog: modelCatalogServiceRef,
      },
      async init({
        config,
        lifecycle,
        logger,
        httpRouter,
        httpAuth,
        auth,
        userInfo,
        catalogEntities,
        permissions,
        permissionsRegistry,
        auditor,
        database,
        catalog,
      }) {
        permissionsRegistry.addPermissions(modelManagerPermissions);
        const clusters = ClusterRegistry.fromConfig(config, { logger });
        const kubernetes = config.getOptionalConfig('modelManager.kubernetes');
        const applier = ServerSideApplier.create({
          clusters,
          logger,
          requestTimeoutMs: kubernetes?.getOptionalNumber('requestTimeoutMs'),
          maxAttempts: kubernetes?.getOptionalNumber('maxAttempts'),
          retryBaseDelayMs: kubernetes?.getOptionalNumber('retryBaseDelayMs'),
        });
        const history = await DeploymentHistory.create({ database });
        // The watch cache of this replica; its watches end with the plugin (they would hold the
        // process open otherwise).
        const watches =
          config.getOptionalBoolean('modelManager.fleet.watch') !== false
            ? FleetWatches.create({
                clusters,
                labelSelector: MANAGED_SELECTOR,
                requestTimeoutMs:
                  kubernetes?.getOptionalNumber('requestTimeoutMs'),
              })
            : undefined;
        if (watches) lifecycle.addShutdownHook(() => watches.stop());
        // The pods and Warning Events the NotReady diagnosis reads, watched on the same clusters.
        const diagnosisWatches =
          watches &&
          DiagnosisWatches.create({
            sources: cluster => watches.sources(cluster),
          });
        if (diagnosisWatches)
          lifecycle.addShutdownHook(() => diagnosisWatches.stop());
        const cacheMs =
          (config.getOptionalNumber('modelManager.fleet.cacheSeconds') ?? 5) *
          1000;
        const cache = LiveObjectCache.create({
          applier,
          clusters,
          ttlMs: cacheMs,
          watches,
        });
        // Preflight and the fleet read the catalog the service serves (called on requests, after
        // both exist).
        const preflight = PreflightService.create({
          reader: PreflightReader.create({
            clusters,
            requestTimeoutMs: kubernetes?.getOptionalNumber('requestTimeoutMs'),
          }),
          // eslint-disable-next-line @typescript-eslint/no-use-before-define -- called on requests, once `service` exists
          catalog: () => service.catalog(),
        });
        const diagnosis =
          diagnosisWatches &&
          WatchedDiagnosis.create({
            reader: DiagnosisReader.create({
              applier,
              watched: diagnosisWatches,
            }),
            watches: diagnosisWatches,
          });
        const fleet = FleetService.create({
          cache,
          history,
          // eslint-disable-next-line @typescript-eslint/no-use-before-define -- called on requests, once `service` exists
          catalog: () => service.catalog(),
          gatewayBaseUrl: cluster => clusters.gatewayBaseUrl(cluster),
          diagnosis: diagnosis ?? DiagnosisReader.create({ applier }),
          diagnosisWatch: diagnosis,
          diagnosisMaxAgeMs: cacheMs,
          preflight,
        });
        const service = ModelManagerService.create({
          catalog,
          clusters,
          applier,
          history,
          logger,
          fleet,
          preflight,
          access: {
            authorizer: ModelAuthorizer.create({
              permissions,
              auth,
              userInfo,
              catalog: catalogEntities,
              logger,
              adminGroup: config.getOptionalString(
                'modelManager.permissionPolicy.adminGroup',
              ),
            }),
            auditor,
          },
          impersonateUser:
            kubernetes?.getOptionalBoolean('impersonateUser') ?? false,
        });
        httpRouter.use(
          await createRouter({
            service,
            fleet,
            httpAuth,
            logger,
            integrations: ScmIntegrations.fromConfig(config),
          }),
        );
        if (watches) {
          // Pushes fleet changes to pages (GET /fleet/events).
          // ...and a pod or Event change that moves a NotReady target's diagnosis.
          const events = fleetEventsRouter({
            watches: {
              subscribe: listener => {
                const offs = [
                  watches.subscribe(listener),
                  ...(diagnosis ? [diagnosis.subscribe(listener)] : []),
                ];
                return () => offs.forEach(off => off());
              },
            },
            httpAuth,
          });
          httpRouter.use(events.router);
          lifecycle.addShutdownHook(() => events.closeAll());
        }
        httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
      },
    });
  },
});
