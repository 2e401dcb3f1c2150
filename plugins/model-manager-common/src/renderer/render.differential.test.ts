/*
 * A differential test of the RENDERED objects, written the way an outside team implementing the
 * product's text would: the runtimes spec (runtimes.md), the README ("How settings
 * layer", "Gated and private models", "What an OpenVINO model is on the cluster", "What runs
 * where"), the engine profiles, plumbing and templates under runtimes/, the CRDs under
 * test-assets/crds, and what KServe, OVMS and the Envoy AI Gateway need of the objects. Nothing
 * here reads the renderer's or resolver's code: `expectedServer` below is an independent
 * implementation of the layering rules, and every object is checked field by field against it.
 *
 * A seeded generator (mulberry32, fixed seeds) writes valid models.yaml texts over the shipped
 * runtimes/; every model is rendered. A model the product refuses with a clear error is skipped and
 * counted. Each object is also validated against its CRD's OpenAPI schema (ajv) or, for core kinds,
 * the kubernetes-models schemas.
 *
 * The sweep fails on any mismatch. What it found is kept below as minimized cases.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import YAML from 'yaml';
import { buildCatalog } from '../catalog/buildCatalog';
import type { Catalog } from '../catalog/types';
import { resolveServer } from '../resolver/resolveServer';
import type { ServerOverrides } from '../resolver/types';
import { REPO_ROOT, shippedSources } from '../testUtils/catalogFixtures';
import { renderManifests } from './renderManifests';
import type { RenderedObject } from './types';
import { Seeded } from '../testUtils/seeded';

// ---------------------------------------------------------------------------------------------
// The data files the spec and README point at
// ---------------------------------------------------------------------------------------------

const readYaml = (rel: string) =>
  YAML.parse(fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8'));
const VLLM_VALUES = readYaml('runtimes/vllm/values.yaml');
const OV_VALUES = readYaml('runtimes/openvino/values.yaml');
const OV_PROFILE = readYaml('runtimes/openvino/profile.yaml');
const VLLM_PROFILE = readYaml('runtimes/vllm/profile.yaml');
const SERVING_RUNTIME = readYaml(
  `runtimes/${OV_VALUES.serving_runtime_manifest}`,
);

/** Plumbing defaults a profile declares (used when no file sets the key). */
const plumbingDefaults = (profile: any): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(profile.plumbing ?? {})
      .filter(([, d]: [string, any]) => d.default !== undefined)
      .map(([k, d]: [string, any]) => [k, d.default]),
  );

// ---------------------------------------------------------------------------------------------
// Seeded generator
// ---------------------------------------------------------------------------------------------

type SecretRef = { secretKeyRef: { name: string; key: string } };
type EnvValue = string | SecretRef;
type EnvMap = Record<string, EnvValue | null>;

interface Category {
  defaults: {
    cpu: number | string;
    memory: string;
    kv_cache_gb?: number;
    weight_format?: string;
  };
  env?: EnvMap;
  args?: string[];
}
interface Version {
  image: string;
  env?: EnvMap;
  args?: string[];
  image_pull_secrets?: string[];
}
interface Runtime {
  [plumbing: string]: unknown;
  default_version?: string;
  env: EnvMap;
  versions?: Record<string, Version>;
  categories: Record<string, Category>;
  image_pull_secrets?: string[];
}
interface Model {
  model_id: string;
  category: string;
  weight_format?: string | null;
  server: {
    runtime: string;
    server_version?: string;
    image?: string;
    env?: EnvMap;
    args?: string[];
    image_pull_secrets?: string[];
    resources?: {
      cpu?: number | string;
      memory?: string;
      kv_cache_gb?: number | null;
    };
  };
}
interface Case {
  id: string;
  models: Record<string, Model>;
  runtimes: { vllm: Runtime; openvino: Runtime };
  namespace: string;
  request: Record<string, ServerOverrides>;
}

const HF_TOKEN_REF: SecretRef = {
  secretKeyRef: { name: 'hf-token', key: 'token' },
};
const RAW_REPOS = [
  'Qwen/Qwen2.5-7B-Instruct',
  'meta-llama/Llama-3.1-8B-Instruct',
  'BAAI/bge-m3',
  'BAAI/bge-reranker-v2-m3',
  'microsoft/Phi-3.5-mini-instruct',
  'Qwen/Qwen2.5-VL-3B-Instruct',
];
const IR_REPOS = [
  'OpenVINO/bge-small-en-v1.5-int8-ov',
  'OpenVINO/Phi-3.5-mini-instruct-int4-ov',
  'OpenVINO/bge-reranker-base-int8-ov',
  'openvino/qwen2.5-1.5b-instruct-int4-ov',
  'Openvino/mistral-7b-instruct-v0.3-int4-ov',
];
const WORDS = ['qwen', 'llama', 'bge', 'phi', 'mini', 'chat', 'embed', 'rr'];

function genName(r: Seeded, maxLen: number): string {
  let name = `${r.pick(WORDS)}-${r.int(0, 999)}`;
  if (r.chance(0.15)) {
    // Long names: what KServe derives from them must still be right.
    const target = r.int(Math.min(40, maxLen), maxLen);
    while (name.length < target) name += `-${r.pick(WORDS)}`;
    name = name.slice(0, target).replace(/-+$/, '');
  }
  return name;
}

function genVllm(r: Seeded): Runtime {
  const keys = r.subset(['0.24.0', '0.19.1', '0.20.2', '0.21.0rc1'], 0.6);
  if (keys.length === 0) keys.push('0.24.0');
  if (r.chance(0.06)) keys.push('0.22.0+cpu');
  const versions: Record<string, Version> = {};
  for (const v of keys) {
    const version: Version = {
      image: `docker.io/vllm/vllm-openai-cpu:v${v.replace('+', '-')}`,
    };
    if (r.chance(0.35))
      version.env = r.pick<EnvMap>([
        { VLLM_USE_V1: '1' },
        { VLLM_LOGGING_LEVEL: 'WARNING' },
        { HF_ENDPOINT: 'https://hf-mirror.example.com' },
        { VLLM_CPU_KVCACHE_SPACE: '2' },
      ]);
    if (r.chance(0.3))
      version.args = [
        r.pick(['--enable-chunked-prefill', '--max-num-seqs=64']),
      ];
    if (r.chance(0.15)) version.image_pull_secrets = ['vllm-registry'];
    versions[v] = version;
  }
  const env: EnvMap = {};
  if (r.chance(0.8)) env.VLLM_CPU_OMP_THREADS_BIND = 'auto';
  if (r.chance(0.6)) env.VLLM_ENABLE_PREFIX_CACHING = '1';
  if (r.chance(0.7)) env.VLLM_LOGGING_LEVEL = 'INFO';
  if (r.chance(0.15)) env.HF_TOKEN = HF_TOKEN_REF;
  const llmKv = r.int(2, 8);
  const categories: Record<string, Category> = {
    llm: { defaults: { cpu: 8, memory: '16Gi', kv_cache_gb: llmKv } },
    embed: { defaults: { cpu: 6, memory: '12Gi' } },
    rerank: { defaults: { cpu: 6, memory: '12Gi' } },
    vlm: { defaults: { cpu: 16, memory: '48Gi', kv_cache_gb: r.int(4, 16) } },
  };
  if (r.chance(0.7)) categories.embed.args = ['--runner=pooling'];
  if (r.chance(0.7)) categories.rerank.args = ['--runner=pooling'];
  if (r.chance(0.35))
    categories.llm.args = r.pick([
      ['--max-model-len=4096'],
      ['--tensor-parallel-size=1', '--enable-prefix-caching'],
    ]);
  if (r.chance(0.25)) categories.llm.env = { OMP_NUM_THREADS: '8' };
  const runtime: Runtime = {
    default_version: r.pick(keys),
    env,
    versions,
    categories,
  };
  if (r.chance(0.15)) runtime.image_pull_secrets = ['registry-creds'];
  if (r.chance(0.3)) runtime.routing = 'aigateway';
  if (r.chance(0.15)) runtime.served_model_name = 'model_name';
  if (runtime.routing === 'aigateway' && r.chance(0.3)) {
    runtime.gateway_name = 'ai-gw';
    runtime.gateway_namespace = 'gateway-system';
  }
  return runtime;
}

function genOpenvino(r: Seeded): Runtime {
  const env: EnvMap = {};
  if (r.chance(0.3)) env.OVMS_LOG_LEVEL = 'INFO';
  if (r.chance(0.15)) env.HF_ENDPOINT = 'https://hf-mirror.example.com';
  const categories: Record<string, Category> = {
    llm: { defaults: { cpu: 8, memory: '16Gi' } },
    embed: { defaults: { cpu: 6, memory: '12Gi' } },
    rerank: { defaults: { cpu: 6, memory: '12Gi' } },
  };
  if (r.chance(0.2)) categories.vlm = { defaults: { cpu: 8, memory: '32Gi' } };
  if (r.chance(0.25))
    categories.llm.defaults.weight_format = r.pick(['int4', 'int8']);
  if (r.chance(0.2)) categories.embed.args = ['--log_level=INFO'];
  const runtime: Runtime = { env, categories };
  if (r.chance(0.15)) runtime.image_pull_secrets = ['registry-creds'];
  if (r.chance(0.2)) runtime.weights_pvc = 'ov-weights';
  if (r.chance(0.2)) runtime.weights_storage = '250Gi';
  if (r.chance(0.2)) runtime.weights_access_mode = 'ReadWriteMany';
  if (r.chance(0.2)) runtime.weights_storage_class = 'fast-ssd';
  if (r.chance(0.15)) runtime.deployment_mode = 'RawDeployment';
  if (r.chance(0.03)) runtime.runtime_name = 'ovms-runtime'; // refused
  if (r.chance(0.15))
    runtime.model_downloader_image = 'registry.example.com/ovms:latest-py';
  if (r.chance(0.15)) runtime.image = 'registry.example.com/ovms:2026.3';
  if (r.chance(0.15)) {
    runtime.gateway_name = 'ai-gw';
    runtime.gateway_namespace = 'gateway-system';
  }
  if (r.chance(0.08)) runtime.served_model_name = 'model_id';
  return runtime;
}

function genModel(r: Seeded, runtimes: Case['runtimes']): Model {
  const runtime = r.pick(['vllm', 'openvino'] as const);
  const rt = runtimes[runtime];
  const category = r.pick(Object.keys(rt.categories));
  const model: Model = { model_id: '', category, server: { runtime } };
  if (runtime === 'vllm') {
    model.model_id = r.pick(RAW_REPOS);
  } else {
    const ir = r.chance(0.5);
    model.model_id = ir ? r.pick(IR_REPOS) : r.pick(RAW_REPOS);
    const categoryFormat = rt.categories[category].defaults.weight_format;
    if (!ir && r.chance(0.5))
      model.weight_format = r.pick(['fp32', 'fp16', 'int8', 'int4']);
    else if (!ir && categoryFormat && r.chance(0.3))
      model.weight_format = null; // README: null removes the category's value
    else if (ir && categoryFormat && r.chance(0.85))
      model.weight_format = null; // README: opts an OpenVINO/* model out
    else if (ir && r.chance(0.03)) model.weight_format = 'int4'; // refused
  }
  const env: EnvMap = {};
  if (r.chance(0.25))
    env[runtime === 'vllm' ? 'VLLM_LOGGING_LEVEL' : 'OVMS_LOG_LEVEL'] = 'DEBUG';
  if (r.chance(0.25)) env.HF_TOKEN = HF_TOKEN_REF;
  if (r.chance(0.12)) env.HF_ENDPOINT = 'https://hf.example.com';
  if (r.chance(0.12)) {
    const inherited = Object.keys(rt.env);
    if (inherited.length) env[r.pick(inherited)] = null;
  }
  if (r.chance(0.08) && rt.env.HF_TOKEN) env.HF_TOKEN = null;
  if (runtime === 'vllm' && r.chance(0.06)) env.VLLM_CPU_KVCACHE_SPACE = '3';
  if (Object.keys(env).length) model.server.env = env;
  if (r.chance(0.35)) {
    model.server.args =
      runtime === 'vllm'
        ? [
            r.pick([
              '--max-model-len=8192',
              '--max_model_len=2048',
              '--dtype=bfloat16',
              '--enable-chunked-prefill',
              '--no-enable-chunked-prefill',
              '--no-enable-prefix-caching',
              '-tp=2',
            ]),
          ]
        : [r.pick(['--log_level=DEBUG', '--rest_workers=4'])];
  }
  if (r.chance(0.12))
    model.server.image =
      runtime === 'vllm'
        ? 'registry.example.com/vllm-cpu:custom'
        : 'registry.example.com/ovms:custom';
  if (runtime === 'vllm' && r.chance(0.3))
    model.server.server_version = r.pick(Object.keys(rt.versions!));
  if (runtime === 'openvino' && r.chance(0.02))
    model.server.server_version = '0.24.0'; // refused: flat runtime
  if (r.chance(0.35)) {
    const resources: NonNullable<Model['server']['resources']> = {};
    if (r.chance(0.6)) resources.cpu = r.pick([4, 12, '2500m', '10']);
    if (r.chance(0.5)) resources.memory = r.pick(['24Gi', '32Gi', '64Gi']);
    const kvCategory = rt.categories[category].defaults.kv_cache_gb;
    if (runtime === 'vllm' && kvCategory !== undefined && r.chance(0.5)) {
      resources.kv_cache_gb = r.chance(0.3) ? null : r.int(1, 6);
    }
    model.server.resources = resources;
  }
  if (r.chance(0.15))
    model.server.image_pull_secrets = r.pick([
      ['model-creds'],
      ['registry-creds', 'model-creds'],
    ]);
  return model;
}

function genCase(seed: number): Case {
  const r = new Seeded(seed);
  const runtimes = { vllm: genVllm(r), openvino: genOpenvino(r) };
  const models: Record<string, Model> = {};
  const count = r.int(1, 3);
  while (Object.keys(models).length < count) {
    const model = genModel(r, runtimes);
    // OpenVINO names become <name>-predictor and <name>-download (63 at most).
    const name = genName(r, model.server.runtime === 'vllm' ? 63 : 53);
    models[name] = model;
  }
  const request: Record<string, ServerOverrides> = {};
  for (const [name, model] of Object.entries(models)) {
    if (!r.chance(0.25)) continue;
    const overrides: ServerOverrides = {};
    if (r.chance(0.5))
      overrides.env = r.pick<ServerOverrides['env']>([
        { REQ_VAR: '1' },
        { X: 'y' },
        { HF_TOKEN: HF_TOKEN_REF },
        { HF_ENDPOINT: null },
      ]);
    if (model.server.runtime === 'vllm') {
      if (r.chance(0.4)) overrides.args = ['--max-model-len=1024'];
      if (r.chance(0.4))
        overrides.serverVersion = r.pick(Object.keys(runtimes.vllm.versions!));
      if (r.chance(0.2)) overrides.env = { VLLM_LOGGING_LEVEL: null };
      if (r.chance(0.1)) overrides.env = { VLLM_CPU_KVCACHE_SPACE: '2' };
    } else if (r.chance(0.05)) {
      overrides.serverVersion = '0.24.0'; // refused
    }
    request[name] = overrides;
  }
  return {
    id: `seed ${seed}`,
    models,
    runtimes,
    namespace: r.pick(['models', 'team-a', 'default']),
    request,
  };
}

const modelsYamlOf = (c: Pick<Case, 'models' | 'runtimes'>) =>
  YAML.stringify({ models: c.models, runtimes: c.runtimes });

function catalogOf(text: string): Catalog {
  const sources = shippedSources();
  sources.models = { ...sources.models, text };
  return buildCatalog(sources);
}

// ---------------------------------------------------------------------------------------------
// The independent reference: what each model must resolve to, from the README's layering
// ---------------------------------------------------------------------------------------------

interface Expected {
  name: string;
  runtime: 'vllm' | 'openvino';
  category: string;
  modelId: string;
  version?: string;
  image: string;
  env: Map<string, EnvValue>;
  args: string[];
  cpu: string;
  memory: string;
  weightFormat?: string;
  pullSecrets: string[];
  plumbing: Record<string, any>;
}

/** vLLM reads `_` and `-` in a long flag's name the same (README "Flags are compared as vLLM reads them"). */
const flagKey = (arg: string, vllm: boolean) => {
  let flag = arg.split('=')[0];
  if (!vllm) return flag;
  // Short aliases are their long flag (profile flag_aliases).
  flag = VLLM_PROFILE.flag_aliases[flag] ?? flag;
  if (flag.startsWith('--')) flag = `--${flag.slice(2).replace(/_/g, '-')}`;
  // README "Adding a runtime": flag_kinds boolean, `--x` / `--no-x` are one option.
  const positive = `--${flag.slice(5)}`;
  if (
    flag.startsWith('--no-') &&
    VLLM_PROFILE.flag_kinds.boolean.includes(positive)
  )
    return positive;
  return flag;
};

function layerArgs(layers: Array<string[] | undefined>, vllm: boolean) {
  const out: string[] = [];
  for (const layer of layers)
    for (const arg of layer ?? []) {
      const at = out.findIndex(a => flagKey(a, vllm) === flagKey(arg, vllm));
      if (at >= 0) out[at] = arg; // replaced in place, the winning spelling
      else out.push(arg);
    }
  return out;
}

function layerEnv(env: Map<string, EnvValue>, layer: EnvMap | undefined) {
  for (const [k, v] of Object.entries(layer ?? {})) {
    if (v === null) env.delete(k);
    else env.set(k, v);
  }
}

function expectedServer(c: Case, name: string): Expected {
  const model = c.models[name];
  const runtime = model.server.runtime as 'vllm' | 'openvino';
  const rt = c.runtimes[runtime];
  const cat = rt.categories[model.category];
  const req = c.request[name] ?? {};
  const profile = runtime === 'vllm' ? VLLM_PROFILE : OV_PROFILE;
  const values = runtime === 'vllm' ? VLLM_VALUES : OV_VALUES;
  // runtimes/<name>/values.yaml merged in; models.yaml wins on a clash.
  const plumbing: Record<string, any> = {
    ...plumbingDefaults(profile),
    ...values,
  };
  for (const [k, v] of Object.entries(rt))
    if (
      ![
        'env',
        'versions',
        'categories',
        'default_version',
        'image_pull_secrets',
      ].includes(k)
    )
      plumbing[k] = v;

  let versionKey: string | undefined;
  let version: Version | undefined;
  if (runtime === 'vllm') {
    versionKey =
      req.serverVersion ?? model.server.server_version ?? rt.default_version!;
    version = rt.versions![versionKey];
  }
  const kvVar = profile.kv_cache?.env as string | undefined;
  const env = new Map<string, EnvValue>();
  layerEnv(env, rt.env);
  layerEnv(env, cat.env);
  if (kvVar && cat.defaults.kv_cache_gb !== undefined)
    env.set(kvVar, String(cat.defaults.kv_cache_gb));
  layerEnv(env, version?.env);
  layerEnv(env, model.server.env);
  const kv = model.server.resources?.kv_cache_gb;
  if (kvVar && kv === null) env.delete(kvVar);
  else if (kvVar && kv !== undefined) env.set(kvVar, String(kv));
  layerEnv(env, req.env as EnvMap | undefined);

  const args = layerArgs(
    [cat.args, version?.args, model.server.args, req.args],
    runtime === 'vllm',
  );
  const image =
    model.server.image ?? (version ? version.image : String(plumbing.image));
  const weightFormat =
    model.weight_format === null
      ? undefined
      : model.weight_format ?? cat.defaults.weight_format;
  const pullSecrets = [
    ...new Set([
      ...(rt.image_pull_secrets ?? []),
      ...(version?.image_pull_secrets ?? []),
      ...(model.server.image_pull_secrets ?? []),
    ]),
  ];
  return {
    name,
    runtime,
    category: model.category,
    modelId: model.model_id,
    version: versionKey,
    image,
    env,
    args,
    cpu: String(model.server.resources?.cpu ?? cat.defaults.cpu),
    memory: String(model.server.resources?.memory ?? cat.defaults.memory),
    weightFormat,
    pullSecrets,
    plumbing,
  };
}

// ---------------------------------------------------------------------------------------------
// Field-by-field checks
// ---------------------------------------------------------------------------------------------

/** KServe's LLMInferenceService Service name: knative.dev/pkg kmeta.ChildName(name, suffix). */
function kmetaChildName(parent: string, suffix: string): string {
  const longest = 63;
  const head = longest - 32;
  if (parent.length > longest - suffix.length) {
    const hash = crypto.createHash('md5').update(parent).digest('hex');
    return `${parent.slice(0, head - suffix.length)}${hash}${suffix}`;
  }
  return parent + suffix;
}

const envList = (env: Map<string, EnvValue>) =>
  [...env.entries()]
    .map(([name, v]) =>
      typeof v === 'string'
        ? { name, value: v }
        : { name, valueFrom: { secretKeyRef: v.secretKeyRef } },
    )
    .sort((a, b) => a.name.localeCompare(b.name));
const sortEnv = (env: any) =>
  Array.isArray(env)
    ? [...env].sort((a: any, b: any) => a.name.localeCompare(b.name))
    : env;
const emptyToUndefined = <T>(list: T[]) => (list.length ? list : undefined);

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

interface Mismatch {
  rule: string;
  where: string;
  expected: unknown;
  actual: unknown;
}

function checkModel(
  c: Case,
  exp: Expected,
  objects: RenderedObject[],
): Mismatch[] {
  const out: Mismatch[] = [];
  const eq = (
    rule: string,
    where: string,
    actual: unknown,
    expected: unknown,
  ) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      out.push({ rule, where, expected, actual });
  };
  const ok = (rule: string, where: string, cond: boolean, actual: unknown) => {
    if (!cond) out.push({ rule, where, expected: 'true', actual });
  };
  const ns = c.namespace;
  const p = exp.plumbing;
  const routing: string = p.routing;
  const labels: Record<string, string> = {
    'app.kubernetes.io/name': exp.name,
    'app.kubernetes.io/managed-by': 'model-manager',
    'backstage.io/kubernetes-id': exp.name,
    'model-manager.io/runtime': exp.runtime,
    'model-manager.io/category': exp.category,
  };
  if (exp.version) labels['model-manager.io/server-version'] = exp.version;
  const annotations = {
    'model-manager.io/model-id': exp.modelId,
    'model-manager.io/routing': routing,
    'model-manager.io/device': p.device,
  };
  const pullSecrets = emptyToUndefined(exp.pullSecrets.map(name => ({ name })));
  // What the engine serves the model under: KServe runs vLLM with --served-model-name =
  // spec.model.name; OVMS serves --model_name={{.Name}}, the InferenceService's name (the
  // ClusterServingRuntime's args).
  const servedName =
    p.served_model_name === 'model_name' ? exp.name : exp.modelId;
  const resources = {
    limits: { cpu: exp.cpu, memory: exp.memory },
    requests: { cpu: exp.cpu, memory: exp.memory },
  };
  const byKind = (kind: string) => objects.find(o => o.kind === kind);
  const downloadEnv = new Map(
    [...exp.env].filter(([k]) =>
      (exp.runtime === 'vllm'
        ? VLLM_PROFILE
        : OV_PROFILE
      ).download.env.includes(k),
    ),
  );

  // Every object: names and label values Kubernetes accepts.
  for (const o of objects) {
    const m: any = o.manifest;
    ok(
      'k8s-name',
      `${o.kind}.metadata.name`,
      DNS_LABEL.test(o.name) && o.name.length <= 63,
      o.name,
    );
    for (const [k, v] of Object.entries(m.metadata.labels ?? {}))
      ok(
        'k8s-label-value',
        `${o.kind}.metadata.labels.${k}`,
        typeof v === 'string' && v.length <= 63 && LABEL_VALUE.test(v),
        v,
      );
    eq('apiVersion', `${o.kind}.apiVersion`, m.apiVersion, o.apiVersion);
  }

  const kinds = objects.map(o => o.kind);
  if (exp.runtime === 'vllm') {
    eq(
      'objects',
      'kinds',
      kinds,
      routing === 'aigateway'
        ? [
            'LLMInferenceService',
            'Backend',
            'AIServiceBackend',
            'AIGatewayRoute',
          ]
        : ['LLMInferenceService'],
    );
    const o = byKind('LLMInferenceService');
    if (!o) return out;
    const m: any = o.manifest;
    eq('llmisvc', 'apiVersion', m.apiVersion, 'serving.kserve.io/v1alpha2');
    eq('llmisvc', 'metadata.name', m.metadata.name, exp.name);
    eq('llmisvc', 'metadata.namespace', m.metadata.namespace, ns);
    eq('labels', 'LLMInferenceService.labels', m.metadata.labels, labels);
    eq(
      'annotations',
      'LLMInferenceService.annotations',
      m.metadata.annotations,
      annotations,
    );
    eq('llmisvc', 'spec.model.uri', m.spec.model.uri, `hf://${exp.modelId}`);
    eq('served-name', 'spec.model.name', m.spec.model.name, servedName);
    eq(
      'router',
      'spec.router',
      m.spec.router,
      routing === 'epp' ? { scheduler: {}, route: {}, gateway: {} } : undefined,
    );
    const t = m.spec.template;
    eq(
      'pull-secrets',
      'template.imagePullSecrets',
      t.imagePullSecrets,
      pullSecrets,
    );
    const main = (t.containers ?? []).find((x: any) => x.name === 'main');
    ok('llmisvc', 'template.containers[main]', !!main, t.containers);
    if (main) {
      eq('image', 'main.image', main.image, exp.image);
      eq('args', 'main.args', main.args, emptyToUndefined(exp.args));
      eq(
        'env',
        'main.env',
        sortEnv(main.env),
        emptyToUndefined(envList(exp.env)),
      );
      ok(
        'env-unique',
        'main.env names',
        new Set((main.env ?? []).map((e: any) => e.name)).size ===
          (main.env ?? []).length,
        main.env,
      );
      eq('resources', 'main.resources', main.resources, resources);
    }
    eq(
      'download-env',
      'template.initContainers',
      t.initContainers?.map((x: any) => ({ ...x, env: sortEnv(x.env) })),
      downloadEnv.size
        ? [{ name: 'storage-initializer', env: envList(downloadEnv) }]
        : undefined,
    );
  } else {
    eq('objects', 'kinds', kinds, [
      'ClusterServingRuntime',
      'PersistentVolumeClaim',
      'Job',
      'InferenceService',
      ...(routing === 'aigateway'
        ? ['Backend', 'AIServiceBackend', 'AIGatewayRoute']
        : []),
    ]);
    const runtimeName: string = p.runtime_name;
    const pvcName: string = p.weights_pvc;
    const weightsPath = `${exp.name}/${exp.modelId}`;

    const csr = byKind('ClusterServingRuntime');
    if (csr) {
      const m: any = csr.manifest;
      // The InferenceService references the ClusterServingRuntime by plumbing runtime_name; the
      // one applied must carry that name, or KServe finds no runtime for the predictor.
      eq(
        'csr-name',
        'ClusterServingRuntime.metadata.name',
        m.metadata.name,
        runtimeName,
      );
      eq('csr', 'ClusterServingRuntime.spec', m.spec, SERVING_RUNTIME.spec);
      ok(
        'csr',
        'ClusterServingRuntime cluster-scoped',
        csr.namespace === undefined,
        csr.namespace,
      );
      eq('csr', 'applyPolicy', csr.applyPolicy, 'create-if-absent');
      eq('labels', 'ClusterServingRuntime.labels', m.metadata.labels, {
        'app.kubernetes.io/managed-by': 'model-manager',
      });
      ok(
        'csr-format',
        'supportedModelFormats has format',
        (m.spec.supportedModelFormats ?? []).some(
          (f: any) => f.name === p.format,
        ),
        m.spec.supportedModelFormats,
      );
    }
    const pvc = byKind('PersistentVolumeClaim');
    if (pvc) {
      const m: any = pvc.manifest;
      eq(
        'pvc',
        'PVC.metadata',
        [m.metadata.name, m.metadata.namespace],
        [pvcName, ns],
      );
      eq('pvc', 'PVC.spec', m.spec, {
        accessModes: [p.weights_access_mode],
        ...(p.weights_storage_class
          ? { storageClassName: p.weights_storage_class }
          : {}),
        resources: { requests: { storage: p.weights_storage } },
      });
      eq('pvc', 'applyPolicy', pvc.applyPolicy, 'create-if-absent');
    }
    const job = byKind('Job');
    if (job) {
      const m: any = job.manifest;
      eq('job', 'Job.metadata.name', m.metadata.name, `${exp.name}-download`);
      eq('job', 'Job.metadata.namespace', m.metadata.namespace, ns);
      eq('labels', 'Job.labels', m.metadata.labels, labels);
      eq(
        'labels',
        'Job.template.labels',
        m.spec.template.metadata?.labels,
        labels,
      );
      eq('annotations', 'Job.annotations', m.metadata.annotations, annotations);
      eq('job', 'applyPolicy', job.applyPolicy, 'recreate-when-immutable');
      const spec = m.spec.template.spec;
      eq(
        'pull-secrets',
        'Job.imagePullSecrets',
        spec.imagePullSecrets,
        pullSecrets,
      );
      const ctr = spec.containers[0];
      eq('job', 'Job.image', ctr.image, p.model_downloader_image);
      eq('job', 'Job.command', ctr.command, ['/ovms/bin/ovms']);
      const task =
        OV_PROFILE.weights.tasks[exp.category] ??
        OV_PROFILE.weights.default_task;
      // README: --weight-format only for raw Hugging Face repos, never for OpenVINO/* (any case).
      const isIr = exp.modelId.toLowerCase().startsWith('openvino/');
      eq('pull-args', 'Job.args', ctr.args, [
        '--pull',
        `--source_model=${exp.modelId}`,
        `--model_repository_path=/models/${exp.name}`,
        `--model_name=${exp.name}`,
        `--task=${task}`,
        `--target_device=${String(p.device).toUpperCase()}`,
        ...(exp.weightFormat && !isIr
          ? [`--weight-format=${exp.weightFormat}`]
          : []),
      ]);
      eq(
        'download-env',
        'Job.env',
        sortEnv(ctr.env),
        emptyToUndefined(envList(downloadEnv)),
      );
      const mount = (ctr.volumeMounts ?? []).find(
        (v: any) => v.mountPath === '/models',
      );
      const vol = (spec.volumes ?? []).find((v: any) => v.name === mount?.name);
      eq(
        'job',
        'Job claim at /models',
        vol?.persistentVolumeClaim?.claimName,
        pvcName,
      );
    }
    const isvcObj = byKind('InferenceService');
    if (isvcObj) {
      const m: any = isvcObj.manifest;
      eq('isvc', 'apiVersion', m.apiVersion, 'serving.kserve.io/v1beta1');
      eq(
        'isvc',
        'metadata',
        [m.metadata.name, m.metadata.namespace],
        [exp.name, ns],
      );
      eq('labels', 'InferenceService.labels', m.metadata.labels, {
        ...labels,
        ...(routing === 'aigateway'
          ? { 'networking.kserve.io/visibility': 'cluster-local' }
          : {}),
      });
      eq(
        'annotations',
        'InferenceService.annotations',
        m.metadata.annotations,
        {
          ...annotations,
          'serving.kserve.io/deploymentMode': p.deployment_mode,
        },
      );
      const pred = m.spec.predictor;
      eq(
        'pull-secrets',
        'predictor.imagePullSecrets',
        pred.imagePullSecrets,
        pullSecrets,
      );
      const model = pred.model;
      eq('isvc-runtime', 'predictor.model.runtime', model.runtime, runtimeName);
      eq('isvc', 'predictor.model.modelFormat', model.modelFormat, {
        name: p.format,
      });
      eq(
        'storage-uri',
        'predictor.model.storageUri',
        model.storageUri,
        `pvc://${pvcName}/${weightsPath}`,
      );
      eq('image', 'predictor.model.image', model.image, exp.image);
      eq(
        'args',
        'predictor.model.args',
        model.args,
        emptyToUndefined(exp.args),
      );
      eq(
        'env',
        'predictor.model.env',
        sortEnv(model.env),
        emptyToUndefined(envList(exp.env)),
      );
      eq('resources', 'predictor.model.resources', model.resources, resources);
      const wait = (pred.initContainers ?? []).find(
        (x: any) => x.name === 'wait-for-weights',
      );
      ok('isvc', 'wait-for-weights', !!wait, pred.initContainers);
      if (wait) {
        const weightsEnv = Object.fromEntries(
          (wait.env ?? []).map((e: any) => [e.name, e.value]),
        );
        eq('isvc', 'wait-for-weights env', weightsEnv, {
          MODEL_NAME: exp.name,
          WEIGHTS_PATH: weightsPath,
        });
        const vol = (pred.volumes ?? []).find(
          (v: any) => v.name === wait.volumeMounts?.[0]?.name,
        );
        eq(
          'isvc',
          'wait-for-weights claim',
          vol?.persistentVolumeClaim?.claimName,
          pvcName,
        );
      }
      // The Job writes <repository path>/<source model>: the same path the predictor mounts.
      const jobArgs: string[] =
        (job?.manifest as any)?.spec?.template?.spec?.containers?.[0]?.args ??
        [];
      const arg = (k: string) =>
        jobArgs.find(a => a.startsWith(`--${k}=`))?.split('=')[1];
      eq(
        'weights-path',
        'Job writes where the predictor reads',
        `${(arg('model_repository_path') ?? '').replace(
          /^\/models\//,
          '',
        )}/${arg('source_model')}`,
        weightsPath,
      );
    }
  }

  if (routing === 'aigateway') {
    const svc =
      exp.runtime === 'vllm'
        ? kmetaChildName(exp.name, String(p.workload_service_suffix))
        : `${exp.name}${p.workload_service_suffix}`;
    const backend = byKind('Backend');
    if (backend) {
      const m: any = backend.manifest;
      eq('labels', 'Backend.labels', m.metadata.labels, labels);
      eq('backend', 'Backend.spec.endpoints', m.spec.endpoints, [
        {
          fqdn: {
            hostname: `${svc}.${ns}.svc.cluster.local`,
            port: Number(p.workload_service_port),
          },
        },
      ]);
    }
    const asb = byKind('AIServiceBackend');
    if (asb) {
      const m: any = asb.manifest;
      eq('labels', 'AIServiceBackend.labels', m.metadata.labels, labels);
      // /v1 on the gateway → the engine's prefix: /v3 for OVMS (api_prefix); vLLM serves /v1,
      // which is the AI gateway's default for the OpenAI schema.
      const prefix = m.spec.schema?.prefix;
      if (exp.runtime === 'openvino')
        eq('prefix', 'AIServiceBackend.schema', m.spec.schema, {
          name: 'OpenAI',
          prefix: '/v3',
        });
      else
        ok(
          'prefix',
          'AIServiceBackend.schema.prefix',
          prefix === undefined || prefix === '/v1',
          prefix,
        );
      eq('backend', 'AIServiceBackend.backendRef', m.spec.backendRef, {
        name: exp.name,
        kind: 'Backend',
        group: 'gateway.envoyproxy.io',
      });
    }
    const route = byKind('AIGatewayRoute');
    if (route) {
      const m: any = route.manifest;
      eq('labels', 'AIGatewayRoute.labels', m.metadata.labels, labels);
      eq('route', 'AIGatewayRoute.parentRefs', m.spec.parentRefs, [
        {
          name: p.gateway_name,
          namespace: p.gateway_namespace,
          kind: 'Gateway',
          group: 'gateway.networking.k8s.io',
        },
      ]);
      const rule = m.spec.rules?.[0];
      eq('route', 'AIGatewayRoute.match', rule?.matches, [
        {
          headers: [
            { type: 'Exact', name: 'x-ai-eg-model', value: servedName },
          ],
        },
      ]);
      // The `model` that reaches the engine (the request's, unless the route overrides it) must
      // be the name the engine serves.
      const engineServes =
        exp.runtime === 'openvino'
          ? exp.name
          : (byKind('LLMInferenceService')?.manifest as any)?.spec?.model?.name;
      const ref = rule?.backendRefs?.[0];
      eq(
        'route-served-name',
        'model the engine receives',
        ref?.modelNameOverride ?? servedName,
        engineServes,
      );
      eq('route', 'backendRefs[0].name', ref?.name, exp.name);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// CRD schema validation (OpenAPI v3 structural schema → JSON Schema for ajv, pruned per object)
// ---------------------------------------------------------------------------------------------

const CRD_DIR = path.join(REPO_ROOT, 'test-assets/crds');
const CRDS: Record<string, any> = {};
for (const dir of fs.readdirSync(CRD_DIR)) {
  const full = path.join(CRD_DIR, dir);
  if (!fs.statSync(full).isDirectory()) continue;
  for (const file of fs.readdirSync(full).filter(f => f.endsWith('.yaml'))) {
    for (const doc of YAML.parseAllDocuments(
      fs.readFileSync(path.join(full, file), 'utf8'),
    )) {
      const crd = doc.toJS();
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      for (const v of crd.spec.versions)
        CRDS[`${crd.spec.group}/${v.name}:${crd.spec.names.kind}`] =
          v.schema.openAPIV3Schema;
    }
  }
}

const isObj = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function toJsonSchema(s: any, value: unknown, root = false): any {
  const out: any = {};
  for (const k of [
    'enum',
    'pattern',
    'minimum',
    'maximum',
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
    'required',
    'multipleOf',
  ])
    if (s[k] !== undefined) out[k] = s[k];
  if (s['x-kubernetes-int-or-string']) out.type = ['integer', 'string'];
  else if (typeof s.type === 'string')
    out.type = s.nullable ? [s.type, 'null'] : s.type;
  for (const k of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(s[k]))
      out[k] = s[k].map((x: any) => toJsonSchema(x, value));
  if (isObj(value)) {
    const props: any = {};
    const extra = isObj(s.additionalProperties)
      ? s.additionalProperties
      : undefined;
    for (const key of Object.keys(value)) {
      if (root && key === 'metadata') {
        props.metadata = { type: 'object' };
        continue;
      }
      const sub = s.properties?.[key] ?? extra;
      if (sub) props[key] = toJsonSchema(sub, value[key]);
    }
    if (Object.keys(props).length) out.properties = props;
    if (
      s.properties &&
      !extra &&
      s.additionalProperties !== true &&
      !s['x-kubernetes-preserve-unknown-fields'] &&
      !s['x-kubernetes-embedded-resource']
    )
      out.additionalProperties = false;
  }
  if (Array.isArray(value) && isObj(s.items))
    out.items = value.map(item => toJsonSchema(s.items, item));
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();

function schemaProblems(o: RenderedObject): string[] {
  const m = o.manifest;
  if (o.kind === 'Job' || o.kind === 'PersistentVolumeClaim') {
    try {
      if (o.kind === 'Job') new Job(m as any).validate();
      else new PersistentVolumeClaim(m as any).validate();
      return [];
    } catch (e) {
      return [String((e as Error).message)];
    }
  }
  const schema = CRDS[`${o.apiVersion}:${o.kind}`];
  if (!schema) return [`no CRD for ${o.apiVersion} ${o.kind}`];
  const json = toJsonSchema(schema, m, true);
  const key = JSON.stringify(json);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(json);
    compiled.set(key, validate);
  }
  return validate(m)
    ? []
    : (validate.errors ?? []).map(e => `${e.instancePath} ${e.message}`);
}

// ---------------------------------------------------------------------------------------------
// Running a case
// ---------------------------------------------------------------------------------------------

interface Outcome {
  rendered: number;
  skipped: Array<{ model: string; error: string }>;
  mismatches: Array<Mismatch & { model: string }>;
}

function runCase(c: Case): Outcome {
  const outcome: Outcome = { rendered: 0, skipped: [], mismatches: [] };
  let catalog: Catalog;
  try {
    catalog = catalogOf(modelsYamlOf(c));
  } catch (e) {
    outcome.skipped.push({ model: '*', error: (e as Error).message });
    return outcome;
  }
  for (const name of Object.keys(c.models)) {
    let objects: RenderedObject[];
    try {
      objects = renderManifests(
        catalog,
        resolveServer(catalog, name, c.request[name] ?? {}),
        { namespace: c.namespace },
      );
    } catch (e) {
      outcome.skipped.push({ model: name, error: (e as Error).message });
      continue;
    }
    outcome.rendered++;
    const exp = expectedServer(c, name);
    for (const mm of checkModel(c, exp, objects))
      outcome.mismatches.push({ ...mm, model: name });
    for (const o of objects)
      for (const problem of schemaProblems(o))
        outcome.mismatches.push({
          rule: 'crd-schema',
          where: `${o.kind} ${problem}`,
          expected: 'valid',
          actual: problem,
          model: name,
        });
  }
  return outcome;
}

/** A case of the given models.yaml parts and request, for the minimized cases below. */
function minimal(
  models: Record<string, Model>,
  runtimes: Partial<Case['runtimes']> = {},
  namespace = 'models',
): Case {
  const base: Case['runtimes'] = {
    vllm: {
      default_version: '0.24.0',
      env: {},
      versions: {
        '0.24.0': { image: 'docker.io/vllm/vllm-openai-cpu:v0.24.0' },
      },
      categories: {
        llm: { defaults: { cpu: 8, memory: '16Gi', kv_cache_gb: 8 } },
        embed: { defaults: { cpu: 6, memory: '12Gi' } },
      },
    },
    openvino: {
      env: {},
      categories: { embed: { defaults: { cpu: 6, memory: '12Gi' } } },
    },
  };
  return {
    id: 'minimal',
    models,
    runtimes: { ...base, ...runtimes },
    namespace,
    request: {},
  };
}

describe('rendered objects: differential check against the spec, README and engines', () => {
  const SEEDS = Array.from({ length: 300 }, (_, i) => 1000 + i * 7919);
  const totals = {
    cases: 0,
    models: 0,
    rendered: 0,
    skipped: 0,
    mismatchedModels: 0,
  };
  const byRule = new Map<string, { count: number; example: string }>();
  const skippedReasons = new Map<string, number>();
  const mismatches: string[] = [];
  let summary = '';

  beforeAll(() => {
    for (const seed of SEEDS) {
      const c = genCase(seed);
      const outcome = runCase(c);
      totals.cases++;
      totals.models += Object.keys(c.models).length;
      totals.rendered += outcome.rendered;
      totals.skipped += outcome.skipped.length;
      for (const s of outcome.skipped) {
        const reason = s.error.replace(/\s+/g, ' ').slice(0, 110);
        skippedReasons.set(reason, (skippedReasons.get(reason) ?? 0) + 1);
      }
      totals.mismatchedModels += new Set(
        outcome.mismatches.map(m => m.model),
      ).size;
      for (const m of outcome.mismatches) {
        const line = `${c.id} ${m.model}: [${m.rule}] ${
          m.where
        }: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(
          m.actual,
        )}`;
        const entry = byRule.get(m.rule) ?? { count: 0, example: line };
        entry.count++;
        byRule.set(m.rule, entry);
        mismatches.push(line);
      }
    }
    summary = [
      `cases ${totals.cases}, models ${totals.models}, rendered ${totals.rendered}, skipped ${totals.skipped}, models with a mismatch ${totals.mismatchedModels}`,
      ...[...byRule].map(
        ([rule, e]) => `  mismatch ${rule} x${e.count}: ${e.example}`,
      ),
      ...[...skippedReasons]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([r, n]) => `  skipped x${n}: ${r}`),
    ].join('\n');
  });

  it('renders a few hundred generated models (most of what it generates)', () => {
    expect(totals.rendered).toBeGreaterThan(300);
    // A case is skipped whole when one of its models is refused (the whole file is invalid).
    expect(totals.rendered).toBeGreaterThan(totals.models * 0.6);
  });

  it('every rendered object matches the independent expectation and its CRD schema', () => {
    // The report (counts, each kind of mismatch with an example) shows only when it fails.
    expect(
      mismatches.length === 0
        ? ''
        : `${summary}\n${mismatches.slice(0, 30).join('\n')}`,
    ).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// Minimized divergences: each the smallest models.yaml that shows one
// ---------------------------------------------------------------------------------------------

describe('the checks are real', () => {
  it('the CRD validation refuses a wrong field, an unknown field and a wrong type', () => {
    const c = minimal({
      'bge-ov': {
        model_id: 'OpenVINO/bge-small-en-v1.5-int8-ov',
        category: 'embed',
        server: { runtime: 'openvino' },
      },
    });
    const catalog = catalogOf(modelsYamlOf(c));
    const objects = renderManifests(catalog, resolveServer(catalog, 'bge-ov'), {
      namespace: 'models',
    });
    for (const o of objects) expect(schemaProblems(o)).toEqual([]);
    const asb = objects.find(o => o.kind === 'AIServiceBackend')!;
    const isvc = objects.find(o => o.kind === 'InferenceService')!;
    const job = objects.find(o => o.kind === 'Job')!;
    const bad = (o: RenderedObject, change: (m: any) => void) => {
      const manifest = JSON.parse(JSON.stringify(o.manifest));
      change(manifest);
      return schemaProblems({ ...o, manifest });
    };
    expect(bad(asb, m => (m.spec.schema.name = 'OVMS'))).not.toEqual([]);
    expect(bad(isvc, m => (m.spec.predictor.model.bogus = 1))).not.toEqual([]);
    expect(bad(isvc, m => (m.spec.predictor.model.args = 'x'))).not.toEqual([]);
    expect(bad(job, m => (m.spec.backoffLimit = 'x'))).not.toEqual([]);
  });

  it('model-manager refuses, with a clear error, what would break on the cluster', () => {
    const refusal = (c: Case) => runCase(c).skipped.map(s => s.error);
    const ov: Model = {
      model_id: 'OpenVINO/bge-small-en-v1.5-int8-ov',
      category: 'embed',
      server: { runtime: 'openvino' },
    };
    // runtime_name other than the ClusterServingRuntime manifest's name.
    expect(
      refusal(
        minimal(
          { 'bge-ov': ov },
          {
            openvino: {
              env: {},
              runtime_name: 'ovms-runtime',
              categories: { embed: { defaults: { cpu: 6, memory: '12Gi' } } },
            },
          },
        ),
      ),
    ).toEqual([expect.stringMatching(/runtime_name is 'ovms-runtime'/)]);
    // A version key that is no label value.
    expect(
      refusal(
        minimal(
          {
            qwen: {
              model_id: 'Qwen/Qwen2.5-7B-Instruct',
              category: 'llm',
              server: { runtime: 'vllm' },
            },
          },
          {
            vllm: {
              default_version: '0.22.0+cpu',
              env: {},
              versions: {
                '0.22.0+cpu': {
                  image: 'docker.io/vllm/vllm-openai-cpu:v0.22.0',
                },
              },
              categories: {
                llm: { defaults: { cpu: 8, memory: '16Gi', kv_cache_gb: 8 } },
              },
            },
          },
        ),
      ),
    ).toEqual([expect.stringMatching(/label value/)]);
    // weight_format on an IR repo, in any case.
    expect(
      refusal(
        minimal({
          'mistral-ov': {
            ...ov,
            model_id: 'Openvino/mistral-7b-instruct-v0.3-int4-ov',
            weight_format: 'int4',
          },
        }),
      ),
    ).toEqual([expect.stringMatching(/weight_format/)]);
  });
});

describe('what it found (each rendered a broken object on 2026-12-04; now refused with the fix)', () => {
  it('vLLM on aigateway with a name over 43 characters: the Backend would target a Service KServe never creates', () => {
    // KServe names the workload Service kmeta.ChildName(name, "-kserve-workload-svc")
    // (pkg/controller/v1alpha2/llmisvc/workload.go reconcileWorkloadService): over 63 characters
    // it is hashed, so <name>-kserve-workload-svc does not exist (and is no DNS label).
    const c = minimal(
      {
        ['a'.repeat(44)]: {
          model_id: 'Qwen/Qwen2.5-7B-Instruct',
          category: 'llm',
          server: { runtime: 'vllm' },
        },
      },
      {
        vllm: {
          default_version: '0.24.0',
          routing: 'aigateway',
          env: {},
          versions: {
            '0.24.0': { image: 'docker.io/vllm/vllm-openai-cpu:v0.24.0' },
          },
          categories: {
            llm: { defaults: { cpu: 8, memory: '16Gi', kv_cache_gb: 8 } },
          },
        },
      },
    );
    expect(runCase(c).skipped.map(s => s.error)).toEqual([
      expect.stringMatching(
        /is too long: it names the Service KServe puts in front of its pods, which the aigateway route's Backend names .*Shorten the model name to at most 43 characters/,
      ),
    ]);
  });

  it('OpenVINO served_model_name: model_id would route a name OVMS does not serve', () => {
    // OVMS serves --model_name={{.Name}} (the ClusterServingRuntime): the InferenceService's name.
    // The AIGatewayRoute matches model_id and passes it on unchanged (no modelNameOverride), so
    // OVMS answers every request with "model not found".
    const c = minimal(
      {
        'bge-ov': {
          model_id: 'OpenVINO/bge-small-en-v1.5-int8-ov',
          category: 'embed',
          server: { runtime: 'openvino' },
        },
      },
      {
        openvino: {
          env: {},
          served_model_name: 'model_id',
          categories: { embed: { defaults: { cpu: 6, memory: '12Gi' } } },
        },
      },
    );
    expect(runCase(c).skipped.map(s => s.error)).toEqual([
      expect.stringMatching(/served_model_name must be one of model_name/),
    ]);
  });
});
