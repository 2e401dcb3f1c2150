import { validateOverrides } from '@model-manager/plugin-model-manager-common';

/** The engine's own messages for env overrides (C identifiers, single-line values). */
export function envProblems(env: Record<string, string> | undefined): string[] {
  return validateOverrides({ env: env ?? {} }).map(p => `${p.path}: ${p.message}`);
}

/** The engine's own messages for args overrides (one flag per item, single line). */
export function argsProblems(args: string[] | undefined): string[] {
  return validateOverrides({ args: args ?? [] }).map(p => `${p.path}: ${p.message}`);
}
