import type { Signature } from '../diagnosis/signatures';
import type { ProgressReaderName } from '../progress/progressReaders';
import type { EndpointRule } from '../status/selectEndpoint';
import type { PlumbingDeclaration } from './plumbing';

/**
 * How a model's status is read from its live model server object (the profile's last object):
 * the KServe conditions that explain a Ready that is not True, in order, what each means in
 * words, and where the serving image is.
 */
export interface StatusReading {
  conditions: readonly string[];
  explain: Readonly<Record<string, string>>;
  /** Keys, or `{ name }` to pick the list item with that name. */
  imagePath: ReadonlyArray<string | { name: string }>;
  /**
   * The conditions by which the controllers of the routing's own objects refuse them (Envoy
   * Gateway's Backend: Accepted False): a model whose route object is refused is not Ready to its
   * clients, whatever KServe says. `status` absent: the condition's presence is the refusal.
   */
  refusals?: ReadonlyArray<RefusalRule>;
}

/** One way a controller refuses a route object: see {@link StatusReading.refusals}. */
export interface RefusalRule {
  kind: string;
  condition: string;
  status?: 'True' | 'False' | 'Unknown';
  /**
   * The object is not rendered: a controller makes it from the model's object of this kind, with
   * the same name and namespace (Envoy AI Gateway's HTTPRoute from the AIGatewayRoute).
   */
  madeFrom?: string;
  /** The made object's apiVersion (with `madeFrom`), to read it. */
  apiVersion?: string;
  /**
   * The condition is per parent, in `status.parents[].conditions` (Gateway API route status: one
   * entry per Gateway, in that Gateway's controller's words), not in `status.conditions`.
   */
  perParent?: boolean;
}

/** How an engine's parser reads a flag: see {@link EngineProfile.flagKinds}. */
export type FlagKind = 'boolean' | 'store_true' | 'value';

/** One object an engine renders for a model, in apply order. */
export interface ProfileObject {
  /** A template, by its path under runtimes/ (e.g. `templates/inference-service.yaml`). */
  template?: string;
  /** The manifest named by the runtime's plumbing `serving_runtime_manifest`, copied as it is. */
  servingRuntime?: boolean;
  /** `create-if-absent`: shared by the models of a namespace or cluster, never changed or deleted. */
  apply: 'apply' | 'create-if-absent' | 'recreate-when-immutable';
  /**
   * This object reports the model's preparation (e.g. the weights download Job), read by the
   * named reader (`PROGRESS_READERS`). At most one object of a profile says so.
   */
  progress?: ProgressReaderName;
}

/**
 * What differs between serving engines, read from `runtimes/<name>/profile.yaml` (see
 * engineProfileSchema.ts for the YAML keys). The code reads this instead of testing a kind or a
 * runtime name.
 */
/**
 * Where an engine controller's own config says something: a JSON `field` of the `key` of a
 * ConfigMap (KServe's inferenceservice-config keeps each section as JSON text).
 * @public
 */
export interface ControllerConfigField {
  namespace: string;
  name: string;
  key: string;
  field: string;
}

/**
 * The Gateway an engine's controller attaches a model's route to by itself (KServe's managed
 * HTTPRoute of an LLMInferenceService), named in the controller's own config: a JSON `field` of
 * the `key` of a ConfigMap, `namespace/name` or `name` (then in the ConfigMap's namespace);
 * `default` when the config does not say. Preflight checks that it exists.
 * @public
 */
export interface ControllerGateway {
  configMap: ControllerConfigField;
  default: { namespace: string; name: string };
}

/**
 * A switch in an engine controller's own config that makes it serve a model's workload over
 * HTTPS (KServe's `ingress.enableLLMInferenceServiceTLS`): a JSON boolean `field` of the `key` of
 * a ConfigMap, off when the config does not say. The routes of the routing it is declared for
 * send plain HTTP, so preflight fails while it is on.
 * @public
 */
export interface ControllerTls {
  configMap: ControllerConfigField;
}

/**
 * What the config of the controller that serves a routing's objects must say for it to accept
 * them (Envoy Gateway's `extensionApis.enableBackend: true` for a `Backend`): `field`, a dot path,
 * of the `key` of a ConfigMap, written as JSON or YAML; `unset` is what the controller takes when
 * the config does not say (absent: it is not set). Preflight fails while it is not `mustBe`.
 * @public
 */
export interface GatewayConfigRequirement {
  /** The controller whose config it is, for messages (e.g. `Envoy Gateway`). */
  controller: string;
  /** Where the config is; `field` is a dot path into it (e.g. `extensionApis.enableBackend`). */
  configMap: ControllerConfigField;
  /** How the ConfigMap key is written (YAML is read as YAML 1.1, as sigs.k8s.io/yaml does). */
  format: 'json' | 'yaml';
  /** The value the field must have (absent with `mustBeSet`). */
  mustBe?: boolean | number | string;
  /**
   * The field must have a value, any value (not null, not an empty string): e.g. Envoy
   * Gateway's `extensionManager.service.fqdn.hostname`, where it calls Envoy AI Gateway's
   * extension server. Absent with `mustBe`.
   */
  mustBeSet?: true;
  /** What the controller takes when the config does not set the field (with `mustBe` only). */
  unset?: boolean | number | string;
  /** What the controller accepts only then, for messages (e.g. `the model's Backend`). */
  neededFor: string;
  /** How to set it, for the fix (e.g. the Helm value). */
  how?: string;
}

/**
 * The controller that must serve the class of the Gateway a routing's rendered routes attach to
 * (Envoy Gateway for aigateway): the GatewayClass's `spec.controllerName` must be
 * `controllerName`, or what the controller's config names at `configMap.field` when it does.
 */
export interface GatewayClassRequirement {
  /** The controller, for messages (e.g. `Envoy Gateway`). */
  controller: string;
  /** The controllerName it serves when its config names none. */
  controllerName: string;
  /** Where its config may name another (e.g. Envoy Gateway's `gateway.controllerName`). */
  configMap?: ControllerConfigField;
  /** How that ConfigMap key is written (with `configMap`). */
  format?: 'json' | 'yaml';
}

export interface EngineProfile {
  /** The profile file, for messages. */
  file: string;
  /** Human name used in messages. */
  engine: string;
  /** The runtime must have `versions:` (true) or must not (false). */
  versioned: boolean;
  /** What a model renders, in apply order (before the routing's objects). */
  objects: readonly ProfileObject[];
  /** Route templates per plumbing `routing` value, in apply order. */
  routing: Readonly<Record<string, readonly string[]>>;
  /**
   * Placeholder values per `routing` value (profile `routing_values:`): each placeholder named
   * there takes the model's routing's value, and is absent (its key removed) under the others.
   */
  routingValues: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Per `routing` value, the Gateway the engine's controller attaches the model's route to (profile `controller_gateway:`). */
  controllerGateway: Readonly<Record<string, ControllerGateway>>;
  /**
   * Per `routing` value, the kinds the engine's controller creates for a model by itself (profile
   * `controller_kinds:`; vLLM on epp: KServe's InferencePool and HTTPRoute): preflight checks the
   * cluster serves them.
   */
  controllerKinds: Readonly<
    Record<string, ReadonlyArray<{ apiVersion: string; kind: string }>>
  >;
  /** Per `routing` value, the controller's switch that would make its workload HTTPS (profile `controller_tls:`). */
  controllerTls: Readonly<Record<string, ControllerTls>>;
  /**
   * Per `routing` value, the controller that must serve the class of the Gateway its rendered
   * routes attach to (profile `gateway_class:`): preflight checks it.
   */
  gatewayClass: Readonly<Record<string, GatewayClassRequirement>>;
  /**
   * Per `routing` value, what the config of the controller serving its objects must say (profile
   * `gateway_config:`; aigateway: Envoy Gateway's Backend API on): preflight checks it.
   */
  gatewayConfig: Readonly<Record<string, readonly GatewayConfigRequirement[]>>;
  /** Where clients call a model, per `routing` value: its URL's sources, in order (profile `endpoints:`). */
  endpoints: Readonly<Record<string, readonly EndpointRule[]>>;
  /** The env var the engine sizes its KV cache from (whole GiB); absent: kv_cache_gb does not apply. */
  kvCacheEnv?: string;
  /** The largest share of the pod memory limit the KV cache may take. */
  kvCacheMaxShareOfMemory?: number;
  /** Categories that do no generation: no layer may set the KV cache for their models. */
  kvCacheNoGeneration: readonly string[];
  /** Flags that crash dense models (canonical spelling); they need `moe: true`. */
  moeOnlyFlags: readonly string[];
  /** Short option -> its long flag, as the engine's argument parser declares them. */
  flagAliases: Readonly<Record<string, string>>;
  /** The engine reads `_` and `-` alike in a long flag's name (up to the first `.`). */
  flagUnderscoreIsDash: boolean;
  /**
   * The engine's parser reads `--flag=value` as one item (argparse does). When false, an args item
   * with a value is refused (the parser would take `--flag=value` for an unknown flag).
   */
  flagEqualsValue: boolean;
  /**
   * How the engine's parser reads each long flag it declares (canonical spelling): `boolean`
   * (argparse BooleanOptionalAction: `--x` or `--no-x`, no value), `store_true` (`--x` only, no
   * value), `value` (`--x=value`). A flag not listed is passed as written.
   */
  flagKinds: Readonly<Record<string, FlagKind>>;
  /**
   * The engine's parser reads an unambiguous prefix of a long flag as that flag (argparse's
   * `allow_abbrev`, on unless the parser turns it off).
   */
  flagAbbreviations: boolean;
  /** Where to set a value instead, for that refusal (e.g. the engine's env variables). */
  argsHint?: string;
  /** The engine converts weights at download (so weight_format applies). */
  convertsWeights: boolean;
  /** What converts weights, named in messages (e.g. `ovms --pull`). */
  converter?: string;
  /** Model repos already in the engine's format (matched case-insensitively); weight_format is refused for them. */
  irRepoPrefix?: string;
  /** That format's name, e.g. `OpenVINO IR`. */
  irFormat?: string;
  /** What the engine's download does with such a repo and weight_format, quoted in the refusal. */
  irRepoRefusal?: string;
  /** The download Job's args (`pull_args`): items with placeholders; an item whose placeholder has no value is left out. */
  downloadArgs: readonly string[];
  /** The `weight_format` values the converter accepts (empty: the engine converts no weights). */
  weightFormats: readonly string[];
  /**
   * Where the download puts a model's weights, relative to the weights claim (the `weights_path`
   * placeholder), with the placeholders of `downloadArgs`.
   */
  weightsPath?: string;
  /** The download task per category (`${task}` in downloadArgs). */
  downloadTasks: Readonly<Record<string, string>>;
  /** The default download task of a category not in downloadTasks. */
  defaultDownloadTask?: string;
  /**
   * The env variables (as the model's layers set them, values or Secret references) that the
   * weights download reads too, e.g. HF_TOKEN: copied to the download Job's container
   * (`download_env`), or to `downloadInitContainer`.
   */
  downloadEnv: readonly string[];
  /**
   * The init container the controller adds to download the weights (KServe's
   * `storage-initializer`); the `download_init_containers` placeholder names it with the download
   * env, for the controller to merge into its own.
   */
  downloadInitContainer?: string;
  /** Names derived from the model's name besides its own (checked as Kubernetes names). */
  nameSuffixes: ReadonlyArray<{ suffix: string; object: string }>;
  /** The OpenAI-compatible operations per category (chat, completions, embeddings, rerank, score). */
  apiOperations: Readonly<Record<string, readonly string[]>>;
  /** Categories whose chat messages may carry images (OpenAI `image_url` content parts). */
  apiImageInput: readonly string[];
  /** How the model's status is read from its model server object. */
  status: StatusReading;
  /**
   * The engine's plumbing keys (profile `plumbing:`): each one's type, default and whether it is
   * required. Each is a placeholder of the engine's templates; any other key set for it is reported.
   */
  plumbing: Readonly<Record<string, PlumbingDeclaration>>;
  /** The names of `plumbing`, in the profile's order. */
  plumbingKeys: readonly string[];
  /** Plumbing keys the engine's objects cannot do without (`required: true`). */
  requiredPlumbing: readonly string[];
  /** Known messages of the engine (profile `diagnosis:`), matched by `diagnose`. */
  signatures: readonly Signature[];
}
