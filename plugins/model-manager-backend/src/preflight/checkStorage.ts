/** Checks of what the model attaches to: the weights claim's storage, and the routes' Gateway. */
import {
  readPath,
  type ControllerGateway,
  type PreflightCheck,
} from '@model-manager/plugin-model-manager-common';
import { parsedConfigKey } from './checkGatewayConfig';
import {
  claimPath,
  configMapPath,
  gatewayClassPath,
  gatewayPath,
  GATEWAY_API_VERSION,
  namespacePath,
  STORAGE_CLASSES_PATH,
} from './paths';
import { admitsRoutesFrom } from './gatewayListeners';
import { itemsOf, unreadable } from './readText';
import {
  controllerGatewayName,
  referencedGateways,
  renderedClaims,
} from './renderedNeeds';
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

/**
 * 7. The Gateway the model's routes attach to exists: the rendered routes' (plumbing
 * gateway_namespace/gateway_name), and the one the engine's controller attaches its own route to
 * (profile `controller_gateway`: KServe's managed HTTPRoute of an LLMInferenceService, on the
 * Gateway its inferenceservice-config names), and one of its listeners admits routes from the
 * route's namespace (Gateway API allowedRoutes, `gatewayListeners.ts`). Only for models with routes.
 */
export function checkGateway(facts: TargetFacts): PreflightCheck | undefined {
  const gateways = referencedGateways(facts.objects);
  const controller = facts.controllerGateway
    ? controllerGatewayName(facts.controllerGateway, facts.reads)
    : undefined;
  if (gateways.length === 0 && !controller) return undefined;
  const title = 'The Gateway the routes attach to exists';
  const unknownGateway = (read: Extract<Read, { ok: false }>) => ({
    id: 'gateway' as const,
    title,
    status: 'unknown' as const,
    ...unreadable(
      read,
      facts.cluster,
      'get',
      'gateways.gateway.networking.k8s.io',
    ),
  });
  for (const g of gateways) {
    const read = facts.reads.get(gatewayPath(g.namespace, g.name)) ?? missing;
    if (!read.ok) return unknownGateway(read);
    if (read.body === null)
      return {
        id: 'gateway',
        title,
        status: 'fail',
        message: `${g.route} attaches to Gateway ${g.namespace}/${g.name} (plumbing gateway_namespace/gateway_name), which cluster ${facts.cluster} does not have (${GATEWAY_API_VERSION}): the route would never be accepted and clients could not reach the model`,
        fix: `create the Gateway ${g.namespace}/${g.name}, or set gateway_name/gateway_namespace in the runtime's plumbing to the cluster's AI gateway`,
      };
    const refused = notAdmitted(facts, read.body, g.routeNamespace, g.route);
    if (refused)
      return {
        id: 'gateway',
        title,
        ...refused,
        fix: `${refused.fix}, or set gateway_name/gateway_namespace in the runtime's plumbing to a Gateway that admits it`,
      };
    const unserved = notServedBy(facts, read.body, g);
    if (unserved) return { id: 'gateway', title, ...unserved };
  }
  const classes = facts.gatewayClass
    ? ` (of a class ${facts.gatewayClass.controller} serves)`
    : '';
  const found = gateways.map(g => `${g.namespace}/${g.name}${classes}`);
  if (controller && facts.controllerGateway) {
    const problem = controllerGatewayProblem(
      facts,
      facts.controllerGateway,
      controller,
    );
    if (problem) return { id: 'gateway', title, ...problem };
    const read = facts.reads.get(
      gatewayPath(controller.namespace, controller.name),
    );
    const server = facts.objects[facts.objects.length - 1];
    const refused =
      read?.ok && read.body
        ? notAdmitted(
            facts,
            read.body,
            facts.namespace,
            `${server.kind} ${server.name}'s managed route`,
          )
        : undefined;
    if (refused) return { id: 'gateway', title, ...refused };
    found.push(`${controller.namespace}/${controller.name}`);
  }
  return {
    id: 'gateway',
    title,
    status: 'pass',
    message: `Gateway ${found.join(', ')} exists`,
  };
}

/**
 * The controller the routing's routes need does not serve the Gateway's class (profile
 * `gateway_class:`; aigateway: Envoy Gateway, whose GatewayClass controllerName is
 * gateway.envoyproxy.io/gatewayclass-controller unless its config's gateway.controllerName names
 * another, envoyproxy/gateway@d32f2829 api/v1alpha1/envoygateway_types.go GatewayControllerName). Another implementation would
 * take the AIGatewayRoute's HTTPRoute but not its Envoy Gateway Backend, and no Envoy AI Gateway
 * filter would run. A class that does not exist: no controller serves the Gateway at all.
 */
function notServedBy(
  facts: TargetFacts,
  gateway: Record<string, any>,
  g: { namespace: string; name: string; route: string },
): Pick<PreflightCheck, 'status' | 'message' | 'fix'> | undefined {
  const need = facts.gatewayClass;
  const className = gateway?.spec?.gatewayClassName;
  if (!need || typeof className !== 'string' || className === '')
    return undefined;
  const where = `Gateway ${g.namespace}/${g.name}`;
  const expected = expectedControllerName(facts, need);
  const elsewhere = `or set gateway_name/gateway_namespace in the runtime's plumbing to a Gateway of a class ${need.controller} serves (controllerName ${expected.name})`;
  const read = facts.reads.get(gatewayClassPath(className)) ?? missing;
  if (!read.ok) {
    const why = unreadable(
      read,
      facts.cluster,
      'get',
      'gatewayclasses.gateway.networking.k8s.io',
    );
    return {
      status: 'unknown',
      message: `${why.message}, so whether ${need.controller} serves ${where} (class ${className}) is not known`,
      fix: `${why.fix}; or check by hand that GatewayClass ${className} has controllerName ${expected.name}`,
    };
  }
  if (read.body === null)
    return {
      status: 'fail',
      message: `${where} is of GatewayClass ${className}, which cluster ${facts.cluster} does not have: no controller serves the Gateway, so ${g.route} would never be accepted and clients could not reach the model`,
      fix: `create GatewayClass ${className} with controllerName ${expected.name} (${need.controller}), ${elsewhere}`,
    };
  const actual = read.body?.spec?.controllerName;
  if (actual === expected.name) return undefined;
  return {
    status: 'fail',
    message: `${where} is of GatewayClass ${className}, served by controller ${actual}, not by ${
      need.controller
    } (${expected.name}${
      expected.from ? `, as ${expected.from} names it` : ''
    }): routing ${need.routing}'s ${g.route} needs ${
      need.controller
    }, and another controller would not serve its Backend`,
    fix: `attach the routes to a Gateway of ${need.controller}: ${elsewhere}`,
  };
}

/** The controllerName the routing's controller serves: its config's, when it names one. */
function expectedControllerName(
  facts: TargetFacts,
  need: NonNullable<TargetFacts['gatewayClass']>,
): { name: string; from?: string } {
  const { configMap, format } = need;
  if (!configMap || !format) return { name: need.controllerName };
  const read = facts.reads.get(
    configMapPath(configMap.namespace, configMap.name),
  );
  const parsed =
    read?.ok && read.body
      ? parsedConfigKey(read.body, configMap.key, format)
      : undefined;
  const named =
    parsed && 'config' in parsed
      ? readPath(parsed.config, configMap.field.split('.'))
      : undefined;
  return typeof named === 'string' && named !== ''
    ? {
        name: named,
        from: `${configMap.field} in ${configMap.key} of ConfigMap ${configMap.namespace}/${configMap.name}`,
      }
    : { name: need.controllerName };
}

/**
 * A fail when no listener of the Gateway admits routes from the route's namespace (Gateway API's
 * allowedRoutes; `gatewayListeners.ts`), else undefined.
 */
function notAdmitted(
  facts: TargetFacts,
  gateway: Record<string, any>,
  routeNamespace: string,
  route: string,
): { status: 'fail'; message: string; fix: string } | undefined {
  const nsRead = facts.reads.get(namespacePath(routeNamespace));
  // Unknown when the read failed (the namespace check says why); none yet for a new namespace.
  const labels = nsRead?.ok ? nsRead.body?.metadata?.labels ?? {} : undefined;
  const admission = admitsRoutesFrom(gateway, routeNamespace, labels);
  if (!admission || admission.admitted) return undefined;
  const where = `${gateway.metadata?.namespace}/${gateway.metadata?.name}`;
  return {
    status: 'fail',
    message: `${route} in namespace ${routeNamespace} attaches to Gateway ${where}, whose listeners do not admit routes from that namespace (${admission.listeners.join(
      '; ',
    )}): the Gateway would not accept the route (NotAllowedByListeners), and clients could not reach the model`,
    fix: `let a listener of Gateway ${where} admit routes from namespace ${routeNamespace} (allowedRoutes.namespaces.from: All, or a Selector matching it), or deploy to namespace ${gateway.metadata?.namespace}`,
  };
}

/** What is wrong with the controller's Gateway, or undefined when it exists. */
function controllerGatewayProblem(
  facts: TargetFacts,
  spec: ControllerGateway,
  gateway: ReturnType<typeof controllerGatewayName>,
): Pick<PreflightCheck, 'status' | 'message' | 'fix'> | undefined {
  const server = facts.objects[facts.objects.length - 1];
  const route = `${server.kind} ${server.name}'s managed route`;
  const where = `${gateway.namespace}/${gateway.name}`;
  const { configMap } = spec;
  const config = `${configMap.key}.${configMap.field} of ConfigMap ${configMap.namespace}/${configMap.name}`;
  const read =
    facts.reads.get(gatewayPath(gateway.namespace, gateway.name)) ?? missing;
  if (!read.ok)
    return {
      status: 'unknown',
      ...unreadable(
        read,
        facts.cluster,
        'get',
        'gateways.gateway.networking.k8s.io',
      ),
    };
  if (read.body !== null) return undefined;
  const consequence =
    'the route would never be accepted, and the model would never be Ready';
  const elsewhere = `or set routing in the runtime's plumbing to one whose routes model-manager renders (e.g. aigateway)`;
  if (gateway.config === 'named' || gateway.config === 'silent')
    return {
      status: 'fail',
      message: `${route} attaches to Gateway ${where} (${
        gateway.config === 'named'
          ? config
          : `the default: ${config} names none`
      }), which cluster ${
        facts.cluster
      } does not have (${GATEWAY_API_VERSION}): ${consequence}`,
      fix: `create the Gateway ${where}, set ${config} to the cluster's Gateway, ${elsewhere}`,
    };
  const cannot = gateway.config;
  if (cannot.ok)
    // The config is not there: the controller may run elsewhere, with another config.
    return {
      status: 'warn',
      message: `${route} attaches to the Gateway its controller's config names; ConfigMap ${configMap.namespace}/${configMap.name} is not on cluster ${facts.cluster}, and its default Gateway ${where} is not either: if the controller uses it, ${consequence}`,
      fix: `create the Gateway ${where}, or check which Gateway the controller's config names and that it exists, ${elsewhere}`,
    };
  const why = unreadable(cannot, facts.cluster, 'get', 'configmaps');
  return {
    status: 'unknown',
    message: `${why.message}, so which Gateway ${route} attaches to is not known; its default Gateway ${where} is not on the cluster`,
    fix: `${why.fix}; or check ${config} by hand and that its Gateway exists`,
  };
}
