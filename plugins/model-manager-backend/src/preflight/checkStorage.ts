/** Checks of what the model attaches to: the weights claim's storage, and the routes' Gateway. */
import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';
import {
  claimPath,
  gatewayPath,
  GATEWAY_API_VERSION,
  STORAGE_CLASSES_PATH,
} from './paths';
import { itemsOf, unreadable } from './readText';
import { referencedGateways, renderedClaims } from './renderedNeeds';
import type { Read, TargetFacts } from './types';

const missing: Read = { ok: false, message: 'not read' };

/**
 * The annotations that mark the default StorageClass
 * (https://kubernetes.io/docs/tasks/administer-cluster/change-default-storage-class/; the beta
 * one is still honoured by the DefaultStorageClass admission plugin,
 * kubernetes pkg/volume/util/storageclass/helpers.go `IsDefaultAnnotation`).
 */
const DEFAULT_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

/**
 * 6. The weights claim will bind: it exists already, or the StorageClass it names (plumbing
 * `weights_storage_class`) exists, or, naming none, the cluster has a default StorageClass.
 * Only for models whose profile renders a claim.
 */
export function checkStorage(facts: TargetFacts): PreflightCheck | undefined {
  const claims = renderedClaims(facts.objects);
  if (claims.length === 0) return undefined;
  const title = 'The weights claim will bind';
  const claim = claims[0];
  const ns = claim.namespace ?? facts.namespace;
  const read = facts.reads.get(claimPath(ns, claim.name)) ?? missing;
  if (!read.ok)
    return {
      id: 'storage',
      title,
      status: 'unknown',
      ...unreadable(read, facts.cluster, 'get', 'persistentvolumeclaims'),
    };
  if (read.body) {
    const phase = read.body.status?.phase ?? 'Pending';
    return {
      id: 'storage',
      title,
      status: phase === 'Lost' ? 'fail' : 'pass',
      message: `PersistentVolumeClaim ${claim.name} exists in ${ns} (${phase}); the model shares it`,
      ...(phase === 'Lost'
        ? {
            fix: `its volume is gone: delete the claim (kubectl -n ${ns} delete pvc ${claim.name}) so the deploy creates it again`,
          }
        : {}),
    };
  }
  const wanted = (claim.manifest as any)?.spec?.storageClassName as
    | string
    | undefined;
  const classesRead = facts.reads.get(STORAGE_CLASSES_PATH) ?? missing;
  if (!classesRead.ok)
    return {
      id: 'storage',
      title,
      status: 'unknown',
      ...unreadable(classesRead, facts.cluster, 'list', 'storageclasses'),
    };
  const classes = itemsOf(classesRead);
  const names = classes.map(c => c.metadata?.name as string);
  const known = names.length > 0 ? names.join(', ') : 'none';
  if (wanted) {
    return names.includes(wanted)
      ? {
          id: 'storage',
          title,
          status: 'pass',
          message: `claim ${claim.name} will be created with StorageClass ${wanted}, which exists`,
        }
      : {
          id: 'storage',
          title,
          status: 'fail',
          message: `claim ${claim.name} names StorageClass ${wanted} (plumbing weights_storage_class), which cluster ${facts.cluster} does not have (it has: ${known}): the claim would stay Pending and the model never start`,
          fix: `set weights_storage_class to one of ${known}, or create StorageClass ${wanted}`,
        };
  }
  const defaults = classes.filter(c =>
    DEFAULT_CLASS_ANNOTATIONS.some(
      a => c.metadata?.annotations?.[a] === 'true',
    ),
  );
  if (defaults.length > 0)
    return {
      id: 'storage',
      title,
      status: 'pass',
      message: `claim ${claim.name} will be created with the default StorageClass ${defaults[0].metadata.name}`,
    };
  return {
    id: 'storage',
    title,
    status: 'fail',
    message: `claim ${claim.name} names no StorageClass and cluster ${facts.cluster} has no default one (StorageClasses: ${known}): the claim would stay Pending and the model never start`,
    fix:
      names.length > 0
        ? `set weights_storage_class in the runtime's plumbing to one of ${known}, or mark one default (kubectl annotate storageclass ${names[0]} storageclass.kubernetes.io/is-default-class=true)`
        : `install a storage provisioner and its StorageClass, or create the claim ${claim.name} in ${ns} by hand`,
  };
}

/** 7. The Gateway the rendered routes attach to exists. Only for models that render routes. */
export function checkGateway(facts: TargetFacts): PreflightCheck | undefined {
  const gateways = referencedGateways(facts.objects);
  if (gateways.length === 0) return undefined;
  const title = 'The Gateway the routes attach to exists';
  for (const g of gateways) {
    const read = facts.reads.get(gatewayPath(g.namespace, g.name)) ?? missing;
    if (!read.ok)
      return {
        id: 'gateway',
        title,
        status: 'unknown',
        ...unreadable(
          read,
          facts.cluster,
          'get',
          'gateways.gateway.networking.k8s.io',
        ),
      };
    if (read.body === null)
      return {
        id: 'gateway',
        title,
        status: 'fail',
        message: `${g.route} attaches to Gateway ${g.namespace}/${g.name} (plumbing gateway_namespace/gateway_name), which cluster ${facts.cluster} does not have (${GATEWAY_API_VERSION}): the route would never be accepted and clients could not reach the model`,
        fix: `create the Gateway ${g.namespace}/${g.name}, or set gateway_name/gateway_namespace in the runtime's plumbing to the cluster's AI gateway`,
      };
  }
  return {
    id: 'gateway',
    title,
    status: 'pass',
    message: `Gateway ${gateways
      .map(g => `${g.namespace}/${g.name}`)
      .join(', ')} exists`,
  };
}
