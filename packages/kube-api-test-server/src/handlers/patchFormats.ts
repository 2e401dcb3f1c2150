/** JSON merge patch (RFC 7386), JSON patch (RFC 6902) and a simplified strategic merge patch. */
import { StatusError } from '../api/errors';
import { Schema, typeOf } from '../schema/typeNode';
import {
  JsonObject,
  JsonValue,
  deepClone,
  deepEqual,
  isObject,
} from '../util/json';

export function mergePatch(
  target: JsonValue | undefined,
  patch: JsonValue,
): JsonValue {
  if (!isObject(patch)) return deepClone(patch);
  const out: JsonObject = isObject(target) ? deepClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * Strategic merge patch, simplified: a merge patch in which lists declared
 * `x-kubernetes-list-type: map` are merged item by item on their keys.
 * `$patch` / `$setElementOrder` directives are not supported.
 */
export function strategicMergePatch(
  target: JsonValue | undefined,
  patch: JsonValue,
  schema: Schema | undefined,
): JsonValue {
  const t = typeOf(schema);
  if (
    Array.isArray(patch) &&
    Array.isArray(target) &&
    t.kind === 'list' &&
    t.listType === 'map' &&
    t.keys.length > 0
  ) {
    const keyOf = (item: JsonValue) =>
      isObject(item) ? JSON.stringify(t.keys.map(k => item[k] ?? null)) : '';
    const out = deepClone(target);
    for (const item of patch) {
      const i = out.findIndex(o => keyOf(o) === keyOf(item));
      if (i >= 0) out[i] = strategicMergePatch(out[i], item, t.elem);
      else out.push(deepClone(item));
    }
    return out;
  }
  if (!isObject(patch)) return deepClone(patch);
  const out: JsonObject = isObject(target) ? deepClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$'))
      throw StatusError.badRequest(
        `strategic merge patch directive ${k} is not supported by this test server`,
      );
    let sub: Schema | undefined;
    if (t.kind === 'struct') sub = t.fields[k];
    else if (t.kind === 'map') sub = t.elem;
    if (v === null) delete out[k];
    else out[k] = strategicMergePatch(out[k], v, sub);
  }
  return out;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/'))
    throw new Error(`invalid JSON pointer ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(
  doc: JsonValue,
  parts: string[],
): { parent: JsonObject | JsonValue[]; key: string } {
  let cur: JsonValue = doc;
  for (const p of parts.slice(0, -1)) {
    let next: JsonValue | undefined;
    if (Array.isArray(cur)) next = cur[Number(p)];
    else if (isObject(cur)) next = cur[p];
    if (next === undefined || next === null || typeof next !== 'object')
      throw new Error(`doc is missing path: /${parts.join('/')}`);
    cur = next;
  }
  return {
    parent: cur as JsonObject | JsonValue[],
    key: parts[parts.length - 1],
  };
}

function getAt(doc: JsonValue, parts: string[]): JsonValue {
  if (parts.length === 0) return doc;
  const { parent, key } = parentOf(doc, parts);
  const v = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (v === undefined)
    throw new Error(`doc is missing path: /${parts.join('/')}`);
  return v;
}

function removeAt(doc: JsonValue, parts: string[]): JsonValue {
  const { parent, key } = parentOf(doc, parts);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!(i >= 0 && i < parent.length))
      throw new Error(
        `Unable to remove nonexistent key: ${key}: missing value`,
      );
    return parent.splice(i, 1)[0];
  }
  if (!(key in parent))
    throw new Error(`Unable to remove nonexistent key: ${key}: missing value`);
  const v = parent[key];
  delete parent[key];
  return v;
}

function addAt(
  doc: JsonValue,
  parts: string[],
  value: JsonValue,
  replace: boolean,
): JsonValue {
  if (parts.length === 0) return value;
  const { parent, key } = parentOf(doc, parts);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!(i >= 0 && i <= parent.length) || (replace && i === parent.length))
      throw new Error(`Unable to access invalid index: ${i}`);
    if (replace) parent[i] = value;
    else parent.splice(i, 0, value);
  } else {
    if (replace && !(key in parent))
      throw new Error(
        `replace operation does not apply: doc is missing key: /${parts.join(
          '/',
        )}: missing value`,
      );
    parent[key] = value;
  }
  return doc;
}

export function jsonPatch(target: JsonValue, ops: JsonValue): JsonValue {
  if (!Array.isArray(ops))
    throw StatusError.badRequest(
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
  let doc = deepClone(target);
  try {
    for (const raw of ops) {
      const op = isObject(raw) ? raw : {};
      const path = pointer(String(op.path ?? ''));
      switch (op.op) {
        case 'add':
          doc = addAt(doc, path, deepClone(op.value ?? null), false);
          break;
        case 'replace':
          doc = addAt(doc, path, deepClone(op.value ?? null), true);
          break;
        case 'remove':
          removeAt(doc, path);
          break;
        case 'move': {
          const v = removeAt(doc, pointer(String(op.from ?? '')));
          doc = addAt(doc, path, v, false);
          break;
        }
        case 'copy':
          doc = addAt(
            doc,
            path,
            deepClone(getAt(doc, pointer(String(op.from ?? '')))),
            false,
          );
          break;
        case 'test':
          if (!deepEqual(getAt(doc, path), op.value))
            throw new Error(
              `testing value /${path.join('/')} failed: test failed`,
            );
          break;
        default:
          throw new Error(`Unexpected kind: ${String(op.op)}`);
      }
    }
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw StatusError.of({
      code: 422,
      reason: 'Invalid',
      message: (e as Error).message,
    });
  }
  return doc;
}
