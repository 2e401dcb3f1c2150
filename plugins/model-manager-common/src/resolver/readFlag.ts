import type { EngineProfile, FlagKind } from '../profile/types';
import { flagKey, flagName } from './layering';

/** The parts of an engine profile that say how its argument parser reads an args item. */
export type FlagReader = Pick<
  EngineProfile,
  | 'flagAliases'
  | 'flagUnderscoreIsDash'
  | 'flagKinds'
  | 'flagAbbreviations'
  | 'moeOnlyFlags'
>;

/** One args item as the engine's parser reads it. */
export interface FlagReading {
  /** The part before `=`, as written: `--no-enable_prefix_caching`, `-tp`. */
  flag: string;
  /**
   * The option the engine sets (canonical, without a dotted key or `--no-`):
   * `--enable-prefix-caching`, `--tensor-parallel-size`, `--eplb-config`.
   */
  option: string;
  /**
   * What a later item must share to replace this one: the option plus its dotted key
   * (`--eplb-config.window_size`). `--x` and `--no-x` share one.
   */
  key: string;
  /** `--no-x` of a boolean option. */
  negated: boolean;
  /** The value after the first `=`, if any. */
  value?: string;
  /** How the engine's parser reads the option; absent when the profile does not list it. */
  kind?: FlagKind;
}

// argparse.BooleanOptionalAction adds `'--no-' + option_string[2:]` for each `--` option string
// (CPython Lib/argparse.py, BooleanOptionalAction.__init__).
const NEGATION = '--no-';

/**
 * Reads an args item as the engine does: short aliases and `_` (vLLM's FlexibleArgumentParser,
 * see {@link flagKey}), dotted keys (`--eplb-config.window_size=10`: FlexibleArgumentParser
 * merges them into the option's JSON value, vllm/utils/argparse_utils.py `create_nested_dict`),
 * and `--no-x` as the negation of a boolean `--x` (one option: the item the engine reads last
 * wins).
 */
export function readFlag(item: string, reader: FlagReader): FlagReading {
  const attached = attachedValue(item, reader);
  const flag = attached ? attached.flag : flagName(item);
  const eq = item.indexOf('=');
  let value: string | undefined;
  if (attached) value = attached.value;
  else if (eq !== -1) value = item.slice(eq + 1);
  const spelled = flagKey(flag, reader);
  const dot = spelled.startsWith('--') ? spelled.indexOf('.') : -1;
  let option = dot === -1 ? spelled : spelled.slice(0, dot);
  const dotted = dot === -1 ? '' : spelled.slice(dot);
  let negated = false;
  if (option.startsWith(NEGATION)) {
    const positive = `--${option.slice(NEGATION.length)}`;
    if (reader.flagKinds[positive] === 'boolean') {
      option = positive;
      negated = true;
    }
  }
  return {
    flag,
    option,
    key: option + dotted,
    negated,
    value,
    kind: reader.flagKinds[option],
  };
}

/**
 * A one-letter short option with its value written on (`-O3`, `-qfp8`): argparse reads `-xVALUE`
 * as `-x VALUE` for a single-character option string (CPython Lib/argparse.py
 * `_get_option_tuples`: the short option prefix `arg[:2]` and the explicit argument `arg[2:]`),
 * and vLLM's FlexibleArgumentParser turns `-O3` and `-Odecode` into `--optimization-level 3`
 * itself (vllm/utils/argparse_utils.py parse_args, vllm-project/vllm@00da11e3). Only for a short
 * option the profile declares (`flag_aliases`), and not when the whole item is one (`-tp`).
 */
function attachedValue(
  item: string,
  reader: FlagReader,
): { flag: string; value: string } | undefined {
  if (item.startsWith('--') || !item.startsWith('-') || item.length <= 2)
    return undefined;
  const short = item.slice(0, 2);
  const has = (flag: string) =>
    Object.prototype.hasOwnProperty.call(reader.flagAliases, flag);
  if (!has(short) || has(flagName(item)) || item[2] === '=') return undefined;
  return { flag: short, value: item.slice(2) };
}

/** Each reader's declared option strings, made once: a profile is never changed after it is read. */
const DECLARED = new WeakMap<FlagReader, ReadonlySet<string>>();

/** Every option string the engine's parser declares: aliases, MoE-only flags, `--x` and `--no-x`. */
function declaredFlags(reader: FlagReader): ReadonlySet<string> {
  let declared = DECLARED.get(reader);
  if (!declared) {
    const flags = new Set<string>([
      ...Object.values(reader.flagAliases),
      ...reader.moeOnlyFlags,
    ]);
    for (const [f, kind] of Object.entries(reader.flagKinds)) {
      flags.add(f);
      if (kind === 'boolean') flags.add(NEGATION + f.slice(2));
    }
    declared = flags;
    DECLARED.set(reader, declared);
  }
  return declared;
}

/**
 * The declared long flags an abbreviation could stand for (argparse matches a prefix of every
 * option string, `--no-x` included). Empty when `option` is declared, or the engine's parser does
 * not read abbreviations.
 */
export function abbreviationOf(option: string, reader: FlagReader): string[] {
  if (!reader.flagAbbreviations || !option.startsWith('--')) return [];
  const declared = declaredFlags(reader);
  if (declared.has(option)) return [];
  return [...declared].filter(f => f.startsWith(option)).sort();
}
