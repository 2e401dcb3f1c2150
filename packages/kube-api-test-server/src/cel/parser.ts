/**
 * A recursive-descent parser for a subset of CEL: literals, `self`/`oldSelf`,
 * field selection, indexing, function and method calls (incl. the `has`,
 * `all`, `exists`, `exists_one`, `map`, `filter` macros), `! - && || ?:`,
 * comparisons, `in`, `+ - * / %`, list and map literals.
 */
import { CelUnsupported, Expr } from './ast';

interface Token {
  kind: 'num' | 'str' | 'id' | 'op' | 'eof';
  value: string | number;
}

const OPERATORS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '<',
  '>',
  '!',
  '?',
  ':',
  '.',
  ',',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '+',
  '-',
  '*',
  '/',
  '%',
];

function unescape(body: string): string {
  return body.replace(
    /\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g,
    (_, e: string) => {
      if (e[0] === 'u' || e[0] === 'x')
        return String.fromCharCode(parseInt(e.slice(1), 16));
      return (
        (
          {
            n: '\n',
            t: '\t',
            r: '\r',
            '\\': '\\',
            "'": "'",
            '"': '"',
            '`': '`',
          } as Record<string, string>
        )[e] ?? e
      );
    },
  );
}

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const rest = src.slice(i);
    let m =
      /^(?:0x[0-9a-fA-F]+|\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+)u?/.exec(
        rest,
      );
    if (m) {
      out.push({ kind: 'num', value: Number(m[0].replace(/u$/, '')) });
      i += m[0].length;
      continue;
    }
    m =
      /^[rR]?('''[\s\S]*?'''|"""[\s\S]*?"""|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/.exec(
        rest,
      );
    if (m) {
      const raw = /^[rR]/.test(m[0]);
      const lit = raw ? m[0].slice(1) : m[0];
      const q = lit.startsWith("'''") || lit.startsWith('"""') ? 3 : 1;
      const body = lit.slice(q, lit.length - q);
      out.push({ kind: 'str', value: raw ? body : unescape(body) });
      i += m[0].length;
      continue;
    }
    m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (m) {
      out.push({ kind: 'id', value: m[0] });
      i += m[0].length;
      continue;
    }
    const op = OPERATORS.find(o => rest.startsWith(o));
    if (!op) throw new CelUnsupported(`unexpected character '${c}'`);
    out.push({ kind: 'op', value: op });
    i += op.length;
  }
  out.push({ kind: 'eof', value: '' });
  return out;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos];
  }

  private isOp(v: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.value === v;
  }

  private take(v: string): boolean {
    if (!this.isOp(v)) return false;
    this.pos++;
    return true;
  }

  private expect(v: string) {
    if (!this.take(v)) throw new CelUnsupported(`expected '${v}'`);
  }

  parseAll(): Expr {
    const e = this.expr();
    if (this.peek().kind !== 'eof') throw new CelUnsupported('trailing input');
    return e;
  }

  private expr(): Expr {
    const c = this.or();
    if (!this.take('?')) return c;
    const a = this.or();
    this.expect(':');
    const b = this.expr();
    return { t: 'cond', c, a, b };
  }

  private binaryLevel(next: () => Expr, ops: string[]): Expr {
    let l = next();
    for (;;) {
      const t = this.peek();
      const isIn = t.kind === 'id' && t.value === 'in' && ops.includes('in');
      if (!isIn && !(t.kind === 'op' && ops.includes(String(t.value))))
        return l;
      this.pos++;
      const r = next();
      l = { t: 'binary', op: String(t.value), l, r };
    }
  }

  private or(): Expr {
    return this.binaryLevel(() => this.and(), ['||']);
  }

  private and(): Expr {
    return this.binaryLevel(() => this.relation(), ['&&']);
  }

  private relation(): Expr {
    return this.binaryLevel(
      () => this.addition(),
      ['==', '!=', '<', '<=', '>', '>=', 'in'],
    );
  }

  private addition(): Expr {
    return this.binaryLevel(() => this.multiplication(), ['+', '-']);
  }

  private multiplication(): Expr {
    return this.binaryLevel(() => this.unary(), ['*', '/', '%']);
  }

  private unary(): Expr {
    if (this.take('!')) return { t: 'unary', op: '!', e: this.unary() };
    if (this.take('-')) return { t: 'unary', op: '-', e: this.unary() };
    return this.member();
  }

  private args(close: string): Expr[] {
    const args: Expr[] = [];
    if (this.take(close)) return args;
    for (;;) {
      args.push(this.expr());
      if (this.take(close)) return args;
      this.expect(',');
      if (this.take(close)) return args;
    }
  }

  private member(): Expr {
    let e = this.primary();
    for (;;) {
      if (this.take('.')) {
        const t = this.peek();
        if (t.kind !== 'id') throw new CelUnsupported('expected field name');
        this.pos++;
        if (this.take('('))
          e = {
            t: 'call',
            fn: String(t.value),
            target: e,
            args: this.args(')'),
          };
        else e = { t: 'select', operand: e, field: String(t.value) };
      } else if (this.take('[')) {
        const index = this.expr();
        this.expect(']');
        e = { t: 'index', operand: e, index };
      } else {
        return e;
      }
    }
  }

  private primary(): Expr {
    const t = this.peek();
    this.pos++;
    if (t.kind === 'num' || t.kind === 'str') return { t: 'lit', v: t.value };
    if (t.kind === 'id') {
      const name = String(t.value);
      if (name === 'true' || name === 'false')
        return { t: 'lit', v: name === 'true' };
      if (name === 'null') return { t: 'lit', v: null };
      if (this.take('(')) return { t: 'call', fn: name, args: this.args(')') };
      return { t: 'ident', name };
    }
    if (t.kind === 'op') {
      if (t.value === '(') {
        const e = this.expr();
        this.expect(')');
        return e;
      }
      if (t.value === '[') return { t: 'list', items: this.args(']') };
      if (t.value === '{') {
        const entries: Array<[Expr, Expr]> = [];
        if (!this.take('}')) {
          for (;;) {
            const k = this.expr();
            this.expect(':');
            entries.push([k, this.expr()]);
            if (this.take('}')) break;
            this.expect(',');
          }
        }
        return { t: 'map', entries };
      }
    }
    throw new CelUnsupported(`unexpected token '${String(t.value)}'`);
  }
}

const parsed = new Map<string, Expr | CelUnsupported>();

/** Parses (and caches) a rule; throws CelUnsupported for syntax outside the subset. */
export function parseCel(src: string): Expr {
  let r = parsed.get(src);
  if (!r) {
    try {
      r = new Parser(tokenize(src)).parseAll();
    } catch (e) {
      r = e instanceof CelUnsupported ? e : new CelUnsupported(String(e));
    }
    parsed.set(src, r);
  }
  if (r instanceof CelUnsupported) throw r;
  return r;
}
