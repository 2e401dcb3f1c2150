/**
 * Label and field selectors as accepted by `?labelSelector=` and `?fieldSelector=`.
 */
import { StatusError } from './errors';
import { JsonObject, isObject } from '../util/json';

type Operator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | '>' | '<';

interface Requirement {
  key: string;
  op: Operator;
  values: string[];
}

export type Selector = (labels: Record<string, string>) => boolean;

const KEY_CHARS = /[A-Za-z0-9_.\-/]/;

class SelectorLexer {
  private pos = 0;
  constructor(private readonly text: string) {}

  private skipSpace() {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]))
      this.pos++;
  }

  done(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }

  peek(s: string): boolean {
    this.skipSpace();
    return this.text.startsWith(s, this.pos);
  }

  take(s: string): boolean {
    if (!this.peek(s)) return false;
    this.pos += s.length;
    return true;
  }

  word(): string {
    this.skipSpace();
    const start = this.pos;
    while (this.pos < this.text.length && KEY_CHARS.test(this.text[this.pos]))
      this.pos++;
    return this.text.slice(start, this.pos);
  }

  fail(expected: string): never {
    this.skipSpace();
    const found = this.text.slice(this.pos) || 'end of string';
    throw StatusError.badRequest(
      `unable to parse requirement: found '${found}', expected: ${expected}`,
    );
  }
}

function parseRequirement(lx: SelectorLexer): Requirement {
  if (lx.take('!')) {
    const key = lx.word();
    if (!key) lx.fail('identifier');
    return { key, op: '!', values: [] };
  }
  const key = lx.word();
  if (!key) lx.fail('identifier');
  if (lx.done() || lx.peek(',')) return { key, op: 'exists', values: [] };
  if (lx.take('!=')) return { key, op: '!=', values: [lx.word()] };
  if (lx.take('==') || lx.take('='))
    return { key, op: '=', values: [lx.word()] };
  if (lx.take('>')) return { key, op: '>', values: [lx.word()] };
  if (lx.take('<')) return { key, op: '<', values: [lx.word()] };
  const opWord = lx.word();
  if (opWord !== 'in' && opWord !== 'notin')
    lx.fail("'=', '!=', '==', 'in', notin'");
  if (!lx.take('(')) lx.fail("'('");
  const values: string[] = [];
  while (!lx.take(')')) {
    values.push(lx.word());
    if (!lx.take(',') && !lx.peek(')')) lx.fail("',' or ')'");
  }
  return { key, op: opWord, values };
}

function matches(req: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  const value = labels[req.key];
  switch (req.op) {
    case 'exists':
      return has;
    case '!':
      return !has;
    case '=':
      return has && value === req.values[0];
    case '!=':
      return !has || value !== req.values[0];
    case 'in':
      return has && req.values.includes(value);
    case 'notin':
      return !has || !req.values.includes(value);
    case '>':
    case '<': {
      if (!has) return false;
      const a = Number(value);
      const b = Number(req.values[0]);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return req.op === '>' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** Parses a label selector; an empty selector matches everything. */
export function parseLabelSelector(text: string | undefined): Selector {
  if (!text || !text.trim()) return () => true;
  const lx = new SelectorLexer(text);
  const reqs: Requirement[] = [];
  for (;;) {
    reqs.push(parseRequirement(lx));
    if (lx.done()) break;
    if (!lx.take(',')) lx.fail("','");
  }
  return labels => reqs.every(r => matches(r, labels));
}

export function labelsOf(obj: JsonObject): Record<string, string> {
  const meta = obj.metadata;
  const labels = isObject(meta) ? meta.labels : undefined;
  const out: Record<string, string> = {};
  if (isObject(labels)) {
    for (const [k, v] of Object.entries(labels))
      if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export type ObjectFilter = (obj: JsonObject) => boolean;

/**
 * Parses a field selector. `metadata.name` and `metadata.namespace` are always selectable;
 * `fields` adds a kind's own field labels, each mapped to the dotted JSON path it reads (as
 * kube-apiserver's `<Kind>ToSelectableFields`: core Events' `source` reads `source.component`).
 */
export function parseFieldSelector(
  text: string | undefined,
  fields: Record<string, string> = {},
): ObjectFilter {
  if (!text || !text.trim()) return () => true;
  const known: Record<string, string> = {
    'metadata.name': 'metadata.name',
    'metadata.namespace': 'metadata.namespace',
    ...fields,
  };
  const terms = text.split(',').map(term => {
    const m = /^\s*([^!=\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (!m)
      throw StatusError.badRequest(
        `invalid selector: '${text}'; can't understand '${term}'`,
      );
    const [, field, op, value] = m;
    if (!Object.prototype.hasOwnProperty.call(known, field)) {
      throw StatusError.badRequest(
        `"${field}" is not a known field selector: only ${Object.keys(known)
          .map(f => `"${f}"`)
          .join(', ')}`,
      );
    }
    return { path: known[field].split('.'), negate: op === '!=', value };
  });
  return obj =>
    terms.every(t => {
      let cur: unknown = obj;
      for (const p of t.path) cur = isObject(cur) ? cur[p] : undefined;
      const actual = typeof cur === 'string' ? cur : '';
      return t.negate ? actual !== t.value : actual === t.value;
    });
}
