import type { FieldChange } from '@model-manager/plugin-model-manager-common';

export type { FieldChange };

/**
 * Compares the fields we render with the live object, field by field. Only fields present in the
 * rendered object count: defaults and status added by the cluster are not differences. Lists of
 * objects with a `name` (containers, env) are matched by name, other lists of objects of the same
 * length item by item, other lists compared whole.
 */
export function diffObject(rendered: unknown, live: unknown, path = ''): FieldChange[] {
  if (isObject(rendered)) {
    if (!isObject(live)) return [{ path: path || '.', rendered, live }];
    const changes: FieldChange[] = [];
    for (const [key, value] of Object.entries(rendered)) {
      changes.push(...diffObject(value, live[key], `${path}.${key}`));
    }
    return changes;
  }
  if (Array.isArray(rendered)) {
    if (!Array.isArray(live)) return [{ path, rendered, live }];
    if (rendered.every(item => isObject(item) && typeof item.name === 'string')) {
      const changes: FieldChange[] = [];
      for (const item of rendered as Array<Record<string, unknown>>) {
        const match = live.find(l => isObject(l) && l.name === item.name);
        changes.push(...diffObject(item, match, `${path}[name=${item.name}]`));
      }
      const renderedNames = new Set((rendered as Array<Record<string, unknown>>).map(i => i.name));
      for (const l of live) {
        if (isObject(l) && !renderedNames.has(l.name as string)) changes.push({ path: `${path}[name=${String(l.name)}]`, rendered: undefined, live: l });
      }
      return changes;
    }
    // Other lists of objects (route rules, matches, backend refs) item by item when the lengths
    // agree, so fields a CRD defaults inside an item (weight, priority) are not differences.
    if (rendered.length === live.length && rendered.every(isObject)) {
      return rendered.flatMap((item, i) => diffObject(item, live[i], `${path}[${i}]`));
    }
    return JSON.stringify(rendered) === JSON.stringify(live) ? [] : [{ path, rendered, live }];
  }
  if (rendered === live || (rendered !== undefined && live !== undefined && String(rendered) === String(live) && typeof live !== 'object')) return [];
  return [{ path, rendered, live }];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
