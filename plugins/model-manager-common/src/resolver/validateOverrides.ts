import { REQUEST_FILE } from '../constants';
import { labelValueProblem } from '../names/kubernetesNames';
import { ENV_NAME_PATTERN, MAX_VALUE_LENGTH } from '../schema/modelsFileSchema';
import { formatPath } from '../source/problems';
import type { CatalogProblem } from '../source/types';
import { isSecretKeyRef, secretRefProblems } from '../schema/secretRef';
import { argRefusal, envValueRefusal } from './requestSecrets';
import type { ServerOverrides } from './types';

/**
 * Checks a request's overrides the way models.yaml is checked, before anything else happens:
 * env names are C identifiers, values and args single lines of bounded length, args are flags,
 * a Secret reference names a valid Secret and key, and no value or arg carries a credential
 * (requestSecrets.ts; those are refused first, with messages that never repeat the value).
 */
export function validateOverrides(
  overrides: ServerOverrides,
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const add = (path: Array<string | number>, message: string) =>
    problems.push({ file: REQUEST_FILE, path: formatPath(path), message });

  const { serverVersion, env, args } = overrides as Record<string, unknown> &
    ServerOverrides;
  if (serverVersion !== undefined) {
    if (
      typeof serverVersion !== 'string' ||
      serverVersion === '' ||
      labelValueProblem(serverVersion) !== undefined
    ) {
      add(
        ['serverVersion'],
        'serverVersion must be a version key such as 0.24.0 (letters, digits, . _ -, at most 63 characters: it becomes a Kubernetes label value)',
      );
    }
  }
  if (env !== undefined) {
    if (env === null || typeof env !== 'object' || Array.isArray(env)) {
      add(['env'], 'env must be a map of NAME: value');
    } else {
      for (const [name, value] of Object.entries(env)) {
        if (!ENV_NAME_PATTERN.test(name) || name.length > 256) {
          add(
            ['env', name],
            `env name '${truncate(
              name,
            )}' is not a C identifier (letters, digits, _; not starting with a digit)`,
          );
        }
        if (value === null) continue;
        if (isSecretKeyRef(value) || typeof value === 'object') {
          for (const p of secretRefProblems(value))
            add(['env', name, ...p.path], p.message);
          continue;
        }
        const refusal =
          typeof value === 'string' ? envValueRefusal(name, value) : undefined;
        if (refusal) add(['env', name], refusal);
        else checkLine(value, ['env', name], 'env value', add);
      }
    }
  }
  if (args !== undefined) {
    if (!Array.isArray(args)) {
      add(
        ['args'],
        'args must be a list of flags such as ["--max-model-len=8192"]',
      );
    } else {
      args.forEach((arg, i) => {
        const refusal = typeof arg === 'string' ? argRefusal(arg) : undefined;
        if (refusal) add(['args', i], refusal);
        else if (
          checkLine(arg, ['args', i], 'arg', add) &&
          !arg.startsWith('-')
        ) {
          add(
            ['args', i],
            `'${truncate(
              arg,
            )}' is not a flag; each arg is one flag such as --max-model-len=8192`,
          );
        }
      });
    }
  }
  return problems;
}

function checkLine(
  value: unknown,
  path: Array<string | number>,
  what: string,
  add: (path: Array<string | number>, message: string) => void,
): value is string {
  if (typeof value !== 'string') {
    add(path, `${what} must be a string`);
    return false;
  }
  if (value.length > MAX_VALUE_LENGTH) {
    add(
      path,
      `${what} is ${value.length} characters, more than the ${MAX_VALUE_LENGTH} allowed`,
    );
    return false;
  }
  if (/[\r\n\0]/.test(value)) {
    add(path, `${what} must be a single line (it contains a newline or NUL)`);
    return false;
  }
  return true;
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
