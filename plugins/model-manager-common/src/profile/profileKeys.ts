import { ENDPOINT_RULE_KEYS } from './endpoints';
import { engineProfileSchema } from './engineProfileSchema';
import { PLUMBING_DECLARATION_KEYS } from './plumbing';

/** The keys allowed at a path of a profile, for "did you mean" hints. */
export function knownProfileKeys(
  path: ReadonlyArray<string | number>,
): readonly string[] {
  const shape = engineProfileSchema.shape;
  if (path.length === 0) return Object.keys(shape);
  if (path[0] === 'objects' && path.length === 2)
    return ['template', 'serving_runtime', 'apply', 'progress'];
  if (path[0] === 'kv_cache' && path.length === 1)
    return ['env', 'unit', 'max_share_of_memory', 'no_generation'];
  if (path[0] === 'weights' && path.length === 1)
    return Object.keys(shape.weights.unwrap().shape);
  if (path[0] === 'api' && path.length === 1)
    return ['operations', 'image_input'];
  if (path[0] === 'flag_kinds' && path.length === 1)
    return ['boolean', 'store_true', 'value'];
  if (path[0] === 'status' && path.length === 1)
    return ['conditions', 'explain', 'image_path', 'refusals'];
  if (path[0] === 'status' && path[1] === 'refusals' && path.length === 3)
    return [
      'kind',
      'condition',
      'status',
      'made_from',
      'api_version',
      'per_parent',
    ];
  if (path[0] === 'diagnosis' && path.length === 2)
    return ['id', 'where', 'match', 'meaning', 'fix'];
  if (path[0] === 'plumbing' && path.length === 2)
    return PLUMBING_DECLARATION_KEYS;
  if (path[0] === 'endpoints' && path.length === 3) return ENDPOINT_RULE_KEYS;
  if (path[0] === 'controller_gateway' && path.length === 2)
    return ['config_map', 'default'];
  if (path[0] === 'controller_gateway' && path.length === 3)
    return ['namespace', 'name', 'key', 'field'];
  if (path[0] === 'controller_tls' && path.length === 2) return ['config_map'];
  if (path[0] === 'controller_kinds' && path.length === 3)
    return ['api_version', 'kind'];
  if (path[0] === 'controller_tls' && path.length === 3)
    return ['namespace', 'name', 'key', 'field'];
  if (path[0] === 'gateway_config' && path.length === 3)
    return [
      'controller',
      'config_map',
      'format',
      'must_be',
      'must_be_set',
      'unset',
      'needed_for',
      'how',
    ];
  if (path[0] === 'gateway_config' && path.length === 4)
    return ['namespace', 'name', 'key', 'field'];
  if (path[0] === 'gateway_class' && path.length === 2)
    return ['controller', 'controller_name', 'config_map', 'format'];
  if (path[0] === 'gateway_class' && path.length === 3)
    return ['namespace', 'name', 'key', 'field'];
  if (path[0] === 'name_suffixes' && path.length === 2)
    return ['suffix', 'object'];
  return [];
}
