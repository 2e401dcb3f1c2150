import type { EngineProfile } from '../profile/types';
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
  if (!moe && profile.moeOnlyFlags.includes(arg.key)) {
    const spelled =
      arg.flag === arg.key ? arg.flag : `${arg.flag} (${arg.key})`;
    return `${spelled} is a MoE-only flag and crashes dense models; model ${model} is not marked moe: true. Remove ${arg.flag} from this layer, or set moe: true on the model if it is a mixture-of-experts model`;
  }
  return undefined;
}
