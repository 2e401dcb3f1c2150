import type { ModelManagerApi } from '../../api';
import { argProblems } from './validation';

/**
 * What the chosen model says about the flags typed for it, per row: the backend resolves the
 * model with the flags as request overrides (`GET /models/:name/resolved?arg=`), which runs the
 * same checks as a deploy (common resolver checkArg: MoE-only flags on a dense model, the
 * engine's spelling rules). Only rows that pass the local checks are sent; the answer's
 * `args[i]:` lines are mapped back to the rows. Problems with other settings (a server version
 * the new model does not list) are the other fields' business and are not blamed on a flag.
 */
export async function modelArgProblems(
  api: Pick<ModelManagerApi, 'resolve'>,
  model: string,
  args: string[],
  owner?: string,
): Promise<Array<string | undefined>> {
  const local = argProblems(args);
  const sent = args
    .map((arg, row) => ({ arg, row }))
    .filter(({ row }) => !local[row]);
  const problems: Array<string | undefined> = args.map(() => undefined);
  if (!sent.length) return problems;
  try {
    await api.resolve(model, { args: sent.map(s => s.arg) });
    return problems;
  } catch (e) {
    const error = e as { body?: { error?: { message?: string } } } & Error;
    const message = error.body?.error?.message ?? error.message ?? '';
    for (const line of message.split('\n')) {
      const m = /(?:^|\s)args\[(\d+)\]: (.*)$/.exec(line);
      const row = m ? sent[Number(m[1])]?.row : undefined;
      if (m && row !== undefined && !problems[row])
        problems[row] = forPortalUser(m[2], owner);
    }
    return problems;
  }
}

/**
 * The engine's advice "set moe: true on the model" is for whoever edits models.yaml, not for a
 * portal user: say who can (the model's owner) and where.
 */
export function forPortalUser(message: string, owner?: string): string {
  const advice =
    /, or set moe: true on the model if it is a mixture-of-experts model$/;
  if (!advice.test(message)) return message;
  return `${message.replace(advice, '')}. Only the model's owner (${
    owner ?? 'see the model in the catalog'
  }) can mark it a mixture-of-experts model, with moe: true on the model in models.yaml`;
}

/**
 * The runtime each list of flags was typed for, in this page (the Where step unmounts when the
 * user goes back to the Model step, so the field cannot remember it itself). Keyed by the flags
 * as typed; a list that came with a link is not in it and is only re-checked.
 */
const typedFor = new Map<string, string>();
const keyOf = (args: string[]) => JSON.stringify(args);

export function rememberRuntimeOf(args: string[], runtime: string) {
  if (args.length) typedFor.set(keyOf(args), runtime);
}

/** The runtime these flags were typed for, when it is not `runtime` (they belong to another engine). */
export function otherRuntimeOf(
  args: string[],
  runtime: string,
): string | undefined {
  const was = typedFor.get(keyOf(args));
  return was !== undefined && was !== runtime ? was : undefined;
}
