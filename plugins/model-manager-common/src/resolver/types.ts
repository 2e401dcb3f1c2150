import type { Origin } from '../catalog/types';
import type { PlumbingValue } from '../profile/plumbing';
import type { PlumbingReadByCode } from '../schema/modelsFileSchema';
import type { EnvValue, SecretKeyRef } from '../schema/secretRef';

/** What a deploy request may change on top of models.yaml (the CLI's --server-version/--env/--arg). */
export interface ServerOverrides {
  serverVersion?: string;
  /**
   * `null` removes a variable set by an earlier layer. A request may reference a Secret
   * (`{ secretKeyRef: { name, key } }`, the CLI's `--env-secret NAME=secret/key`) but never carry
   * a secret's value: a plain value for a credential-like name or a token-like value is refused.
   */
  env?: Record<string, string | null | SecretKeyRef>;
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

/** An env var; its value is text or a reference to a Secret's key (never the secret's value). */
export interface ResolvedEnvVar extends Traced<EnvValue> {
  name: string;
}

/** A Secret the kubelet pulls the model's images with (`image_pull_secrets`). */
export interface ResolvedPullSecret extends Traced<string> {}

/** A variable an earlier layer set and a later layer removed with `null`. */
export interface RemovedEnvVar {
  name: string;
  /** The layer that removed it. */
  origin: Origin;
  overrode: Array<Replaced<EnvValue>>;
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
  /**
   * Pull secrets of the pods: the runtime's, the version's and the model's `image_pull_secrets`,
   * in that order, each name once (absent in results of older portals).
   */
  imagePullSecrets?: ResolvedPullSecret[];
  args: ResolvedArg[];
  resources: {
    cpu: Traced<string>;
    memory: Traced<string>;
    kvCacheGb?: Traced<number>;
  };
  weightFormat?: Traced<string>;
  /** Settings a layer removed with `null` (env vars are in `removedEnv`). */
  removed?: RemovedSetting[];
  /** The plumbing keys the runtime sets (its engine profile declares them), traced. */
  plumbing: Partial<Record<string, Traced<PlumbingValue>>> & {
    [K in keyof PlumbingReadByCode]?: Traced<string>;
  };
}
