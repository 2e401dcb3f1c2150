import type { FieldChange, JsonFieldValue } from '../api/types';

export type { FieldChange };

/**
 * Compares the fields we render with the live object, field by field. Only fields present in the
 * rendered object count: defaults and status added by the cluster are not differences. Lists of
 * objects with a `name` (containers, env) are matched by name, other lists of objects of the same
 * length item by item, other lists compared whole.
 *
 * With `symmetric: true` both sides are what we rendered (e.g. two revisions), so a key present
 * only on the `live` side is a difference too (a variable or flag that was removed).
 */
export function diffObject(
  rendered: unknown,
  live: unknown,
  path = '',
  options: { symmetric?: boolean } = {},
): FieldChange[] {
  if (isObject(rendered)) {
    if (!isObject(live)) return [change(path || '.', rendered, live)];
    const changes: FieldChange[] = [];
    for (const [key, value] of Object.entries(rendered)) {
      changes.push(...diffObject(value, live[key], `${path}.${key}`, options));
    }
    if (options.symmetric) {
      for (const [key, value] of Object.entries(live)) {
        if (!(key in rendered) && value !== undefined) {
          changes.push(change(`${path}.${key}`, undefined, value));
        }
      }
    }
    return changes;
  }
  if (Array.isArray(rendered)) {
    if (!Array.isArray(live)) return [change(path, rendered, live)];
    if (
      rendered.every(item => isObject(item) && typeof item.name === 'string')
    ) {
      const changes: FieldChange[] = [];
      for (const item of rendered as Array<Record<string, unknown>>) {
        const match = live.find(l => isObject(l) && l.name === item.name);
        changes.push(
          ...diffObject(item, match, `${path}[name=${item.name}]`, options),
        );
      }
      const renderedNames = new Set(
        (rendered as Array<Record<string, unknown>>).map(i => i.name),
      );
      for (const l of live) {
        if (isObject(l) && !renderedNames.has(l.name as string)) {
          changes.push(change(`${path}[name=${String(l.name)}]`, undefined, l));
        }
      }
      return changes;
    }
    // Other lists of objects (route rules, matches, backend refs) item by item when the lengths
    // agree, so fields a CRD defaults inside an item (weight, priority) are not differences.
    if (rendered.length === live.length && rendered.every(isObject)) {
      return rendered.flatMap((item, i) =>
        diffObject(item, live[i], `${path}[${i}]`, options),
      );
    }
    return JSON.stringify(rendered) === JSON.stringify(live)
      ? []
      : [change(path, rendered, live)];
  }
  if (
    rendered === live ||
    (rendered !== undefined &&
      live !== undefined &&
      String(rendered) === String(live) &&
      typeof live !== 'object')
  ) {
    return [];
  }
  return [change(path, rendered, live)];
}

/** A change; undefined sides are left out (JSON has no undefined). */
function change(path: string, rendered: unknown, live: unknown): FieldChange {
  return {
    path,
    ...(rendered !== undefined ? { rendered: rendered as JsonFieldValue } : {}),
    ...(live !== undefined ? { live: live as JsonFieldValue } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
