import type { Origin } from '../catalog/types';
import type { EngineProfile } from '../constants';
import type { EnvMap } from '../schema/modelsFileSchema';
import { readFlag, type FlagReader } from './readFlag';
import {
  isSecretKeyRef,
  type EnvValue,
  type SecretKeyRef,
} from '../schema/secretRef';
import type {
  RemovedEnvVar,
  Replaced,
  ResolvedArg,
  ResolvedEnvVar,
  ResolvedPullSecret,
  Traced,
} from './types';

/** Sets a traced value, remembering what it replaced. Never mutates `previous`. */
export function layer<T>(
  previous: Traced<T> | undefined,
  value: T,
  origin: Origin,
): Traced<T> {
  return {
    value,
    origin,
    overrode: previous
      ? [
          ...previous.overrode,
          { value: previous.value, origin: previous.origin },
        ]
      : [],
  };
}

/**
 * Ordered env accumulator. A later layer replaces a variable in place (keeping the position
 * where it first appeared, so output order is stable); `null` removes it. A variable set again
 * after a removal keeps its history: what it was, and which layer removed it.
 */
export class EnvLayers {
  private readonly vars = new Map<string, ResolvedEnvVar>();
  private readonly removed = new Map<string, RemovedEnvVar>();

  apply(
    env: EnvMap | Record<string, string | null | SecretKeyRef> | undefined,
    originOf: (name: string) => Origin,
  ) {
    if (!env) return;
    for (const [name, raw] of Object.entries(env)) {
      this.set(name, envValueOf(raw), originOf(name));
    }
  }

  set(name: string, value: EnvValue | null, origin: Origin) {
    const previous = this.vars.get(name);
    if (value === null) {
      if (previous) {
        this.vars.delete(name);
        this.removed.set(name, {
          name,
          origin,
          overrode: [
            ...previous.overrode,
            { value: previous.value, origin: previous.origin },
          ],
        });
      }
      return;
    }
    const removal = this.removed.get(name);
    if (removal) {
      this.removed.delete(name);
      const last = removal.overrode[removal.overrode.length - 1];
      const history: Array<Replaced<EnvValue>> = [
        ...removal.overrode,
        { value: last.value, origin: removal.origin, removed: true },
      ];
      this.vars.set(name, { name, value, origin, overrode: history });
      return;
    }
    this.vars.set(name, { name, ...layer(previous, value, origin) });
  }

  result(): { env: ResolvedEnvVar[]; removedEnv: RemovedEnvVar[] } {
    return {
      env: [...this.vars.values()],
      removedEnv: [...this.removed.values()],
    };
  }
}

/** A layer's env value as the resolver keeps it: text, a fresh Secret reference, or null. */
function envValueOf(
  raw: string | number | boolean | null | SecretKeyRef,
): EnvValue | null {
  if (raw === null) return null;
  if (isSecretKeyRef(raw)) {
    const { name, key } = raw.secretKeyRef;
    return { secretKeyRef: { name, key } };
  }
  return String(raw);
}

/**
 * Ordered set of names (image pull secrets): each layer adds its names in order; a name a later
 * layer lists again keeps its first position and records the later layer as its origin.
 */
export class NameLayers {
  private readonly names = new Map<string, ResolvedPullSecret>();

  apply(
    names: readonly string[] | undefined,
    originOf: (index: number) => Origin,
  ) {
    names?.forEach((name, index) => {
      this.names.set(name, layer(this.names.get(name), name, originOf(index)));
    });
  }

  result(): ResolvedPullSecret[] {
    return [...this.names.values()];
  }
}

/** `--max-model-len=8192` -> `--max-model-len`. */
export function flagName(arg: string): string {
  const eq = arg.indexOf('=');
  return eq === -1 ? arg : arg.slice(0, eq);
}

/** The parts of an engine profile that say how its argument parser reads flag names. */
export type FlagSpelling = Pick<
  EngineProfile,
  'flagAliases' | 'flagUnderscoreIsDash'
>;

/**
 * A flag name as the engine's parser reads it: short aliases become their long flag
 * (`-ep` -> `--enable-expert-parallel`), and where the engine reads `_` as `-` in a long flag's
 * name up to the first `.` (vLLM's FlexibleArgumentParser), so do we.
 */
export function flagKey(flag: string, spelling: FlagSpelling): string {
  const alias = Object.prototype.hasOwnProperty.call(spelling.flagAliases, flag)
    ? spelling.flagAliases[flag]
    : undefined;
  if (alias) return alias;
  if (spelling.flagUnderscoreIsDash && flag.startsWith('--')) {
    const dot = flag.indexOf('.');
    const name = dot === -1 ? flag : flag.slice(0, dot);
    return name.replace(/_/g, '-') + (dot === -1 ? '' : flag.slice(dot));
  }
  return flag;
}

/**
 * Ordered args accumulator. Each item is one flag (`--flag` or `--flag=value`). An item for an
 * option an earlier item set (a later layer, or later in the same layer) replaces it in place:
 * the output holds one item per option, the last one written, at the position where the option
 * first appeared, and the replaced items are recorded. Options are compared as the engine reads
 * them ({@link readFlag}): `--max_model_len` is `--max-model-len`, `-ep` is
 * `--enable-expert-parallel`, and `--x` / `--no-x` of a boolean are one option (argparse's
 * BooleanOptionalAction sets one dest from both, the last read wins), so a later layer's `--x`
 * replaces an earlier `--no-x` instead of standing beside it. The output keeps the spelling each
 * layer wrote.
 */
export class ArgLayers {
  private readonly args = new Map<string, ResolvedArg>();

  constructor(private readonly reader: FlagReader) {}

  apply(
    args: readonly string[] | undefined,
    originOf: (index: number) => Origin,
  ) {
    args?.forEach((arg, index) => {
      const { flag, key } = readFlag(arg, this.reader);
      const previous = this.args.get(key);
      this.args.set(key, {
        flag,
        key,
        ...layer(previous, arg, originOf(index)),
      });
    });
  }

  result(): ResolvedArg[] {
    return [...this.args.values()];
  }
}
