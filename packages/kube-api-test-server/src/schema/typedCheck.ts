/**
 * The checks structured-merge-diff performs when it converts an apply patch
 * into a typed value: unknown fields, scalar type mismatches and malformed
 * associative lists. kube-apiserver reports these as a 500
 * "failed to create typed patch object".
 */
import { JsonValue, goSyntax, goType, goValue, isObject } from '../util/json';
import { listItemElement, peToString } from '../ssa/pathElement';
import { Schema, childSchema, typeOf } from './typeNode';

function at(path: string, msg: string): string {
  return path ? `${path}: ${msg}` : msg;
}

function walk(
  value: JsonValue,
  schema: Schema | undefined,
  path: string,
  errs: string[],
): void {
  if (value === null) return;
  const t = typeOf(schema);
  switch (t.kind) {
    case 'any':
    case 'deduced':
      return;
    case 'scalar':
      if (t.scalar === 'numeric' && typeof value !== 'number') {
        errs.push(
          at(path, `expected numeric (int or float), got ${goType(value)}`),
        );
      } else if (t.scalar === 'string' && typeof value !== 'string') {
        errs.push(
          at(
            path,
            `expected string, got &value.valueUnstructured{Value:${goSyntax(
              value,
            )}}`,
          ),
        );
      } else if (t.scalar === 'boolean' && typeof value !== 'boolean') {
        errs.push(at(path, `expected boolean, got &{${goValue(value)}}`));
      }
      return;
    case 'struct':
    case 'map':
      if (!isObject(value)) {
        errs.push(at(path, `expected map, got &{${goValue(value)}}`));
        return;
      }
      for (const key of Object.keys(value).sort()) {
        const child = childSchema(t, key);
        const childPath = `${path}.${key}`;
        if (!child.declared)
          errs.push(at(childPath, 'field not declared in schema'));
        else walk(value[key], child.schema, childPath, errs);
      }
      return;
    case 'list': {
      if (!Array.isArray(value)) {
        errs.push(at(path, `expected list, got &{${goValue(value)}}`));
        return;
      }
      const seen = new Set<string>();
      for (let i = 0; i < value.length; i++) {
        const el = listItemElement(t, value[i], i);
        if ('error' in el) {
          errs.push(at(path, `element ${i}: ${el.error}`));
          return;
        }
        if (t.listType !== 'atomic') {
          if (seen.has(el.pe))
            errs.push(
              at(path, `duplicate entries for key ${peToString(el.pe)}`),
            );
          seen.add(el.pe);
        }
        walk(value[i], t.elem, `${path}${peToString(el.pe)}`, errs);
      }
      return;
    }
    default:
      return;
  }
}

/** Error messages (`.spec.x: field not declared in schema`) for a value that does not fit its schema. */
export function typedErrors(value: JsonValue, schema: Schema): string[] {
  const errs: string[] = [];
  walk(value, schema, '', errs);
  return errs;
}

/** Joins structured-merge-diff errors the way its ValidationErrors.Error() does. */
export function joinTypedErrors(errs: string[]): string {
  if (errs.length === 1) return errs[0];
  return ['errors:', ...errs.map(e => `  ${e}`)].join('\n');
}
