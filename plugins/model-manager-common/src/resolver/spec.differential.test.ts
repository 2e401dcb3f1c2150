/*
 * A differential test of the layering rules, written from the product's text only:
 * the runtimes spec, runtimes.md ("How settings layer", "vLLM", "CPU KV cache", "OpenVINO") and the
 * README's "How settings layer", "Gated and private models" and "Adding a runtime version".
 *
 * `reference` below is an independent implementation of those rules (it does not use the
 * resolver's code); a seeded generator writes valid models.yaml texts and requests, and every case
 * is resolved by both. A case the product refuses with a clear error is skipped and counted.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { buildCatalog } from '../catalog/buildCatalog';
import { dirSources, REPO_ROOT } from '../testUtils/catalogFixtures';
import { resolveServer } from './resolveServer';
import type { ResolvedServer, ServerOverrides, Traced } from './types';
import { Seeded } from '../testUtils/seeded';

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

type SecretRef = { secretKeyRef: { name: string; key: string } };
type EnvValue = string | SecretRef;
type EnvMap = Record<string, EnvValue | null>;

interface GenCategory {
  defaults: { cpu: number | string; memory: string; kv_cache_gb?: number };
  env?: EnvMap;
  args?: string[];
}

interface GenVersion {
  image: string;
  env?: EnvMap;
  args?: string[];
}

interface GenRuntime {
  default_version?: string;
  image?: string;
  env: EnvMap;
  versions?: Record<string, GenVersion>;
  categories: Record<string, GenCategory>;
}

interface GenModel {
  model_id: string;
  category: string;
  moe?: boolean;
  server: {
    runtime: string;
    server_version?: string;
    image?: string;
    env?: EnvMap;
    args?: string[];
    resources?: {
      cpu?: number | string;
      memory?: string;
      kv_cache_gb?: number | null;
    };
  };
}

interface Case {
  models: Record<string, GenModel>;
  runtimes: Record<string, GenRuntime>;
  target: string;
  request: ServerOverrides;
  /** Write runtimes: before models: (so models may merge the runtimes' anchored env). */
  runtimesFirst?: boolean;
}

// ---------------------------------------------------------------------------------------------
// What the spec and README say (the engine profiles and plumbing files are data they point at)
// ---------------------------------------------------------------------------------------------

const readYaml = (rel: string) =>
  YAML.parse(fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8'));

const VLLM_PROFILE = readYaml('runtimes/vllm/profile.yaml');
const OPENVINO_VALUES = readYaml('runtimes/openvino/values.yaml');

/** Spec, "CPU KV cache": the variable set from the category's kv_cache_gb. */
const KV_ENV = 'VLLM_CPU_KVCACHE_SPACE';
/** Spec, "CPU KV cache": embed and rerank do no autoregressive generation. */
const NO_KV_CATEGORIES = new Set(['embed', 'rerank']);

/** README, "Flags are compared as vLLM reads them": short aliases are their long flag. */
const FLAG_ALIASES: Record<string, string> = VLLM_PROFILE.flag_aliases;
/** README ("Adding a runtime", flag_kinds): `--x` / `--no-x` are one option. */
const BOOLEAN_FLAGS = new Set<string>(VLLM_PROFILE.flag_kinds.boolean);
const MOE_FLAGS = new Set<string>(VLLM_PROFILE.moe_only_flags);

/** A Kubernetes memory quantity in bytes (binary Ki..Ei, decimal k..E, or plain bytes). */
function quantityBytes(q: string): number {
  const m = /^([0-9.]+)([KMGTPE]i?|k)?$/.exec(q);
  if (!m) throw new Error(`not a quantity: ${q}`);
  const unit = m[2] ?? '';
  const powers = 'kMGTPE';
  const power = powers.indexOf(unit[0] === 'K' ? 'k' : unit[0]) + 1;
  const base = unit.endsWith('i') ? 1024 : 1000;
  return Number(m[1]) * base ** (unit ? power : 0);
}

/** README: a KV cache size is "a whole number of GiB, from 1 to 4096" (unset passes). */
const wholeGiB = (v: unknown) =>
  v === undefined ||
  (/^[0-9]+$/.test(String(v)) && Number(v) >= 1 && Number(v) <= 4096);

/** The flag as vLLM reads it (README, "Flags are compared as vLLM reads them"). */
function vllmFlagKey(item: string): string {
  let name = item.split('=')[0];
  name = FLAG_ALIASES[name] ?? name;
  if (name.startsWith('--')) {
    const dot = name.indexOf('.');
    const head = dot < 0 ? name : name.slice(0, dot);
    name = `--${head.slice(2).replace(/_/g, '-')}${
      dot < 0 ? '' : name.slice(dot)
    }`;
  }
  if (name.startsWith('--no-') && BOOLEAN_FLAGS.has(`--${name.slice(5)}`))
    name = `--${name.slice(5)}`;
  return name;
}

/** An engine with no flag rules in its profile (OpenVINO): the flag is what is before `=`. */
const plainFlagKey = (item: string) => item.split('=')[0];

/** A value with the layer that set it and, oldest first, what it replaced (README, --explain). */
interface Trace<T = string> {
  value: T;
  layer: string;
  overrode: Array<{ value: T; layer: string; removed?: boolean }>;
}

interface Expected {
  version?: string;
  image: string;
  env: Record<string, EnvValue>;
  args: string[];
  cpu: string;
  memory: string;
  kvCacheGb?: number;
  versionOrigin?: Trace;
  imageOrigin: Trace;
  envOrigin: Record<string, Trace<EnvValue>>;
  argsOrigin: Trace[];
  removedEnv: Record<string, unknown>;
}

type Outcome = { ok: Expected } | { abort: string };

function reference(input: Case): Outcome {
  const c = resolveMerges(input);
  // README: "When one model or runtime is broken, the whole file is invalid [...] no model of that
  // catalog resolves or renders from it".
  // README: "kv_cache_gb is a whole number of GiB, from 1 to 4096, wherever it is set; so is
  // VLLM_CPU_KVCACHE_SPACE in any env layer": every layer of the file, used by a model or not.
  const vllm = c.runtimes.vllm;
  const kvWritten: unknown[] = [
    ...Object.values(vllm.versions ?? {}).map(v => v.env?.[KV_ENV]),
    ...Object.values(vllm.categories).flatMap(k => [
      k.env?.[KV_ENV],
      k.defaults.kv_cache_gb,
    ]),
    ...Object.values(c.models)
      .filter(m => m.server.runtime === 'vllm')
      .flatMap(m => [m.server.env?.[KV_ENV], m.server.resources?.kv_cache_gb]),
  ];
  const badKv = kvWritten.find(v => typeof v !== 'object' && !wholeGiB(v));
  if (badKv !== undefined)
    return {
      abort: `file invalid: KV cache ${badKv} is not a whole number of GiB from 1 to 4096`,
    };
  for (const name of Object.keys(c.models)) {
    const alone = resolveOne(c, name, {});
    if ('abort' in alone)
      return { abort: `file invalid: ${name}: ${alone.abort}` };
  }
  return resolveOne(c, c.target, c.request);
}

function resolveOne(
  c: Case,
  target: string,
  request: ServerOverrides,
): Outcome {
  const model = c.models[target];
  const runtime = c.runtimes[model.server.runtime];
  const category = runtime.categories[model.category];
  const isVllm = model.server.runtime === 'vllm';

  // Version: --server-version > model server_version > runtime default_version.
  // OpenVINO is flat: a requested server version aborts.
  let version: string | undefined;
  let versionTrace: Trace | undefined;
  if (!runtime.versions) {
    if (request.serverVersion !== undefined)
      return { abort: 'flat runtime: server version does not apply' };
  } else {
    const candidates: Array<[string | undefined, string]> = [
      [runtime.default_version, 'runtime-default'],
      [model.server.server_version, 'model'],
      [request.serverVersion, 'override'],
    ];
    const set = candidates.filter(([v]) => v !== undefined) as Array<
      [string, string]
    >;
    if (set.length > 0) {
      const [value, layer] = set[set.length - 1];
      version = value;
      versionTrace = {
        value,
        layer,
        overrode: set.slice(0, -1).map(([v, l]) => ({ value: v, layer: l })),
      };
    }
    if (!version || !(version in runtime.versions))
      return { abort: `unknown server version ${version}` };
  }
  const selected = version ? runtime.versions![version] : undefined;

  // env = runtime common env + category env (+ kv) + version env delta + per-model env (+ kv)
  //       + request env; later layer wins per variable name, null removes (README).
  // README (the CLI: "--explain: every value, the layer that set it, what it replaced"; README.md:
  // 196-204, null removes): a removal a later layer undoes stays in the history ("the earlier values
  // and removed (layer, file:line)"); a variable left removed is reported with the layer that
  // removed it and the values it had.
  const env = new Map<string, Trace<EnvValue>>();
  const removed = new Map<string, string>();
  const removedHistory = new Map<string, Trace<EnvValue>['overrode']>();
  const setEnv = (name: string, value: EnvValue | null, layer: string) => {
    const before = env.get(name);
    if (value === null) {
      if (!before) return;
      env.delete(name);
      removed.set(name, layer);
      removedHistory.set(name, [
        ...before.overrode,
        { value: before.value, layer: before.layer },
      ]);
      return;
    }
    const gone = removedHistory.get(name);
    const history = before
      ? [...before.overrode, { value: before.value, layer: before.layer }]
      : gone
      ? [
          ...gone,
          {
            value: gone[gone.length - 1].value,
            layer: removed.get(name)!,
            removed: true,
          },
        ]
      : [];
    removed.delete(name);
    removedHistory.delete(name);
    env.set(name, { value, layer, overrode: history });
  };
  const applyEnv = (
    layer: string,
    values?: Record<string, EnvValue | null>,
  ) => {
    for (const [name, value] of Object.entries(values ?? {}))
      setEnv(name, value, layer);
  };
  applyEnv('runtime-env', runtime.env);
  applyEnv('category', category.env);
  const kvApplies = isVllm && !NO_KV_CATEGORIES.has(model.category);
  if (kvApplies && category.defaults.kv_cache_gb !== undefined)
    setEnv(KV_ENV, String(category.defaults.kv_cache_gb), 'category');
  applyEnv('version', selected?.env);
  applyEnv('model', model.server.env);
  // README: the model's kv_cache_gb is applied after its own server.env; null removes the variable.
  const modelKv = model.server.resources?.kv_cache_gb;
  if (kvApplies && modelKv !== undefined)
    setEnv(KV_ENV, modelKv === null ? null : String(modelKv), 'model');
  applyEnv('override', request.env);

  // args = category args + version args delta + per-model args + request args. A flag set again
  // replaces the earlier one in place: last value wins, first position kept (README).
  const key = isVllm ? vllmFlagKey : plainFlagKey;
  const args: Array<{ key: string; trace: Trace }> = [];
  for (const [layer, items] of [
    ['category', category.args],
    ['version', selected?.args],
    ['model', model.server.args],
    ['override', request.args],
  ] as const) {
    for (const item of items ?? []) {
      const k = key(item);
      const at = args.findIndex(a => a.key === k);
      if (at >= 0) {
        const before = args[at].trace;
        args[at] = {
          key: k,
          trace: {
            value: item,
            layer,
            overrode: [
              ...before.overrode,
              { value: before.value, layer: before.layer },
            ],
          },
        };
      } else args.push({ key: k, trace: { value: item, layer, overrode: [] } });
    }
  }
  // Spec, vLLM: "MoE-only flags such as --enable-expert-parallel crash dense models"; README.md:220:
  // "MoE-only flags in any spelling need moe: true". `--no-enable-expert-parallel` turns the option
  // off, which cannot crash a dense model; the README is silent on the negation (the resolver accepts
  // it), so the spec's reason decides: it is not taken for a MoE-only flag here.
  const turnsOnMoe = (item: string) =>
    MOE_FLAGS.has(key(item)) && !/^--no[-_]/.test(item.split('=')[0]);
  const written = [
    category.args,
    selected?.args,
    model.server.args,
    request.args,
  ];
  if (isVllm && !model.moe && written.some(l => (l ?? []).some(turnsOnMoe)))
    return { abort: 'MoE-only flag on a dense model' };

  // image = the selected version's image (flat runtimes: plumbing image, models.yaml winning over
  // values.yaml), or the model's server.image.
  const runtimeImage: Trace = selected
    ? { value: selected.image, layer: 'version', overrode: [] }
    : {
        value: runtime.image ?? OPENVINO_VALUES.image,
        layer: 'plumbing',
        overrode: [],
      };
  const imageTrace: Trace = model.server.image
    ? {
        value: model.server.image,
        layer: 'model',
        overrode: [{ value: runtimeImage.value, layer: runtimeImage.layer }],
      }
    : runtimeImage;
  const image = imageTrace.value;

  const resources = model.server.resources ?? {};
  // README, "How settings layer": "kv_cache_gb is a whole number of GiB, from 1 to 4096, wherever it
  // is set; so is VLLM_CPU_KVCACHE_SPACE in any env layer".
  const kvLayers = [
    runtime.env,
    category.env,
    selected?.env,
    model.server.env,
    request.env,
  ].map(l => l?.[KV_ENV]);
  for (const v of [...kvLayers, category.defaults.kv_cache_gb, modelKv]) {
    if (typeof v !== 'object' && !wholeGiB(v))
      return {
        abort: `KV cache ${v} is not a whole number of GiB from 1 to 4096`,
      };
  }

  // Refinement documented in the README (README.md:205-209, "How settings layer"): "kv_cache_gb is
  // a whole number of GiB [...]; so is VLLM_CPU_KVCACHE_SPACE in any env layer" and "After
  // layering, the KV cache must fit the pod
  // [...] The check uses the final values": the KV cache a model runs with is the final value of
  // the variable, whichever layer set it (a refinement of "kv_cache_gb = category defaults,
  // replaced by the model's server.resources", which names only where kv_cache_gb is written).
  const finalKv = env.get(KV_ENV)?.value;
  const kvCacheGb =
    kvApplies && typeof finalKv === 'string' ? Number(finalKv) : undefined;

  // README: "After layering, the KV cache must fit the pod: kv_cache_gb may take at most half of the
  // memory limit [...] The check uses the final values" (share: the profile's max_share_of_memory).
  const memory = resources.memory ?? category.defaults.memory;
  const share = VLLM_PROFILE.kv_cache.max_share_of_memory as number;
  if (
    kvCacheGb !== undefined &&
    kvCacheGb * 2 ** 30 > share * quantityBytes(memory)
  )
    return {
      abort: `KV cache ${kvCacheGb} GiB is more than half of ${memory}`,
    };

  return {
    ok: {
      version,
      image,
      env: Object.fromEntries([...env].map(([n, t]) => [n, t.value])),
      args: args.map(a => a.trace.value),
      cpu: String(resources.cpu ?? category.defaults.cpu),
      memory,
      kvCacheGb,
      versionOrigin: versionTrace,
      imageOrigin: imageTrace,
      envOrigin: Object.fromEntries(env),
      argsOrigin: args.map(a => a.trace),
      removedEnv: Object.fromEntries(
        [...removed].map(([n, layer]) => [
          n,
          { layer, overrode: removedHistory.get(n) },
        ]),
      ),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The product
// ---------------------------------------------------------------------------------------------

function observed(s: ResolvedServer): Expected {
  return {
    version: s.version?.value,
    image: s.image.value,
    env: Object.fromEntries(s.env.map(e => [e.name, e.value as EnvValue])),
    args: s.args.map(a => a.value),
    cpu: s.resources.cpu.value,
    memory: s.resources.memory.value,
    kvCacheGb: s.resources.kvCacheGb?.value,
    versionOrigin: s.version && trace(s.version),
    imageOrigin: trace(s.image),
    envOrigin: Object.fromEntries(s.env.map(e => [e.name, trace(e)])),
    argsOrigin: s.args.map(a => trace(a)),
    removedEnv: Object.fromEntries(
      s.removedEnv.map(r => [
        r.name,
        {
          layer: r.origin.layer,
          overrode: trace({ ...r, value: '' }).overrode,
        },
      ]),
    ),
  };
}

function trace<T>(t: Traced<T>): Trace<T> {
  return {
    value: t.value,
    layer: t.origin.layer,
    overrode: t.overrode.map(o => ({
      value: o.value,
      layer: o.origin.layer,
      ...(o.removed ? { removed: true } : {}),
    })),
  };
}

type Product =
  | { ok: Expected }
  | { loadError: string }
  | { resolveError: string };

/** The message, or for a list of problems its first problem. */
const firstLine = (e: unknown) => {
  const lines = String((e as Error)?.message ?? e).split('\n');
  return /^\d+ problems:$/.test(lines[0]) ? lines[1].trim() : lines[0];
};

function product(c: Case): Product {
  let catalog;
  try {
    const sources = dirSources(REPO_ROOT);
    sources.models = { ...sources.models, text: toYaml(c) };
    catalog = buildCatalog(sources);
  } catch (e) {
    return { loadError: firstLine(e) };
  }
  try {
    return { ok: observed(resolveServer(catalog, c.target, c.request)) };
  } catch (e) {
    return { resolveError: firstLine(e) };
  }
}

// ---------------------------------------------------------------------------------------------
// models.yaml text: mappings in block style, lists and scalars as JSON (valid YAML 1.2)
// ---------------------------------------------------------------------------------------------

/**
 * YAML 1.1 merge keys, which the README says models.yaml takes ("YAML input"): a mapping with
 * `__anchor: name` is written `&name`, one with `__merge: [a, b]` starts with `<<: [*a, *b]`.
 */
const ANCHOR = '__anchor';
const MERGE = '__merge';

function emit(value: unknown, indent: string): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const anchor = obj[ANCHOR] ? ` &${obj[ANCHOR]}` : '';
    const merge = (obj[MERGE] as string[] | undefined) ?? [];
    const entries = Object.entries(obj).filter(
      ([k, v]) => v !== undefined && k !== ANCHOR && k !== MERGE,
    );
    const lines = entries.map(([k, v]) => {
      const keyText = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k)
        ? k
        : JSON.stringify(k);
      return `\n${indent}${keyText}:${emit(v, `${indent}  `)}`;
    });
    if (merge.length > 0)
      lines.unshift(`\n${indent}<<: [${merge.map(m => `*${m}`).join(', ')}]`);
    if (lines.length === 0) return `${anchor} {}`;
    return anchor + lines.join('');
  }
  return ` ${JSON.stringify(value)}`;
}

function toYaml(c: Case): string {
  const doc = c.runtimesFirst
    ? { runtimes: c.runtimes, models: c.models }
    : { models: c.models, runtimes: c.runtimes };
  return `${emit(doc, '').slice(1)}\n`;
}

/**
 * The document as a YAML reader with merge keys sees it: a mapping's own keys win over the merged
 * ones, and of several merged mappings the earlier wins (YAML 1.1 merge key type). Shallow: a
 * merged key's value is taken whole.
 */
function resolveMerges<T>(root: T): T {
  const anchors = new Map<string, Record<string, unknown>>();
  const collect = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      if (typeof obj[ANCHOR] === 'string')
        anchors.set(obj[ANCHOR] as string, obj);
      Object.values(obj).forEach(collect);
    }
  };
  collect(root);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const obj = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const name of [...((obj[MERGE] as string[]) ?? [])].reverse()) {
      const source = anchors.get(name);
      if (!source) throw new Error(`no anchor ${name}`);
      Object.assign(out, walk(source));
    }
    for (const [k, x] of Object.entries(obj))
      if (k !== ANCHOR && k !== MERGE && x !== undefined) out[k] = walk(x);
    return out;
  };
  return walk(root) as T;
}

// ---------------------------------------------------------------------------------------------
// Seeded generator
// ---------------------------------------------------------------------------------------------

const ENV_NAMES = [
  'VLLM_LOGGING_LEVEL',
  'VLLM_USE_V1',
  'VLLM_CPU_OMP_THREADS_BIND',
  'VLLM_ENABLE_PREFIX_CACHING',
  'OMP_NUM_THREADS',
  'HF_HUB_OFFLINE',
  'TRANSFORMERS_OFFLINE',
  'MY_FLAG',
  'OVMS_LOG_LEVEL',
  'my_flag',
] as const;
const ENV_VALUES = ['0', '1', '4', 'DEBUG', 'INFO', 'auto', 'x-y', 'a b', ''];
/** Kubernetes quantities: Gi is 2^30 bytes, G is 10^9 (16G is 14.9 GiB). */
const CATEGORY_MEMORY = ['16Gi', '24Gi', '16G', '16384Mi'];
const MODEL_MEMORY = ['32Gi', '64Gi', '8Gi', '12G', '17179869184', '0.5Ti'];
const VERSION_KEYS = [
  '0.24.0',
  '0.19.1',
  '0.25.0',
  '0.24',
  '1.0',
  'latest',
  '0.25.0-rc1',
  'nightly_2026',
];

const VLLM_ARGS = [
  '--max-model-len=4096',
  '--max-model-len=8192',
  '--max_model_len=2048',
  '--max-num-seqs=8',
  '--max-num-seqs=16',
  '--max-num-batched-tokens=4096',
  '--tensor-parallel-size=1',
  '-tp=2',
  '--dtype=bfloat16',
  '--dtype=float32',
  '--kv-cache-dtype=auto',
  '--kv_cache_dtype=fp8_e4m3',
  '--enable-prefix-caching',
  '--no-enable-prefix-caching',
  '--no_enable_prefix_caching',
  '--enable-chunked-prefill',
  '--no-enable-chunked-prefill',
  '--enable_chunked_prefill',
  '--enforce-eager',
  '--no-enforce-eager',
  '--trust-remote-code',
  '--seed=1',
  '--seed=7',
];
const POOLING_ARGS = ['--runner=pooling', '--runner=generate'];
const VLM_ARGS = ['--limit-mm-per-prompt={"image":4}'];
const MOE_ARGS = [
  '--enable-expert-parallel',
  '-ep',
  '--enable_expert_parallel',
  '--no-enable-expert-parallel',
  '--enable-eplb',
  '--num-redundant-experts=2',
];
const OV_ARGS = [
  '--log_level=DEBUG',
  '--log_level=INFO',
  '--log-level=INFO',
  '--rest_workers=2',
  '--rest_workers=4',
  '--cache_size=2',
];

function genEnv(
  g: Seeded,
  opts: { kv?: boolean; nulls?: boolean } = {},
): EnvMap {
  const env: EnvMap = {};
  for (const name of g.some(ENV_NAMES, 0, 3)) {
    if (opts.nulls && g.chance(0.25)) env[name] = null;
    else env[name] = g.pick(ENV_VALUES);
  }
  if (opts.kv && g.chance(0.25))
    env[KV_ENV] = g.chance(0.25)
      ? null
      : g.pick([...'123456'.split(''), '12', '0', '4.5', '4097']);
  if (g.chance(0.1)) {
    const ref = { name: 'hf-token', key: g.pick(['token', 'alt']) };
    env[g.pick(['HF_TOKEN', ...ENV_NAMES])] = { secretKeyRef: ref };
  }
  return env;
}

const maybe = <T extends object>(value: T): T | undefined =>
  Object.keys(value).length > 0 ? value : undefined;
const maybeList = <T>(value: T[]): T[] | undefined =>
  value.length > 0 ? value : undefined;

function vllmArgs(
  g: Seeded,
  category: string,
  lo: number,
  hi: number,
): string[] {
  const pool = [...VLLM_ARGS];
  if (NO_KV_CATEGORIES.has(category)) pool.push(...POOLING_ARGS);
  if (category === 'vlm') pool.push(...VLM_ARGS);
  return g.some(pool, lo, hi);
}

function genCases(seed: number): Case[] {
  const g = new Seeded(seed);
  const versionKeys = g.shuffle(VERSION_KEYS).slice(0, g.int(1, 3));
  const models: Record<string, GenModel> = {};
  const count = g.int(1, 4);
  for (let i = 0; i < count; i++) {
    const onVllm = g.chance(0.7);
    const category = onVllm
      ? g.pick(['llm', 'embed', 'rerank', 'vlm'])
      : g.pick(['llm', 'embed', 'rerank']);
    const kvModel = onVllm && !NO_KV_CATEGORIES.has(category);
    const moe = onVllm && category === 'llm' && g.chance(0.3);
    const args = onVllm
      ? vllmArgs(g, category, 0, 3).concat(moe ? g.some(MOE_ARGS, 0, 2) : [])
      : g.some(OV_ARGS, 0, 2);
    const resources: NonNullable<GenModel['server']['resources']> = {};
    if (g.chance(0.15)) resources.cpu = g.pick([4, 12, '2500m']);
    if (g.chance(0.2)) resources.memory = g.pick(MODEL_MEMORY);
    if (kvModel && g.chance(0.3))
      resources.kv_cache_gb = g.chance(0.3) ? null : g.int(1, 8);
    models[`m${i}`] = {
      model_id: onVllm ? `org/model-${i}` : `OpenVINO/model-${i}-int8-ov`,
      category,
      moe: moe || undefined,
      server: {
        runtime: onVllm ? 'vllm' : 'openvino',
        server_version:
          onVllm && g.chance(0.4) ? g.pick(versionKeys) : undefined,
        image: g.chance(0.2) ? 'registry.example.com/own:1' : undefined,
        env: g.chance(0.6)
          ? maybe(genEnv(g, { kv: kvModel, nulls: true }))
          : undefined,
        args: maybeList(args),
        resources: maybe(resources),
      },
    };
  }
  // Merge keys: a model's server: or env: written as `<<: *anchor` of an earlier model's, of the
  // same runtime and kind (so that what is merged is valid for it), with some own keys left out.
  const names = Object.keys(models);
  for (let i = 1; i < names.length; i++) {
    const own = models[names[i]];
    const kin = names.slice(0, i).filter(n => {
      const base = models[n];
      return (
        base.server.runtime === own.server.runtime &&
        NO_KV_CATEGORIES.has(base.category) ===
          NO_KV_CATEGORIES.has(own.category) &&
        (own.moe || !base.moe)
      );
    });
    if (kin.length === 0 || !g.chance(0.3)) continue;
    const baseName = g.pick(kin);
    const base = models[baseName];
    if (g.chance(0.5)) {
      // `<<: [*a, *b]`: of two merged mappings the first wins.
      const bases = g.shuffle(kin).slice(0, g.chance(0.3) ? 2 : 1);
      const server = own.server as Record<string, unknown>;
      server[MERGE] = bases.map(b => {
        (models[b].server as Record<string, unknown>)[ANCHOR] = `srv-${b}`;
        return `srv-${b}`;
      });
      for (const k of ['server_version', 'image', 'env', 'args', 'resources'])
        if (g.chance(0.5)) delete server[k];
    } else {
      const anchor = `env-${baseName}`;
      base.server.env = base.server.env ?? genEnv(g, { nulls: true });
      (base.server.env as Record<string, unknown>)[ANCHOR] = anchor;
      const env = (own.server.env ?? {}) as Record<string, unknown>;
      env[MERGE] = [anchor];
      own.server.env = env as EnvMap;
    }
  }
  // A version env delta that sets VLLM_CPU_KVCACHE_SPACE is refused while an embed or rerank
  // model runs on vLLM (the profile's kv_cache.no_generation), so only then is it generated.
  const versionKv = !Object.values(models).some(
    m => m.server.runtime === 'vllm' && NO_KV_CATEGORIES.has(m.category),
  );
  const versions: Record<string, GenVersion> = {};
  for (const key of versionKeys) {
    versions[key] = {
      image: `docker.io/vllm/vllm-openai-cpu:v${key}`,
      env: g.chance(0.5)
        ? maybe(genEnv(g, { kv: versionKv, nulls: true }))
        : undefined,
      args: g.chance(0.5) ? maybeList(g.some(VLLM_ARGS, 1, 2)) : undefined,
    };
  }
  const categories: Record<string, GenCategory> = {};
  for (const name of ['llm', 'embed', 'rerank', 'vlm']) {
    const big = name === 'vlm';
    const kvCat = !NO_KV_CATEGORIES.has(name);
    categories[name] = {
      defaults: {
        cpu: big ? 16 : g.pick([6, 8]),
        memory: big ? '48Gi' : g.pick(CATEGORY_MEMORY),
        kv_cache_gb: kvCat && g.chance(0.85) ? g.int(1, 8) : undefined,
      },
      env: g.chance(0.4)
        ? maybe(genEnv(g, { kv: kvCat, nulls: true }))
        : undefined,
      args: g.chance(0.6) ? maybeList(vllmArgs(g, name, 1, 2)) : undefined,
    };
  }
  const vllm: GenRuntime = {
    default_version: g.pick(versionKeys),
    env: genEnv(g),
    versions,
    categories,
  };
  const openvino: GenRuntime = {
    image: g.chance(0.2) ? 'openvino/model_server:2026.4' : undefined,
    env: g.chance(0.5) ? genEnv(g) : {},
    categories: Object.fromEntries(
      ['llm', 'embed', 'rerank'].map(name => [
        name,
        {
          defaults: { cpu: g.pick([6, 8]), memory: g.pick(['12Gi', '16Gi']) },
          env: g.chance(0.3) ? maybe(genEnv(g, { nulls: true })) : undefined,
          args: g.chance(0.3) ? maybeList(g.some(OV_ARGS, 1, 2)) : undefined,
        } as GenCategory,
      ]),
    ),
  };

  const runtimes = { vllm, openvino };

  // Merge keys across the document: an env: mapping written as `<<: *anchor` of an env: mapping
  // earlier in the document (runtime, version, category or model env) without the KV variable.
  const runtimesFirst = g.chance(0.4);
  const owners = (): Array<{ env?: EnvMap }> => {
    const rt: Array<{ env?: EnvMap }> = [
      vllm,
      ...Object.values(versions),
      ...Object.values(categories),
      openvino,
      ...Object.values(openvino.categories),
    ];
    const ms = Object.values(models).map(m => m.server);
    return runtimesFirst ? [...rt, ...ms] : [...ms, ...rt];
  };
  const slots = owners();
  slots.forEach((owner, i) => {
    if (i === 0 || !g.chance(0.15)) return;
    const sources = slots
      .slice(0, i)
      .map((o, j) => ({ o, j }))
      .filter(({ o }) => o.env && !(KV_ENV in o.env) && !(MERGE in o.env));
    if (sources.length === 0) return;
    const { o: source, j } = g.pick(sources);
    const sourceEnv = source.env as Record<string, unknown>;
    sourceEnv[ANCHOR] = sourceEnv[ANCHOR] ?? `e${j}`;
    const env = (owner.env ?? {}) as Record<string, unknown>;
    env[MERGE] = [...((env[MERGE] as string[]) ?? []), sourceEnv[ANCHOR]];
    owner.env = env as EnvMap;
  });
  // Every model of the catalog is resolved, each with a request of its own.
  return Object.keys(models).map(target => ({
    models,
    runtimes,
    runtimesFirst,
    target,
    request: genRequest(g, models[target], versionKeys),
  }));
}

function genRequest(
  g: Seeded,
  m: GenModel,
  versionKeys: string[],
): ServerOverrides {
  const onVllm = m.server.runtime === 'vllm';
  const kvModel = onVllm && !NO_KV_CATEGORIES.has(m.category);
  const request: ServerOverrides = {};
  if (g.chance(0.6))
    request.env = maybe(genEnv(g, { kv: kvModel, nulls: true })) as
      | ServerOverrides['env']
      | undefined;
  if (g.chance(0.5)) {
    // A MoE-only flag on a dense model: both must refuse it.
    request.args = onVllm
      ? vllmArgs(g, m.category, 1, 2).concat(
          g.chance(m.moe ? 0.5 : 0.05) ? [g.pick(MOE_ARGS)] : [],
        )
      : g.some(OV_ARGS, 1, 2);
  }
  if (onVllm && g.chance(0.35))
    request.serverVersion = g.chance(0.1) ? '9.9.9' : g.pick(versionKeys);
  if (!onVllm && g.chance(0.15)) request.serverVersion = '2026.3';
  for (const k of Object.keys(request) as Array<keyof ServerOverrides>)
    if (request[k] === undefined) delete request[k];
  return request;
}

// ---------------------------------------------------------------------------------------------
// Comparison and minimization
// ---------------------------------------------------------------------------------------------

type Verdict =
  | { kind: 'match' }
  | { kind: 'skip'; reason: string }
  | { kind: 'mismatch'; fields: string[]; expected: unknown; actual: unknown };

const FIELDS = [
  'version',
  'image',
  'env',
  'args',
  'cpu',
  'memory',
  'kvCacheGb',
  'versionOrigin',
  'imageOrigin',
  'envOrigin',
  'argsOrigin',
  'removedEnv',
] as const;

function judge(c: Case): Verdict {
  const p = product(c);
  let r: Outcome;
  try {
    r = reference(c);
  } catch (e) {
    return {
      kind: 'skip',
      reason: `reference cannot read it: ${firstLine(e)}`,
    };
  }
  if ('abort' in r) {
    // The reference does not tell a refused file from a refused request.
    if ('loadError' in p || 'resolveError' in p) return { kind: 'match' };
    return {
      kind: 'mismatch',
      fields: ['abort'],
      expected: r.abort,
      actual: p.ok,
    };
  }
  if ('loadError' in p) return { kind: 'skip', reason: `load: ${p.loadError}` };
  if ('resolveError' in p)
    return { kind: 'skip', reason: `resolve: ${p.resolveError}` };
  const fields = FIELDS.filter(
    f => JSON.stringify(norm(r.ok[f])) !== JSON.stringify(norm(p.ok[f])),
  );
  if (fields.length === 0) return { kind: 'match' };
  const pickFields = (e: Expected) =>
    Object.fromEntries(fields.map(f => [f, e[f]]));
  return {
    kind: 'mismatch',
    fields,
    expected: pickFields(r.ok),
    actual: pickFields(p.ok),
  };
}

/** Env maps compare by name, not order. */
function norm(v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v))
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
        a < b ? -1 : 1,
      ),
    );
  return v;
}

/** Every copy of `value` with one object key or list item removed. */
function* shrinks(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      yield [...value.slice(0, i), ...value.slice(i + 1)];
      for (const s of shrinks(value[i]))
        yield value.map((x, j) => (j === i ? s : x));
    }
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      const { [k]: _dropped, ...rest } = obj;
      yield rest;
      for (const s of shrinks(obj[k])) yield { ...obj, [k]: s };
    }
  }
}

function minimize(c: Case, fields: string[]): Case {
  const same = (x: Case) => {
    if (!x.models?.[x.target] || !x.runtimes || !x.request) return false;
    const v = judge(x);
    return v.kind === 'mismatch' && v.fields.join() === fields.join();
  };
  let best = c;
  let progress = true;
  while (progress) {
    progress = false;
    for (const candidate of shrinks(best)) {
      const x = candidate as Case;
      if (same(x)) {
        best = x;
        progress = true;
        break;
      }
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------------------------

/** 400 catalogs, each of its 1-4 models resolved with a request of its own: about 1000 cases. */
const SEEDS = Array.from({ length: 400 }, (_, i) => 0x5eed + i * 7919);

describe('spec differential: the layering rules against an independent reference', () => {
  it('agrees with the reference on generated catalogs and requests', () => {
    let matched = 0;
    const skipped = new Map<string, number>();
    const mismatches = new Map<
      string,
      { seed: number; count: number; c: Case }
    >();
    let total = 0;
    for (const c of SEEDS.flatMap(seed =>
      genCases(seed).map(x => ({ ...x, seed })),
    )) {
      const seed = c.seed;
      total++;
      const v = judge(c);
      if (v.kind === 'match') matched++;
      else if (v.kind === 'skip') {
        const reason = v.reason.replace(/\bm\d\b/g, 'mN').replace(/\d+/g, 'N');
        skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
      } else {
        const why =
          v.fields[0] === 'abort'
            ? `:${String(v.expected)
                .replace(/[0-9.]+/g, 'N')
                .replace(/\bm\d+\b/g, 'M')}`
            : '';
        const sig = v.fields.join('+') + why;
        const seen = mismatches.get(sig);
        if (seen) seen.count++;
        else mismatches.set(sig, { seed, count: 1, c });
      }
    }
    const mismatchCount = [...mismatches.values()].reduce(
      (n, m) => n + m.count,
      0,
    );
    const skipCount = [...skipped.values()].reduce((n, k) => n + k, 0);
    const report = [
      `cases: ${total} (${SEEDS.length} catalogs), matched: ${matched}, skipped: ${skipCount}, mismatched: ${mismatchCount}`,
      ...[...skipped].map(([r, n]) => `  skipped ${n}x: ${r}`),
    ];
    const minimized: string[] = [];
    for (const [sig, { seed, count, c }] of mismatches) {
      const small = minimize(c, sig.split(':')[0].split('+'));
      const v = judge(small);
      minimized.push(
        [
          `mismatch in ${sig} (${count}x, first seed ${seed}), minimized:`,
          toYaml(small),
          `target: ${small.target}  request: ${JSON.stringify(small.request)}`,
          v.kind === 'mismatch'
            ? `reference: ${JSON.stringify(
                v.expected,
              )}\nresolver:  ${JSON.stringify(v.actual)}`
            : '',
        ].join('\n'),
      );
    }
    if (minimized.length > 0)
      throw new Error([...report, ...minimized].join('\n'));
    // Nearly every case is compared: a generator whose cases the product refuses would compare
    // nothing and pass.
    expect(matched).toBeGreaterThan(total * 0.9);
  });
});

// ---------------------------------------------------------------------------------------------
// What this test found, minimized (each failed against the resolver of 2026-12-04)
// ---------------------------------------------------------------------------------------------

/** A models.yaml of one vLLM model on the shipped runtimes/ folder. */
const minimal = (parts: {
  modelEnv?: string;
  modelResources?: string;
  versions?: string;
  categories?: string;
}) => `models:
  m0:
    model_id: org/m0
    category: llm
    server:
      runtime: vllm
${parts.modelEnv ? `      env: ${parts.modelEnv}\n` : ''}${
  parts.modelResources ? `      resources: ${parts.modelResources}\n` : ''
}runtimes:
  vllm:
    default_version: "1"
    versions:
      "1": { image: "img:1" }
${parts.versions ?? ''}    categories:
      llm: { defaults: { cpu: 8, memory: "16Gi" } }
${parts.categories ?? ''}`;

const load = (text: string) => {
  const sources = dirSources(REPO_ROOT);
  sources.models = { ...sources.models, text };
  return buildCatalog(sources);
};

describe('spec differential: what it found', () => {
  // README "How settings layer": "kv_cache_gb is a whole number of GiB, from 1 to 4096, wherever it
  // is set; so is VLLM_CPU_KVCACHE_SPACE in any env layer", and "When one model or runtime is
  // broken, the whole file is invalid". The resolver refused such a value only in a layer a model
  // ended up reading: a later `null` (model env, or the model's kv_cache_gb: null) let it through,
  // as did a version or category no model selects.
  const notWhole: Array<[string, string, ServerOverrides?]> = [
    [
      'env: a model\'s VLLM_CPU_KVCACHE_SPACE: "4.5" removed by its own kv_cache_gb: null',
      minimal({
        modelEnv: '{ VLLM_CPU_KVCACHE_SPACE: "4.5" }',
        modelResources: '{ kv_cache_gb: null }',
      }),
    ],
    [
      'env: a version delta\'s VLLM_CPU_KVCACHE_SPACE: "4.5" removed by the model\'s env null',
      minimal({
        modelEnv: '{ VLLM_CPU_KVCACHE_SPACE: null }',
        versions:
          '      "2": { image: "img:2", env: { VLLM_CPU_KVCACHE_SPACE: "4.5" } }\n',
      }).replace('default_version: "1"', 'default_version: "2"'),
    ],
    [
      'env: VLLM_CPU_KVCACHE_SPACE: "4.5" in the env delta of a version no model pins (a request may select it)',
      minimal({
        versions:
          '      "2": { image: "img:2", env: { VLLM_CPU_KVCACHE_SPACE: "4.5" } }\n',
      }),
    ],
    [
      'env: VLLM_CPU_KVCACHE_SPACE: "4.5" in the env of a category no model uses (its kv_cache_gb: 0 is refused)',
      minimal({
        categories:
          '      vlm: { defaults: { cpu: 16, memory: "48Gi" }, env: { VLLM_CPU_KVCACHE_SPACE: "4.5" } }\n',
      }),
    ],
  ];
  it.each(notWhole)('%s is refused when the file is read', (_rule, text) => {
    expect(() => load(text)).toThrow(
      /VLLM_CPU_KVCACHE_SPACE is '4\.5', but it must be a whole number of GiB/,
    );
  });

  // README "Gated and private models": a request is refused for "a credential flag
  // (`--hf-token=...`)". --max-num-batched-tokens (a value flag runtimes/vllm/profile.yaml declares)
  // and --tokenizer (the tokenizer's repo) carry no credential; the resolver refused both in a
  // request (any flag containing "token"), so `args = ... + request args` could not set them.
  it.each([['--max-num-batched-tokens=4096'], ['--tokenizer=org/tok']])(
    'args: a request may set %s',
    arg => {
      const catalog = load(minimal({ modelResources: '{ kv_cache_gb: 4 }' }));
      expect(
        resolveServer(catalog, 'm0', { args: [arg] }).args.map(a => a.value),
      ).toEqual([arg]);
    },
  );
});
