import type { Origin } from '../catalog/types';
import type { EnvMap } from '../schema/modelsFileSchema';
import type {
  RemovedEnvVar,
  ResolvedArg,
  ResolvedEnvVar,
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
      ? [...previous.overrode, { value: previous.value, origin: previous.origin }]
      : [],
  };
}

/**
 * Ordered env accumulator. A later layer replaces a variable in place (keeping the position
 * where it first appeared, so output order is stable); `null` removes it.
 */
export class EnvLayers {
  private readonly vars = new Map<string, ResolvedEnvVar>();
  private readonly removed = new Map<string, RemovedEnvVar>();

  apply(
    env: EnvMap | Record<string, string | null> | undefined,
    originOf: (name: string) => Origin,
  ) {
    if (!env) return;
    for (const [name, raw] of Object.entries(env)) {
      this.set(name, raw === null ? null : String(raw), originOf(name));
    }
  }

  set(name: string, value: string | null, origin: Origin) {
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
    this.removed.delete(name);
    this.vars.set(name, { name, ...layer(previous, value, origin) });
  }

  result(): { env: ResolvedEnvVar[]; removedEnv: RemovedEnvVar[] } {
    return { env: [...this.vars.values()], removedEnv: [...this.removed.values()] };
  }
}

/** `--max-model-len=8192` -> `--max-model-len`. */
export function flagName(arg: string): string {
  const eq = arg.indexOf('=');
  return eq === -1 ? arg : arg.slice(0, eq);
}

/**
 * Ordered args accumulator. Each item is one flag (`--flag` or `--flag=value`). A flag repeated
 * by a later layer (or later in the same layer) replaces the earlier one in place: last wins,
 * position of first appearance kept, the replaced value recorded.
 */
export class ArgLayers {
  private readonly args = new Map<string, ResolvedArg>();

  apply(args: readonly string[] | undefined, originOf: (index: number) => Origin) {
    args?.forEach((arg, index) => {
      const flag = flagName(arg);
      const previous = this.args.get(flag);
      this.args.set(flag, { flag, ...layer(previous, arg, originOf(index)) });
    });
  }

  result(): ResolvedArg[] {
    return [...this.args.values()];
  }
}
