import type { Origin } from '../catalog/types';
import { MAX_KV_CACHE_GB, type EngineProfile } from '../constants';
import { formatEnvValue, type EnvValue } from '../schema/secretRef';
import { parseQuantity } from './parseQuantity';
import type { RemovedEnvVar, Replaced, ResolvedEnvVar, Traced } from './types';

const GIB = 2 ** 30;
const WHOLE_GIB = /^[1-9][0-9]*$/;

/**
 * Checks the KV cache the engine will allocate, after layering (so an override of either side
 * counts):
 *
 * - every layer that set the KV-cache variable set a whole number of GiB from 1 to
 *   {@link MAX_KV_CACHE_GB} (vLLM reads VLLM_CPU_KVCACHE_SPACE with `int()`, vllm/envs.py), also
 *   when a later layer removed it (`removedEnv`): a value is written wrong wherever it is set;
 * - the KV cache fits the pod: at most `kvCacheMaxShareOfMemory` of the memory limit, so the
 *   rest is left for the weights, activations and the runtime. vLLM allocates the whole KV
 *   cache at start; a larger one is OOM-killed before it serves a request.
 */
export function checkKvCache(
  profile: EngineProfile,
  env: readonly ResolvedEnvVar[],
  memory: Traced<string | number>,
  removedEnv: readonly RemovedEnvVar[] = [],
): Array<{ origin: Origin; message: string }> {
  const name = profile.kvCacheEnv;
  if (!name) return [];
  const kv = env.find(e => e.name === name);
  // Every layer that set it, also when a later one removed it (kv_cache_gb: null).
  const layers: ReadonlyArray<Replaced<EnvValue>> = kv
    ? [...kv.overrode, kv]
    : removedEnv.find(e => e.name === name)?.overrode ?? [];
  const problems: Array<{ origin: Origin; message: string }> = [];
  for (const set of layers) {
    const message = set.removed
      ? undefined
      : kvCacheValueProblem(profile, set.value);
    if (message) problems.push({ origin: set.origin, message });
  }
  if (problems.length > 0 || !kv) return problems;

  const share = profile.kvCacheMaxShareOfMemory;
  const memoryBytes = parseQuantity(memory.value);
  if (share === undefined || memoryBytes === undefined) return [];
  const kvGib = Number(kv.value as string);
  if (kvGib * GIB > memoryBytes * share) {
    const maxGib = Math.floor((memoryBytes * share) / GIB);
    const minMemoryGib = Math.ceil(kvGib / share);
    // A request sets the KV cache only as env, and cannot change memory: its fix says so.
    const fix =
      kv.origin.layer === 'override'
        ? `Set ${name} in the request's env to ${
            maxGib > 0 ? `at most ${maxGib}` : 'nothing (remove it)'
          }, or raise the model's memory in models.yaml to at least ${minMemoryGib}Gi`
        : `Lower kv_cache_gb to ${
            maxGib > 0 ? `at most ${maxGib}` : 'null (no KV cache setting)'
          }, or raise memory to at least ${minMemoryGib}Gi`;
    problems.push({
      origin: kv.origin,
      message: `a KV cache of ${kvGib} GiB (${name}) does not fit the memory limit ${
        memory.value
      } (${memory.origin.path}): ${
        profile.engine
      } allocates the whole KV cache at start, and at least ${Math.round(
        (1 - share) * 100,
      )}% of the memory limit must stay free for the weights and the runtime. ${fix}`,
    });
  }
  return problems;
}

/**
 * What is wrong with one layer's value of the KV-cache variable (`VLLM_CPU_KVCACHE_SPACE`), or
 * undefined when the engine reads it: a whole number of GiB from 1 to {@link MAX_KV_CACHE_GB}, not
 * from a Secret (its size could not be checked against the memory limit).
 */
export function kvCacheValueProblem(
  profile: Pick<EngineProfile, 'kvCacheEnv' | 'engine'>,
  value: EnvValue,
): string | undefined {
  const name = profile.kvCacheEnv;
  if (typeof value !== 'string')
    return `${name} sizes the KV cache and is read from a Secret here (${formatEnvValue(
      value,
    )}), so its size cannot be checked against the memory limit; set it with kv_cache_gb instead`;
  if (!WHOLE_GIB.test(value) || Number(value) > MAX_KV_CACHE_GB)
    return `${name} is '${value}', but it must be a whole number of GiB from 1 to ${MAX_KV_CACHE_GB}: ${profile.engine} reads it as an integer and does not start otherwise. Set a whole number (e.g. kv_cache_gb: 8)`;
  return undefined;
}

/**
 * The KV cache of a category that does no generation (profile `kv_cache.no_generation`: vLLM's
 * embed and rerank): the spec omits the variable entirely for them, so every layer that set it
 * and was not removed is refused, each at its own file:line. A shared layer (the runtime's env,
 * a version's env delta) reaches every model of its version, so the fix names the model's own
 * opt-out too.
 */
export function checkKvCacheCategory(
  profile: EngineProfile,
  env: readonly ResolvedEnvVar[],
  model: { name: string; category: string; envPath: string },
): Array<{ origin: Origin; message: string }> {
  const name = profile.kvCacheEnv;
  if (!name || !profile.kvCacheNoGeneration.includes(model.category)) return [];
  const kv = env.find(e => e.name === name);
  if (!kv) return [];
  const sinceRemoval = kv.overrode.slice(
    kv.overrode.map(o => o.removed === true).lastIndexOf(true) + 1,
  );
  return [...sinceRemoval, kv].map(set => {
    const shared =
      set.origin.layer === 'runtime-env' || set.origin.layer === 'version';
    const fix = shared
      ? `set the KV cache with kv_cache_gb on the categories that generate instead of here, or set ${name}: null in ${model.envPath}`
      : `remove it (${
          set.origin.path?.endsWith('kv_cache_gb') ? 'kv_cache_gb' : name
        }) from this layer`;
    return {
      origin: set.origin,
      message: `model ${model.name} is category ${model.category}, which does no generation, so ${profile.engine} gets no ${name} (engine profile ${profile.file}: kv_cache.no_generation; the KV cache sizes generation); this layer sets it to ${set.value}: ${fix}`,
    };
  });
}

/**
 * The KV cache as one traced value: the KV-cache variable as finally set, with every layer that
 * set it (kv_cache_gb or the variable itself), as a number of GiB. kv_cache_gb and the variable
 * are one setting, so `resources.kv_cache_gb` and `env.<variable>` never disagree.
 */
export function kvCacheFromEnv(
  profile: EngineProfile,
  env: readonly ResolvedEnvVar[],
): Traced<number> | undefined {
  const kv = profile.kvCacheEnv
    ? env.find(e => e.name === profile.kvCacheEnv)
    : undefined;
  if (!kv) return undefined;
  return {
    value: Number(kv.value),
    origin: kv.origin,
    overrode: kv.overrode.map(o => ({ ...o, value: Number(o.value) })),
  };
}
