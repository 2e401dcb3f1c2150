import type { Origin } from '../catalog/types';
import { formatEnvValue, type EnvValue } from '../schema/secretRef';
import type { Replaced, ResolvedServer, Traced } from './types';

/** One line of an explanation: a value, the layer that set it, and what it replaced. */
export interface ExplainRow {
  /** e.g. `version`, `image`, `env.VLLM_LOGGING_LEVEL`, `args --max-model-len`, `resources.cpu` */
  key: string;
  /**
   * The value in effect; `(removed)` for an env var a layer removed with null; for an env var read
   * from a Secret, the reference `secret <name>/<key>` (a Secret's value is never known here).
   */
  value: string;
  layer: Origin['layer'];
  /** `models.yaml:42:7 models.qwen.server.server_version` */
  source: string;
  /** Oldest first; `removed`: that layer removed the value with null. */
  overrode: Array<{
    value: string;
    layer: Origin['layer'];
    source: string;
    removed?: boolean;
  }>;
}

export function describeOrigin(origin: Origin): string {
  const where =
    origin.line !== undefined
      ? `${origin.file}:${origin.line}:${origin.col}`
      : origin.file;
  return origin.path ? `${where} ${origin.path}` : where;
}

/** Flattens a resolved server into rows: the CLI's --explain table and the UI's provenance. */
export function explainServer(server: ResolvedServer): ExplainRow[] {
  const rows: ExplainRow[] = [];
  const text = (value: string | number | EnvValue) =>
    typeof value === 'number' ? String(value) : formatEnvValue(value);
  const history = (overrode: Array<Replaced<string | number | EnvValue>>) =>
    overrode.map(o => ({
      value: text(o.value),
      layer: o.origin.layer,
      source: describeOrigin(o.origin),
      ...(o.removed ? { removed: true } : {}),
    }));
  const add = (key: string, traced: Traced<string | number | EnvValue>) =>
    rows.push({
      key,
      value: text(traced.value),
      layer: traced.origin.layer,
      source: describeOrigin(traced.origin),
      overrode: history(traced.overrode),
    });
  const addRemoved = (
    key: string,
    removal: {
      origin: Origin;
      overrode: Array<Replaced<string | number | EnvValue>>;
    },
  ) =>
    rows.push({
      key,
      value: '(removed)',
      layer: removal.origin.layer,
      source: describeOrigin(removal.origin),
      overrode: history(removal.overrode),
    });
  if (server.version) add('version', server.version);
  add('image', server.image);
  add('resources.cpu', server.resources.cpu);
  add('resources.memory', server.resources.memory);
  if (server.resources.kvCacheGb)
    add('resources.kv_cache_gb', server.resources.kvCacheGb);
  if (server.weightFormat) add('weight_format', server.weightFormat);
  for (const e of server.env) add(`env.${e.name}`, e);
  for (const e of server.removedEnv) addRemoved(`env.${e.name}`, e);
  for (const r of server.removed ?? []) addRemoved(r.key, r);
  for (const p of server.imagePullSecrets ?? [])
    add(`image_pull_secrets ${p.value}`, p);
  for (const a of server.args) add(`args ${a.flag}`, a);
  for (const [key, traced] of Object.entries(server.plumbing)) {
    if (traced) add(`plumbing.${key}`, traced);
  }
  return rows;
}
