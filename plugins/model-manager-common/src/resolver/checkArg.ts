import type { EngineProfile } from '../profile/types';
import { abbreviationOf, readFlag, type FlagReading } from './readFlag';
import type { ResolvedArg } from './types';

/**
 * One args item is one flag as the engine's parser reads it: `--flag` or `--flag=value`, never a
 * bare value, `-`/`--` alone, or a flag and its value separated by a space (the engine gets one
 * token and does not read it as the flag). MoE-only flags need `moe: true`, in any spelling.
 */
export function checkArg(
  arg: ResolvedArg,
  profile: EngineProfile,
  moe: boolean,
  model: string,
): string | undefined {
  if (!arg.flag.startsWith('-')) {
    return `'${arg.value}' is not a flag; each args item is one flag such as --max-model-len=8192 (write --flag=value as a single item)`;
  }
  if (arg.flag === '-' || arg.flag === '--') {
    return `'${arg.value}' alone is not a flag: ${profile.engine}'s parser reads '--' as the end of options and '-' as a value. Remove it; each args item is one flag such as --max-model-len=8192`;
  }
  const space = /\s/.exec(arg.flag);
  if (space) {
    const fixed = arg.value.replace(/\s+/, '=');
    return `'${
      arg.value
    }' is a flag and its value in one item separated by a space; the engine gets it as one token and does not read it as ${arg.flag.slice(
      0,
      space.index,
    )}. Write ${fixed}`;
  }
  if (!profile.flagEqualsValue && arg.value.includes('=')) {
    return `'${arg.value}' is a flag with a value, but ${
      profile.engine
    }'s parser does not read --flag=value as one item (its engine profile ${
      profile.file
    } says flag_equals_value: false), and an args item cannot hold a flag and its value apart. ${
      profile.argsHint ?? 'Set it another way, e.g. through env'
    }`;
  }
  const read = readFlag(arg.value, profile);
  const spelling = spellingProblem(arg, read, profile);
  if (spelling) return spelling;
  // `--no-enable-expert-parallel` turns the feature off: harmless on a dense model.
  if (!moe && !read.negated && profile.moeOnlyFlags.includes(read.option)) {
    const spelled =
      arg.flag === read.option ? arg.flag : `${arg.flag} (${read.option})`;
    return `${spelled} is a MoE-only flag and crashes dense models; model ${model} is not marked moe: true. Remove ${arg.flag} from this layer, or set moe: true on the model if it is a mixture-of-experts model`;
  }
  return undefined;
}

const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/**
 * An item the engine's parser refuses at start, or reads as another flag than the one written:
 * an abbreviation of a declared flag, a value on a flag that takes none, no value on one that
 * takes one, `--no-` on a flag without a negative form (profile `flag_kinds`).
 */
function spellingProblem(
  arg: ResolvedArg,
  read: FlagReading,
  profile: EngineProfile,
): string | undefined {
  const { engine } = profile;
  const full = abbreviationOf(read.option, profile);
  if (full.length === 1) {
    return `${arg.flag} is an abbreviation of ${full[0]}: ${engine}'s parser reads unambiguous prefixes of its flags (argparse allow_abbrev, engine profile ${profile.file}: flag_abbreviations), so other layers' ${full[0]} and the checks would not see it. Write ${full[0]} in full`;
  }
  if (full.length > 1) {
    return `${arg.flag} is an ambiguous abbreviation (${full.join(
      ', ',
    )}): ${engine}'s parser stops at start with "ambiguous option". Write the flag in full`;
  }
  const negative = `--no-${read.option.slice(2)}`;
  if (read.kind === 'boolean' && read.value !== undefined) {
    // `--no-x=true` asks for off, like `--x=false`.
    const off = FALSE_WORDS.has(read.value.toLowerCase()) !== read.negated;
    const fix = off ? negative : read.option;
    return `${arg.value}: ${engine} reads ${read.option} as a boolean flag (--x or ${negative}) that takes no value, and stops at start ("ignored explicit argument"). Write ${fix}`;
  }
  if (read.kind === 'store_true' && read.value !== undefined) {
    const fix = FALSE_WORDS.has(read.value.toLowerCase())
      ? `remove ${arg.flag} (it is off unless given)`
      : `write ${read.option}`;
    return `${arg.value}: ${engine} reads ${read.option} as a switch that takes no value, and stops at start ("ignored explicit argument"); ${fix}`;
  }
  if (read.kind === 'value' && read.value === undefined) {
    const alias = arg.flag === read.option ? '' : ` (${read.option})`;
    return `${arg.flag}${alias} takes a value: ${engine} stops at start with "expected one argument". Write ${arg.flag}=<value> as one item`;
  }
  if (
    arg.flag.startsWith('--no-') &&
    !read.negated &&
    read.kind === undefined
  ) {
    const positive = `--${read.option.slice(5)}`;
    const kind = profile.flagKinds[positive];
    if (kind === 'store_true' || kind === 'value') {
      return `${arg.flag}: ${engine} has no negative form of ${positive} (${
        kind === 'value' ? 'it takes a value' : 'a switch, off unless given'
      }). Remove the item, or set ${positive} ${
        kind === 'value' ? 'to the value you want' : 'nowhere'
      }`;
    }
  }
  return undefined;
}

/**
 * An option written whole (`--eplb-config={"window_size":5}`) and by dotted keys
 * (`--eplb-config.num_redundant_experts=2`) in the same args: vLLM's FlexibleArgumentParser
 * gathers the dotted keys into one JSON value and appends it after every other item
 * (vllm/utils/argparse_utils.py: "Add the dict args back as if they were originally passed as
 * JSON"), so it replaces the whole form instead of merging with it. One problem per dotted item.
 */
export function checkDottedForms(
  args: readonly ResolvedArg[],
  profile: EngineProfile,
): Array<{ arg: ResolvedArg; message: string }> {
  const whole = new Map<string, ResolvedArg>();
  const dotted: Array<{ arg: ResolvedArg; option: string }> = [];
  for (const arg of args) {
    const read = readFlag(arg.value, profile);
    if (read.key === read.option) whole.set(read.option, arg);
    else if (read.flag.startsWith('--'))
      dotted.push({ arg, option: read.option });
  }
  return dotted
    .filter(d => whole.has(d.option))
    .map(({ arg, option }) => ({
      arg,
      message: `${arg.flag} sets a key of ${option}, which ${
        whole.get(option)!.value
      } (${whole.get(option)!.origin.path}) sets whole: ${
        profile.engine
      } reads the dotted keys as one JSON value after every other flag, which replaces the whole value rather than merging with it. Write ${option} one way: the dotted keys, or one JSON value holding them all`,
    }));
}
