/** Request decoding and response encoding of objects and lists. */
import YAML from 'yaml';
import { StatusError } from '../api/errors';
import { FieldError, fieldErrors } from '../api/fieldErrors';
import { ResourceType, apiVersionOf } from '../registry/types';
import { JsonObject, JsonValue, isObject, sortKeysDeep } from '../util/json';
import { RequestContext } from './context';

/**
 * Parses YAML like sigs.k8s.io/yaml (go-yaml v2): YAML 1.1 booleans
 * (yes/no/on/off) and octals, but timestamps and sexagesimal numbers stay
 * strings.
 */
export function parseYaml(text: string): JsonValue {
  return parseAsJson(text) ?? parseYaml11(text);
}

/** {@link parseYaml} without the JSON fast path: the YAML 1.1 reader alone. */
export function parseYaml11(text: string): JsonValue {
  return YAML.parse(text, {
    version: '1.1',
    maxAliasCount: 100,
    customTags: tags =>
      tags.filter(
        t =>
          typeof t === 'string' ||
          (t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME'),
      ),
  }) as JsonValue;
}

/**
 * A body that is plain JSON (what client-node and kubectl send as apply patches) parsed by
 * JSON.parse, which reads it as the YAML 1.1 reader does and is fifty times faster; undefined when
 * the text is not JSON, or holds what a YAML 1.1 reader may read otherwise: a repeated key (the
 * YAML path reports it), a number with an exponent (`1e3` is a string in YAML 1.1), or the escape
 * `\/` (not in YAML 1.1). Parsing apply bodies with the YAML reader was a sixth of the server's
 * CPU per apply.
 */
function parseAsJson(text: string): JsonValue | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  const scan = scanJson(text);
  if (!scan || scan.keys !== countKeys(value)) return undefined;
  return value;
}

/**
 * The number of object keys in valid JSON text; undefined when it holds a number with an
 * exponent or a `\/` escape.
 */
function scanJson(text: string): { keys: number } | undefined {
  let keys = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; text.charCodeAt(i) !== 34; i++) {
        if (text.charCodeAt(i) === 92 /* \ */) {
          i++;
          if (text.charCodeAt(i) === 47 /* / */) return undefined;
        }
      }
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text.charCodeAt(j) === 58 /* : */) keys++;
    } else if ((c === 101 || c === 69) /* e E */ && /[0-9.]/.test(text[i - 1]))
      return undefined;
  }
  return { keys };
}

function countKeys(value: JsonValue): number {
  if (Array.isArray(value))
    return value.reduce<number>((n, v) => n + countKeys(v), 0);
  if (!isObject(value)) return 0;
  let n = 0;
  for (const key of Object.keys(value)) n += 1 + countKeys(value[key]);
  return n;
}

/** Decodes a create/update body (JSON, or YAML with a YAML content type). */
export function decodeObject(ctx: RequestContext): JsonObject {
  const text = ctx.body.toString('utf8');
  let value: JsonValue;
  if (ctx.contentType.includes('yaml')) {
    try {
      value = parseYaml(text);
    } catch (e) {
      throw StatusError.badRequest(
        `error converting YAML to JSON: yaml: ${(e as Error).message}`,
      );
    }
  } else if (
    !ctx.contentType ||
    ctx.contentType === 'application/json' ||
    ctx.contentType === '*/*'
  ) {
    if (!text.trim())
      throw StatusError.badRequest(`Object 'Kind' is missing in ''`);
    try {
      value = JSON.parse(text) as JsonValue;
    } catch (e) {
      throw StatusError.badRequest(
        `couldn't get version/kind; json parse error: ${(e as Error).message}`,
      );
    }
  } else {
    throw StatusError.unsupportedMediaType(ctx.contentType, [
      'application/json',
      'application/yaml',
      'application/vnd.kubernetes.protobuf',
    ]);
  }
  if (!isObject(value))
    throw StatusError.badRequest(
      `Object 'Kind' is missing in '${text.trim()}'`,
    );
  return value;
}

/**
 * Checks apiVersion/kind of a create/update body against the endpoint.
 * Built-in kinds default missing ones from the URL (as their typed decoder
 * does); custom resources require them.
 */
export function checkTypeMeta(obj: JsonObject, rt: ResourceType): void {
  if (rt.builtin) {
    obj.apiVersion ??= apiVersionOf(rt);
    obj.kind ??= rt.kind;
  }
  if (!obj.kind)
    throw StatusError.badRequest(
      `Object 'Kind' is missing in '${JSON.stringify(obj)}'`,
    );
  const expected = apiVersionOf(rt);
  if (obj.apiVersion !== expected) {
    throw StatusError.badRequest(
      `the API version in the data (${String(
        obj.apiVersion ?? '',
      )}) does not match the expected API version (${expected})`,
    );
  }
  if (obj.kind !== rt.kind) {
    throw StatusError.badRequest(
      `the kind in the data (${String(
        obj.kind,
      )}) does not match the expected kind (${rt.kind})`,
    );
  }
}

/** An object as served at the endpoint's version, keys sorted like Go's JSON encoding. */
export function servedObject(rt: ResourceType, obj: JsonObject): JsonObject {
  return sortKeysDeep({
    ...obj,
    apiVersion: apiVersionOf(rt),
    kind: rt.kind,
  }) as JsonObject;
}

export function listBody(
  rt: ResourceType,
  items: JsonObject[],
  resourceVersion: number,
  cont: string,
  remaining?: number,
): JsonObject {
  const metadata: JsonObject = { resourceVersion: String(resourceVersion) };
  if (!rt.builtin || cont) metadata.continue = cont;
  if (remaining !== undefined && remaining > 0)
    metadata.remainingItemCount = remaining;
  const shown = items.map(i => {
    const served = servedObject(rt, i);
    if (rt.builtin) {
      delete served.apiVersion;
      delete served.kind;
    }
    return served;
  });
  return {
    apiVersion: apiVersionOf(rt),
    items: shown,
    kind: rt.listKind,
    metadata,
  };
}

/** Options common to writes: dryRun and fieldManager. */
export interface WriteOptions {
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: 'Ignore' | 'Warn' | 'Strict';
}

export function writeOptions(
  ctx: RequestContext,
  optionsKind: string,
): WriteOptions {
  const errs: FieldError[] = [];
  const dryRun = ctx.query.getAll('dryRun');
  for (const v of dryRun)
    if (v !== 'All') errs.push(fieldErrors.notSupported('dryRun', v, ['All']));
  const fieldManager = ctx.query.get('fieldManager') ?? undefined;
  if (fieldManager !== undefined && fieldManager.length > 128)
    errs.push(fieldErrors.tooLong('fieldManager', 128));
  const fv = ctx.query.get('fieldValidation') ?? 'Warn';
  if (!['Ignore', 'Warn', 'Strict'].includes(fv)) {
    errs.push(
      fieldErrors.notSupported('fieldValidation', fv, [
        'Ignore',
        'Warn',
        'Strict',
      ]),
    );
  }
  if (errs.length > 0)
    throw StatusError.invalid(
      { group: 'meta.k8s.io', kind: optionsKind },
      '',
      errs,
    );
  return {
    dryRun: dryRun.length > 0,
    fieldManager,
    fieldValidation: fv as WriteOptions['fieldValidation'],
  };
}

/** The manager recorded for non-apply writes: `?fieldManager=` or the User-Agent's first segment. */
export function updateManager(ctx: RequestContext, opts: WriteOptions): string {
  if (opts.fieldManager) return opts.fieldManager;
  return ctx.userAgent.split('/')[0].slice(0, 128);
}
