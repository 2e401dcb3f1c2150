import {
  credentialValueReason,
  isSecretKeyRef,
  namespaceProblem as commonNamespaceProblem,
  secretKeyProblem,
  secretNameProblem,
  validateOverrides,
  type EnvValue,
} from '@model-manager/plugin-model-manager-common';

/** What to say about an env row that has a value (or a Secret) but no name. */
export function unnamedEnvProblem(row: EnvRow): string {
  return `this variable has no name (${
    row.source === 'secret'
      ? `it reads Secret ${row.secret || '?'}/${row.key || '?'}`
      : `its value is '${row.value}'`
  }): type its name or remove the row`;
}

/** The engine's messages for one override, without the dotted path (they are shown beside the row). */
function messages(overrides: Parameters<typeof validateOverrides>[0]) {
  return validateOverrides(overrides).map(p => p.message);
}

/**
 * One row of the env editor: a name and where its value comes from, typed in (`value`) or read
 * from a key of a Secret in the target namespace (`secret`, rendered as `valueFrom.secretKeyRef`).
 */
export type EnvRow = {
  name: string;
  source: 'value' | 'secret';
  value: string;
  secret: string;
  key: string;
};

/** A row of the form's env map: a string, or `{ secretKeyRef: { name, key } }`. */
export function envRowOf(
  name: string,
  value: EnvValue | null | undefined,
): EnvRow {
  return isSecretKeyRef(value)
    ? {
        name,
        source: 'secret',
        value: '',
        secret: value.secretKeyRef.name ?? '',
        key: value.secretKeyRef.key ?? '',
      }
    : { name, source: 'value', value: value ?? '', secret: '', key: '' };
}

/** Nothing typed in a row yet (it is left out of the map). */
export function isBlankRow(row: EnvRow): boolean {
  return (
    row.name === '' &&
    (row.source === 'value' ? row.value === '' : !row.secret && !row.key)
  );
}

/** The env map's value of a row. */
export function envValueOf(row: EnvRow): EnvValue {
  return row.source === 'secret'
    ? { secretKeyRef: { name: row.secret, key: row.key } }
    : row.value;
}

/** The rows of the form's env map, in its order. */
export function envRowsOf(
  env: Record<string, EnvValue | null> | undefined,
): EnvRow[] {
  return Object.entries(env ?? {}).map(([name, value]) =>
    envRowOf(name, value),
  );
}

/** What is wrong with one env row, said beside the field it is about. */
export type EnvRowProblems = {
  name?: string;
  value?: string;
  secret?: string;
  key?: string;
  note?: string;
};

/**
 * Why a typed-in value is refused as a secret's, in the form's words: the engine's reason
 * (credentialValueReason, as the request check refuses it: a request is kept in the history and
 * shown by dry runs), and the fix in the form, the row's own "From a Secret".
 */
function credentialValueProblem(
  name: string,
  value: string,
): string | undefined {
  const why = credentialValueReason(name, value);
  return why
    ? `${why.replace(
        /^its value/,
        'this value',
      )}, and a deploy never carries a secret's value (it would be kept in the history): choose "From a Secret" and give the Secret's name and key (create it first: kubectl -n NAMESPACE create secret generic NAME --from-literal=KEY=...)`
    : undefined;
}

/**
 * Each row's problems as the engine checks them (C identifier names, single-line values, Secret
 * names and keys as kube-apiserver takes them, no secret's value typed in), said in words beside
 * the field each is about, once: a row with a value but no name says so, a name set again in a
 * later row says that the later value is used (the map keeps one value per name). A blank row is
 * nothing yet.
 */
export function envRowProblems(rows: EnvRow[]): EnvRowProblems[] {
  return rows.map((row, i) => {
    if (isBlankRow(row)) return {};
    if (row.name === '') return { name: unnamedEnvProblem(row) };
    const later = rows.findIndex((r, j) => j > i && r.name === row.name);
    const note =
      later >= 0
        ? `${row.name} is set again in row ${later + 1}, whose value is used`
        : undefined;
    // null: the name alone (a value's checks are below, beside the value).
    const name = messages({ env: { [row.name]: null } })[0];
    if (row.source === 'secret')
      return {
        name,
        note,
        secret: secretNameProblem(row.secret),
        key: secretKeyProblem(row.key),
      };
    return {
      name,
      note,
      value:
        credentialValueProblem(row.name, row.value) ??
        messages({ env: { VALUE: row.value } })[0],
    };
  });
}

/** Whether a row's problems block the step. */
export function rowHasProblem(p: EnvRowProblems): boolean {
  return !!(p.name || p.value || p.secret || p.key);
}

/** The engine's own messages for env overrides (C identifiers, single-line values); a row without a name is named as such. */
export function envProblems(
  env: Record<string, EnvValue | null> | undefined,
): string[] {
  const { '': unnamed, ...named } = env ?? {};
  const problems =
    unnamed === undefined ? [] : [unnamedEnvProblem(envRowOf('', unnamed))];
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
