import {
  secretNamesInObjects,
  type ControllerGateway,
  type ControllerTls,
  type ControllerConfigField,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';
import {
  claimPath,
  configMapPath,
  discoveryPath,
  gatewayPath,
  limitRangesPath,
  namespacePath,
  NODES_PATH,
  objectPath,
  quotasPath,
  secretPath,
  STORAGE_CLASSES_PATH,
} from './paths';

import type { Read } from './types';

const GATEWAY_GROUP = 'gateway.networking.k8s.io';

/** The PersistentVolumeClaims the model renders (the OpenVINO weights claim). */
export function renderedClaims(objects: RenderedObject[]): RenderedObject[] {
  return objects.filter(
    o => o.apiVersion === 'v1' && o.kind === 'PersistentVolumeClaim',
  );
}

/** KServe's annotation that picks an InferenceService's deployment mode. */
export const DEPLOYMENT_MODE_ANNOTATION = 'serving.kserve.io/deploymentMode';

/** A rendered KServe InferenceService that asks for a deployment mode, and where it lives. */
export interface RenderedDeploymentMode {
  name: string;
  namespace: string;
  mode: string;
  path: string;
}

/** The rendered InferenceServices that set KServe's deployment-mode annotation. */
export function renderedDeploymentModes(
  objects: RenderedObject[],
  namespace: string,
): RenderedDeploymentMode[] {
  return objects.flatMap(o => {
    const mode = (o.manifest as any)?.metadata?.annotations?.[
      DEPLOYMENT_MODE_ANNOTATION
    ];
    if (
      o.kind !== 'InferenceService' ||
      !o.apiVersion.startsWith('serving.kserve.io/') ||
      typeof mode !== 'string'
    )
      return [];
    const ns = o.namespace ?? namespace;
    return [
      {
        name: o.name,
        namespace: ns,
        mode,
        path: objectPath(o.apiVersion, 'inferenceservices', ns, o.name),
      },
    ];
  });
}

/**
 * The Gateways the rendered routes attach to: `spec.parentRefs[]` of kind Gateway (the default
 * kind) in group gateway.networking.k8s.io (the default group), in the route's namespace unless
 * the ref names one (Gateway API ParentReference defaulting).
 */
export function referencedGateways(objects: RenderedObject[]): Array<{
  namespace: string;
  name: string;
  route: string;
  routeNamespace: string;
}> {
  const seen = new Map<
    string,
    { namespace: string; name: string; route: string; routeNamespace: string }
  >();
  for (const o of objects) {
    const refs = (o.manifest as any)?.spec?.parentRefs;
    if (!Array.isArray(refs)) continue;
    for (const ref of refs) {
      if ((ref?.kind ?? 'Gateway') !== 'Gateway') continue;
      if ((ref?.group ?? GATEWAY_GROUP) !== GATEWAY_GROUP) continue;
      if (typeof ref?.name !== 'string') continue;
      const namespace = ref.namespace ?? o.namespace ?? 'default';
      seen.set(`${namespace}/${ref.name}`, {
        namespace,
        name: ref.name,
        route: `${o.kind} ${o.name}`,
        routeNamespace: o.namespace ?? 'default',
      });
    }
  }
  return [...seen.values()];
}

/**
 * The Gateway the engine's controller attaches the model's route to: the one its config names
 * (the ConfigMap's JSON `field`, `namespace/name` or `name` in the ConfigMap's namespace), else
 * its default. `config` says how the config read: `named`, `silent` (read, naming none), or the
 * read itself when it could not be read or is not there.
 */
export function controllerGatewayName(
  gateway: ControllerGateway,
  reads: Map<string, Read>,
): {
  namespace: string;
  name: string;
  config: 'named' | 'silent' | Read;
} {
  const { configMap } = gateway;
  const read = reads.get(
    configMapPath(configMap.namespace, configMap.name),
  ) ?? {
    ok: false as const,
    message: 'not read',
  };
  if (!read.ok || read.body === null)
    return { ...gateway.default, config: read };
  const named = configMapJsonField(read.body, configMap);
  if (typeof named !== 'string' || named.trim() === '')
    return { ...gateway.default, config: 'silent' };
  const parts = named.trim().split('/');
  return parts.length === 2
    ? { namespace: parts[0], name: parts[1], config: 'named' }
    : { namespace: configMap.namespace, name: parts[0], config: 'named' };
}

/**
 * A field of the JSON a ConfigMap holds under `key` (KServe's inferenceservice-config keeps each
 * section as JSON text); undefined when the ConfigMap is absent, the key or field is not there,
 * or the text is not JSON (the controller could not read it either).
 */
export function configMapJsonField(
  configMap: Record<string, any> | null,
  at: { key: string; field: string },
): unknown {
  if (configMap === null) return undefined;
  try {
    return JSON.parse(String(configMap.data?.[at.key] ?? '{}'))?.[at.field];
  } catch {
    return undefined;
  }
}

/** Every path the checks of a target read (first round; see `PreflightService`). */
export function pathsToRead(
  objects: RenderedObject[],
  namespace: string,
  controllerGateway?: ControllerGateway,
  controllerTls?: ControllerTls,
  controllerKinds: ReadonlyArray<{ apiVersion: string }> = [],
  gatewayConfig: ReadonlyArray<{ configMap: ControllerConfigField }> = [],
  gatewayClass?: { configMap?: ControllerConfigField },
): string[] {
  const paths = new Set<string>([
    namespacePath(namespace),
    quotasPath(namespace),
    limitRangesPath(namespace),
    NODES_PATH,
  ]);
  for (const o of [...objects, ...controllerKinds])
    paths.add(discoveryPath(o.apiVersion));
  for (const name of secretNamesInObjects(objects))
    paths.add(secretPath(namespace, name));
  const claims = renderedClaims(objects);
  for (const c of claims)
    paths.add(claimPath(c.namespace ?? namespace, c.name));
  if (claims.length > 0) paths.add(STORAGE_CLASSES_PATH);
  for (const g of referencedGateways(objects))
    paths.add(gatewayPath(g.namespace, g.name));
  for (const isvc of renderedDeploymentModes(objects, namespace))
    paths.add(isvc.path);
  if (controllerGateway) {
    const { configMap } = controllerGateway;
    paths.add(configMapPath(configMap.namespace, configMap.name));
    // Read with the config, in case it names none or cannot be read: no second round then.
    paths.add(
      gatewayPath(
        controllerGateway.default.namespace,
        controllerGateway.default.name,
      ),
    );
  }
  if (controllerTls) {
    const { configMap } = controllerTls;
    paths.add(configMapPath(configMap.namespace, configMap.name));
  }
  for (const { configMap } of gatewayConfig)
    paths.add(configMapPath(configMap.namespace, configMap.name));
  if (gatewayClass?.configMap)
    paths.add(
      configMapPath(
        gatewayClass.configMap.namespace,
        gatewayClass.configMap.name,
      ),
    );
  return [...paths];
}
