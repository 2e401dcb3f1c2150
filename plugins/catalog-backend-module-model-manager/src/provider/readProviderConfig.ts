import path from 'node:path';
import { makeValidator, parseEntityRef } from '@backstage/catalog-model';
import type { Config } from '@backstage/config';
import { DEFAULT_LIFECYCLE, DEFAULT_OWNER } from './constants';
import type { EntityOptions } from './types';

/**
 * Reads `catalog.providers.modelManager.*` (defaultOwner, defaultLifecycle, defaultSystem, apiEntities), the
 * clusters' `modelManager.kubernetes.clusters.<name>.gatewayBaseUrl` and
 * `modelManager.modelsFile` (resolved like the model catalog service does: against the backend's
 * working directory). Throws an Error naming the key to fix.
 */
export function readProviderConfig(config: Config): EntityOptions {
  const modelsFile = config.getOptionalString('modelManager.modelsFile');
  if (!modelsFile) {
    throw new Error(
      'model-manager catalog module: set modelManager.modelsFile in app-config.yaml to the path of models.yaml (relative to the backend working directory)',
    );
  }
  const provider = config.getOptionalConfig('catalog.providers.modelManager');
  const defaultOwner =
    provider?.getOptionalString('defaultOwner') ?? DEFAULT_OWNER;
  const problem = ownerProblem(defaultOwner);
  if (problem) {
    throw new Error(
      `catalog.providers.modelManager.defaultOwner: '${defaultOwner}' is not an entity reference (${problem}); use e.g. group:default/ml-platform`,
    );
  }
  const defaultLifecycle =
    provider?.getOptionalString('defaultLifecycle') ?? DEFAULT_LIFECYCLE;
  if (defaultLifecycle.trim() === '') {
    throw new Error(
      'catalog.providers.modelManager.defaultLifecycle: must not be empty; use e.g. production',
    );
  }
  return {
    modelsFile: path.resolve(modelsFile),
    defaultOwner,
    defaultLifecycle,
    defaultSystem: provider?.getOptionalString('defaultSystem'),
    apiEntities: provider?.getOptionalBoolean('apiEntities') ?? true,
    gateways: readGateways(config),
  };
}

/** `modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`, in config order; throws naming a key that is not an http(s) URL. */
function readGateways(config: Config): EntityOptions['gateways'] {
  const clusters = config.getOptionalConfig('modelManager.kubernetes.clusters');
  const gateways: EntityOptions['gateways'] = [];
  for (const cluster of clusters?.keys() ?? []) {
    const baseUrl = clusters!
      .getOptionalConfig(cluster)
      ?.getOptionalString('gatewayBaseUrl');
    if (baseUrl === undefined) continue;
    if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) {
      throw new Error(
        `modelManager.kubernetes.clusters.${cluster}.gatewayBaseUrl: '${baseUrl}' is not an http(s) URL; set the base URL clients reach the cluster's gateway at, e.g. https://ai-gateway.example.com`,
      );
    }
    gateways.push({ cluster, baseUrl: baseUrl.replace(/\/+$/, '') });
  }
  return gateways;
}

/** Why `ref` is not a valid owner reference, or undefined when it is. */
function ownerProblem(ref: string): string | undefined {
  let parsed;
  try {
    parsed = parseEntityRef(ref, {
      defaultKind: 'group',
      defaultNamespace: 'default',
    });
  } catch (e) {
    return (e as Error).message;
  }
  const validator = makeValidator();
  if (!validator.isValidKind(parsed.kind))
    return `invalid kind '${parsed.kind}'`;
  if (!validator.isValidNamespace(parsed.namespace))
    return `invalid namespace '${parsed.namespace}'`;
  if (!validator.isValidEntityName(parsed.name))
    return `invalid name '${parsed.name}'`;
  return undefined;
}
