import { InputError, NotFoundError } from '@backstage/errors';
import type { Catalog, Origin } from '../catalog/types';
import { formatProblem } from '../source/problems';
import { resolveModel } from './resolveModel';
import type { ResolvedServer, ServerOverrides } from './types';

export { resolveModel } from './resolveModel';

/**
 * Resolves what a model would run with.
 *
 * Layering rules (runtimes.md), each layer overriding the one before. The layers, their order and
 * the names the CLI and the UI show for them are {@link LAYERS} (layers.ts); every value's origin
 * names one of them.
 *
 * - **Version**: the request's `serverVersion` (`--server-version`), else the model's
 *   `server.server_version`, else the runtime's `default_version`. It must be a key of the
 *   runtime's `versions:`. Flat runtimes (no `versions:`, e.g. OpenVINO) have no version: a
 *   requested one is refused with a message saying so.
 * - **Image**: the selected version's `image`; for a flat runtime its plumbing `image`. A model's
 *   `server.image` replaces either.
 * - **Env**: runtime `env` (common to every pod) + category `env` + the category's
 *   `kv_cache_gb` as the engine's KV-cache variable (`VLLM_CPU_KVCACHE_SPACE`; omitted where no
 *   kv_cache_gb is set) + the version's `env` delta + the model's `server.env` + the model's
 *   `server.resources.kv_cache_gb` (after its own env, so it wins over both) + the request's
 *   `env`. A later layer replaces a variable in place; `null` in any later layer removes an
 *   inherited variable, and a variable set again after a removal keeps that history. Values are
 *   strings (a value YAML reads as a number or boolean is refused at load time: "quote it") or
 *   Secret references,
 *   `NAME: { secretKeyRef: { name: hf-token, key: token } }`, rendered as
 *   `valueFrom.secretKeyRef`; a reference is a value like any other (a later plain value replaces
 *   it, a later reference replaces a plain value, `null` removes it), traced to its layer.
 * - **Credentials are data, never values**: a request may reference a Secret (`--env-secret
 *   NAME=secret/key`, `envSecret=` in a query, `{ secretKeyRef }` in a body) but never carry a
 *   secret's value: a plain value for a credential-like name (`HF_TOKEN`, `*_API_KEY`,
 *   `*_PASSWORD`, ...), a token-shaped value (`hf_...`, `sk-...`, a JWT) or a credential flag
 *   (`--hf-token=...`) is refused before anything else, and the message never repeats it; a
 *   token-shaped value in models.yaml is refused at load the same way. A
 *   Secret's value is never read: only its name and key travel.
 * - **Download env**: the variables the engine profile's `download.env` names (HF_TOKEN,
 *   HF_ENDPOINT), as finally layered, are copied to the weights download (OVMS: the download
 *   Job; vLLM: KServe's storage-initializer).
 * - **Image pull secrets**: the runtime's `image_pull_secrets` + the version's + the model's
 *   `server.image_pull_secrets`; lists add up, each name once at its first position (a later
 *   layer listing it again becomes its origin); no layer removes one. Rendered as the pods'
 *   `imagePullSecrets`.
 * - **Args**: category `args` + the version's `args` delta + the model's `server.args` + the
 *   request's `args`. Each item is one flag (`--flag` or `--flag=value`; not `--flag value`, `-`
 *   or `--`). A flag repeated later replaces the earlier one in place (last wins, first position
 *   kept); flags are compared as the engine's parser reads them (vLLM: `_` is `-`, `-ep` is
 *   `--enable-expert-parallel`, `--no-x` and `--x` of a boolean are one option, so only the
 *   later layer's item is emitted and its origin says which layer won), and the output keeps the
 *   spelling written. Each item is checked against the profile's `flag_kinds`: no value on a
 *   boolean/switch (`--enable-prefix-caching=false`: write `--no-enable-prefix-caching`), a value
 *   on a flag that takes one (`-tp` alone), and no abbreviation of a listed flag where the engine
 *   reads abbreviations (`--max-model-l`: write `--max-model-len`).
 * - **cpu / memory / kv_cache_gb**: the category's `defaults`, replaced by the model's
 *   `server.resources`; `null` there removes the category's value. kv_cache_gb and the KV-cache
 *   variable are one setting traced once: `resources.kvCacheGb` is the variable as finally set
 *   (in the env order above), so the two never disagree. It is a whole number of GiB and must fit
 *   the engine's share of the final memory limit (vLLM: half). For a category that does no
 *   generation (profile `kv_cache.no_generation`: embed, rerank) the variable is omitted: any
 *   layer that sets it is refused, naming that layer (a model opts out of a shared layer's with
 *   `null`).
 * - **weight_format** (engines whose profile has `weights:`, e.g. OVMS): category `defaults.weight_format`,
 *   replaced by the model's `weight_format`; `null` on the model removes the category's. Refused
 *   for repos already in the engine's format (profile `weights.ir_repo_prefix`: `OpenVINO/*`,
 *   matched in any case, as OVMS does).
 * - **Plumbing** (`device`, `kind`, `routing`, ...): runtimes/<name>/values.yaml merged under the
 *   runtime's entry in models.yaml, models.yaml winning on any clash (checked in buildCatalog:
 *   a key that does not apply to the runtime is an error).
 * - MoE-only flags (profile `moe_only_flags`: `--enable-expert-parallel`, ...) from any layer, in any spelling
 *   (a dotted key such as `--eplb-config.window_size=10` included; not `--no-x`, which turns one
 *   off), are refused
 *   unless the model says `moe: true`.
 * - The model's name must be accepted for every object it becomes (MODEL_NAME_OBJECTS and the
 *   profile's `name_suffixes`).
 *
 * What differs between engines is read from the runtime's engine profile
 * (runtimes/<name>/profile.yaml, `CatalogRuntime.profile`); no code tests a kind or engine name.
 *
 * Inputs are never mutated. Every value carries its {@link Origin} and the values it replaced.
 *
 * @throws NotFoundError for an unknown model or server version; InputError for a bad request or
 * a rule violation (the message names the layer's file:line and path, and the fix).
 */
export function resolveServer(
  catalog: Catalog,
  modelName: string,
  overrides: ServerOverrides = {},
  options: { locate?: boolean } = {},
): ResolvedServer {
  const model = Object.prototype.hasOwnProperty.call(catalog.models, modelName)
    ? catalog.models[modelName]
    : undefined;
  if (!model) {
    throw new NotFoundError(
      `unknown model '${modelName}'; models in ${
        catalog.modelsFile
      }: ${Object.keys(catalog.models).slice(0, 20).join(', ')}`,
    );
  }
  const outcome = resolveModel(catalog, model, overrides);
  if ('problems' in outcome) {
    const message = outcome.problems.map(formatProblem).join('\n');
    throw outcome.notFound
      ? new NotFoundError(message)
      : new InputError(message);
  }
  // Positions cost a YAML parse with source tracking; rendering and deploying do not need them.
  if (options.locate !== false)
    forEachOrigin(outcome.server, o => catalog.locate(o));
  return outcome.server;
}

/** Calls `fn` with every origin of a resolved server (values and what they replaced). */
export function forEachOrigin(
  server: ResolvedServer,
  fn: (origin: Origin) => void,
) {
  const traced = (
    t: { origin: Origin; overrode: Array<{ origin: Origin }> } | undefined,
  ) => {
    if (!t) return;
    fn(t.origin);
    for (const o of t.overrode) fn(o.origin);
  };
  traced(server.version);
  traced(server.image);
  traced(server.resources.cpu);
  traced(server.resources.memory);
  traced(server.resources.kvCacheGb);
  traced(server.weightFormat);
  server.env.forEach(traced);
  server.removedEnv.forEach(traced);
  server.imagePullSecrets?.forEach(traced);
  server.removed?.forEach(traced);
  server.args.forEach(traced);
  Object.values(server.plumbing).forEach(traced);
}
