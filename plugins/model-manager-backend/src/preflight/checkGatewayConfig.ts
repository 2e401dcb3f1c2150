/** The check that the controller serving the routes' objects is configured to accept them. */
import {
  readPath,
  type GatewayConfigRequirement,
  type PreflightCheck,
} from '@model-manager/plugin-model-manager-common';
import { parse as parseYaml } from 'yaml';
import { configMapPath } from './paths';
import { unreadable } from './readText';
import type { Read, TargetFacts } from './types';
import { worstOutcome, type Outcome } from './worstOutcome';

const missing: Read = { ok: false, message: 'not read' };

const TITLE = "The gateway's controller accepts the objects the routes use";

type ParsedConfig = { config: unknown } | { error: string };

/**
 * A ConfigMap key's text as its controller reads it. YAML: as sigs.k8s.io/yaml does (Envoy
 * Gateway's config decoder, envoyproxy/gateway internal/envoygateway/config/decoder.go), through
 * go-yaml v2, which reads YAML 1.1 (`yes` and `on` are true). JSON: as encoding/json does.
 */
function parseConfig(
  text: string,
  format: GatewayConfigRequirement['format'],
): ParsedConfig {
  try {
    return {
      config:
        format === 'json'
          ? JSON.parse(text)
          : parseYaml(text, { version: '1.1' }),
    };
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0] };
  }
}

/** The keys parsed of each ConfigMap as read, for as long as the read is held. */
const parsedKeys = new WeakMap<object, Map<string, ParsedConfig>>();

/**
 * A key of a ConfigMap as read, parsed once per read: a preflight's checks share its reads, so
 * the gateway-config check and the GatewayClass's expected controllerName parse Envoy Gateway's
 * config once. Undefined when the key is not there.
 */
export function parsedConfigKey(
  configMap: Record<string, any>,
  key: string,
  format: GatewayConfigRequirement['format'],
): ParsedConfig | undefined {
  const text = configMap.data?.[key];
  if (typeof text !== 'string') return undefined;
  let parsed = parsedKeys.get(configMap);
  if (!parsed) parsedKeys.set(configMap, (parsed = new Map()));
  const id = `${format}:${key}`;
  let result = parsed.get(id);
  if (!result) parsed.set(id, (result = parseConfig(text, format)));
  return result;
}

const shown = (v: unknown) =>
  typeof v === 'string' ? `"${v}" (a string)` : JSON.stringify(v);

/** One requirement against the ConfigMap as read. */
function outcomeOf(
  need: GatewayConfigRequirement & { routing: string },
  read: Read,
  facts: TargetFacts,
): Outcome {
  const { configMap, controller } = need;
  const where = `${configMap.key} of ConfigMap ${configMap.namespace}/${configMap.name}`;
  const wanted = need.mustBeSet
    ? `${configMap.field} set`
    : `${configMap.field}: ${JSON.stringify(need.mustBe)}`;
  const set = `set ${need.mustBeSet ? configMap.field : wanted} in ${where}${
    need.how ? ` (${need.how})` : ''
  }`;
  if (!read.ok) {
    const why = unreadable(read, facts.cluster, 'get', 'configmaps');
    return {
      status: 'unknown',
      message: `${why.message}, so whether ${controller} accepts ${need.neededFor} (${wanted} in ${where}) is not known`,
      fix: `${why.fix}; or check ${where} by hand: it must have ${wanted}`,
    };
  }
  if (read.body === null)
    return {
      status: 'warn',
      message: `ConfigMap ${configMap.namespace}/${configMap.name} is not on cluster ${facts.cluster}, so whether ${controller} accepts ${need.neededFor} (${wanted}) is not known: ${controller} may not be installed, or runs in another namespace`,
      fix: `check that ${controller}'s config has ${wanted} where it runs (routing ${need.routing} needs it); or ${set}`,
    };
  const parsed = parsedConfigKey(read.body, configMap.key, need.format) ?? {
    config: {},
  };
  if ('error' in parsed)
    return {
      status: 'warn',
      message: `${where} on cluster ${
        facts.cluster
      } could not be read as ${need.format.toUpperCase()} (${
        parsed.error
      }), so whether ${controller} accepts ${
        need.neededFor
      } (${wanted}) is not known`,
      fix: `check ${where} by hand: it must have ${wanted}`,
    };
  // Undefined: the field is not set (a YAML or JSON value is never undefined).
  const found = readPath(parsed.config, configMap.field.split('.'));
  if (need.mustBeSet) return setOutcome(need, found, where, facts, set);
  const absent = found === undefined;
  const value = absent ? need.unset : found;
  if (value === need.mustBe)
    return {
      status: 'pass',
      message: `${controller} accepts ${
        need.neededFor
      }: ${where} has ${wanted}${
        absent ? ` (not set: ${controller}'s default)` : ''
      }`,
    };
  const is = !absent
    ? `is ${shown(value)}`
    : need.unset === undefined
    ? 'is not set'
    : `is not set (${controller}'s default: ${shown(need.unset)})`;
  return {
    status: 'fail',
    message: `${controller} on cluster ${facts.cluster} would not accept ${
      need.neededFor
    }, which routing ${need.routing} renders: ${
      configMap.field
    } in ${where} ${is}, not ${JSON.stringify(
      need.mustBe,
    )}; clients could not reach the model through the gateway`,
    fix: `${set}; or set routing to another in the runtime's plumbing`,
  };
}

/**
 * A field that must have a value, any value. Go reads a YAML `~`, `null` or an absent field alike
 * (a nil pointer), and an empty string or mapping names nothing: Envoy Gateway runs without an
 * extension server when `extensionManager` is nil and refuses to start with one that names no
 * hooks or target (envoyproxy/gateway@d32f28294245e454d20f81d323d626a90e660c1e
 * api/v1alpha1/validation/envoygateway_validate.go validateEnvoyGatewayExtensionManager).
 */
function setOutcome(
  need: GatewayConfigRequirement & { routing: string },
  found: unknown,
  where: string,
  facts: TargetFacts,
  set: string,
): Outcome {
  const { configMap, controller } = need;
  const empty =
    found === '' ||
    (typeof found === 'object' &&
      found !== null &&
      Object.keys(found).length === 0);
  if (found !== undefined && found !== null && !empty)
    return {
      status: 'pass',
      message: `${controller} is set up for ${need.neededFor}: ${where} sets ${
        configMap.field
      }${typeof found === 'object' ? '' : `: ${JSON.stringify(found)}`}`,
    };
  const is =
    found === undefined
      ? 'is not set'
      : `is ${found === null ? 'null' : 'empty'}`;
  return {
    status: 'fail',
    message: `${controller} on cluster ${facts.cluster} is not set up for ${need.neededFor}, which routing ${need.routing} needs: ${configMap.field} in ${where} ${is}; clients could not reach the model through the gateway`,
    fix: `${set}; or set routing to another in the runtime's plumbing`,
  };
}

/**
 * 9. The controller that serves the routes' objects accepts them, as its own config says (profile
 * `gateway_config:`; aigateway: Envoy Gateway takes a `Backend` only with
 * `extensionApis.enableBackend: true`, envoyproxy/gateway internal/gatewayapi/backend.go
 * ProcessBackends: "The Backend was not accepted since Backend is not enabled in Envoy Gateway
 * Config"). A ConfigMap not found is a `warn`: the controller may run in another namespace. One
 * check for all of a routing's requirements, with the worst outcome.
 */
export function checkGatewayConfig(
  facts: TargetFacts,
): PreflightCheck | undefined {
  const needs = facts.gatewayConfig ?? [];
  if (needs.length === 0) return undefined;
  const outcomes = needs.map(need =>
    outcomeOf(
      need,
      facts.reads.get(
        configMapPath(need.configMap.namespace, need.configMap.name),
      ) ?? missing,
      facts,
    ),
  );
  return { id: 'gateway-config', title: TITLE, ...worstOutcome(outcomes) };
}
