import type { Origin } from '../catalog/types';
import type { PlumbingKey } from '../schema/modelsFileSchema';

/** What a deploy request may change on top of models.yaml (the CLI's --server-version/--env/--arg). */
export interface ServerOverrides {
  serverVersion?: string;
  /** `null` removes a variable set by an earlier layer. */
  env?: Record<string, string | null>;
  args?: string[];
}

/**
 * One earlier value a traced value replaced. `removed`: the layer at `origin` removed `value`
 * with `null` (and a later layer set it again).
 */
export interface Replaced<T> {
  value: T;
  origin: Origin;
  removed?: boolean;
}

/** A value with the layer that set it and, oldest first, the values it replaced. */
export interface Traced<T> {
  value: T;
  origin: Origin;
  overrode: Array<Replaced<T>>;
}

export interface ResolvedEnvVar extends Traced<string> {
  name: string;
}

/** A variable an earlier layer set and a later layer removed with `null`. */
export interface RemovedEnvVar {
  name: string;
  /** The layer that removed it. */
  origin: Origin;
  overrode: Array<Replaced<string>>;
}

/** A setting (`weight_format`, `resources.kv_cache_gb`, ...) a later layer removed with `null`. */
export interface RemovedSetting {
  /** As in explanations: `weight_format`, `resources.kv_cache_gb`. */
  key: string;
  origin: Origin;
  overrode: Array<Replaced<string | number>>;
}

/**
 * One engine flag, e.g. `--max-model-len=8192`. `flag` is the part before `=` as the user wrote
 * it; `key` is the flag as the engine reads it (`--max_model_len` and `--max-model-len` share
 * the key `--max-model-len`, `-ep` has the key `--enable-expert-parallel`).
 */
export interface ResolvedArg extends Traced<string> {
  flag: string;
  key: string;
}

/** What a model would run with, every value traced to the layer that set it. */
export interface ResolvedServer {
  model: string;
  modelId: string;
  category: string;
  moe: boolean;
  runtime: string;
  kind: string;
  /** Absent for flat runtimes (OpenVINO). */
  version?: Traced<string>;
  image: Traced<string>;
  env: ResolvedEnvVar[];
  removedEnv: RemovedEnvVar[];
  args: ResolvedArg[];
  resources: {
    cpu: Traced<string>;
    memory: Traced<string>;
    kvCacheGb?: Traced<number>;
  };
  weightFormat?: Traced<string>;
  /** Settings a layer removed with `null` (env vars are in `removedEnv`). */
  removed?: RemovedSetting[];
  plumbing: Partial<Record<PlumbingKey, Traced<string>>>;
}
