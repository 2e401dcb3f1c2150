import { validateOverrides } from '@model-manager/plugin-model-manager-common';

/** What to say about an env row that has a value but no name (kept under the empty name). */
export function unnamedEnvProblem(value: string): string {
  return `an env variable with the value '${value}' has no name: type its name or remove the row`;
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

/** The engine's own messages for args overrides (one flag per item, single line). */
export function argsProblems(args: string[] | undefined): string[] {
  return validateOverrides({ args: args ?? [] }).map(
    p => `${p.path}: ${p.message}`,
  );
}
