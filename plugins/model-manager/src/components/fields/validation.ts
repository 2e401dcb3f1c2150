import {
  namespaceProblem as commonNamespaceProblem,
  validateOverrides,
} from '@model-manager/plugin-model-manager-common';

/** What to say about an env row that has a value but no name (kept under the empty name). */
export function unnamedEnvProblem(value: string): string {
  return `this variable has no name (its value is '${value}'): type its name or remove the row`;
}

/** The engine's messages for one override, without the dotted path (they are shown beside the row). */
function messages(overrides: Parameters<typeof validateOverrides>[0]) {
  return validateOverrides(overrides).map(p => p.message);
}

/** What is wrong with one env row, said beside its name and its value. */
export type EnvRowProblems = { name?: string; value?: string; note?: string };

/**
 * Each row's problems as the engine checks them (C identifier names, single-line values), said
 * in words beside the row: a row with a value but no name says so, a name set again in a later
 * row says that the later value is used (the map keeps one value per name). A blank row is
 * nothing yet.
 */
export function envRowProblems(
  rows: Array<[string, string]>,
): EnvRowProblems[] {
  return rows.map(([name, value], i) => {
    if (name === '')
      return value === '' ? {} : { name: unnamedEnvProblem(value) };
    const later = rows.findIndex(([n], j) => j > i && n === name);
    return {
      name: messages({ env: { [name]: '' } })[0],
      value: messages({ env: { VALUE: value } })[0],
      note:
        later >= 0
          ? `${name} is set again in row ${later + 1}, whose value is used`
          : undefined,
    };
  });
}

/** The engine's own messages for env overrides (C identifiers, single-line values); a row without a name is named as such. */
export function envProblems(env: Record<string, string> | undefined): string[] {
  const { '': unnamed, ...named } = env ?? {};
  const problems = unnamed === undefined ? [] : [unnamedEnvProblem(unnamed)];
  return [
    ...problems,
    ...validateOverrides({ env: named }).map(p => `${p.path}: ${p.message}`),
  ];
}

/** Each flag's problem as the engine checks it (one flag per item, single line), said beside it. */
export function argProblems(args: string[]): Array<string | undefined> {
  return args.map(arg =>
    arg === ''
      ? 'this flag is empty: type one such as --max-model-len=8192, or remove the row'
      : messages({ args: [arg] })[0],
  );
}

/** The engine's own messages for args overrides (one flag per item, single line). */
export function argsProblems(args: string[] | undefined): string[] {
  return validateOverrides({ args: args ?? [] }).map(
    p => `${p.path}: ${p.message}`,
  );
}

/**
 * The one line the form's error list at the top of the step shows for a field whose rows say
 * what is wrong themselves: the list names the field, the words are beside each row (once).
 */
export function rowsToFix(count: number, noun: string): string {
  return count === 1
    ? `has a ${noun} to fix: the reason is shown beside it`
    : `has ${count} ${noun}s to fix: the reason is shown beside each`;
}

/**
 * What is wrong with a namespace name, in words (a DNS-1123 label:
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#dns-label-names), or
 * undefined when it is a valid one (the rule is the common package's namespaceProblem). The
 * template keeps the same rule as `pattern`/`maxLength`.
 */
export function namespaceProblem(
  namespace: string | undefined,
): string | undefined {
  if (!namespace) return undefined;
  return commonNamespaceProblem(namespace);
}
