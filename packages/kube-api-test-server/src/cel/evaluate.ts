/** Evaluates parsed CEL expressions against JSON values. */
import { deepEqual, isObject } from '../util/json';
import { CelRuntimeError, CelUnsupported, Expr } from './ast';

export type Env = Record<string, unknown>;

// cel-go reports every operator/function mismatch as plain "no such overload".
const noOverload = (_what: string) => new CelRuntimeError('no such overload');

function bool(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') throw noOverload(what);
  return v;
}

function size(v: unknown): number {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (isObject(v)) return Object.keys(v).length;
  throw noOverload('size');
}

function str(v: unknown, fn: string): string {
  if (typeof v !== 'string') throw noOverload(fn);
  return v;
}

function equals(a: unknown, b: unknown): boolean {
  return deepEqual(a, b);
}

function compare(op: string, a: unknown, b: unknown): boolean {
  const bothNum = typeof a === 'number' && typeof b === 'number';
  const bothStr = typeof a === 'string' && typeof b === 'string';
  if (!bothNum && !bothStr) throw noOverload(op);
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

function arithmetic(op: string, a: unknown, b: unknown): unknown {
  if (op === '+') {
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  }
  if (typeof a !== 'number' || typeof b !== 'number') throw noOverload(op);
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw new CelRuntimeError('division by zero');
      return Number.isInteger(a) && Number.isInteger(b)
        ? Math.trunc(a / b)
        : a / b;
    default:
      if (b === 0) throw new CelRuntimeError('modulus by zero');
      return a % b;
  }
}

function logical(op: '&&' | '||', l: Expr, r: Expr, env: Env): boolean {
  const short = op === '||';
  let left: boolean | CelRuntimeError;
  try {
    left = bool(evaluate(l, env), op);
  } catch (e) {
    if (!(e instanceof CelRuntimeError)) throw e;
    left = e;
  }
  if (left === short) return short;
  const right = bool(evaluate(r, env), op);
  if (right === short) return short;
  if (left instanceof CelRuntimeError) throw left;
  return !short;
}

function macro(e: Expr & { t: 'call' }, env: Env): unknown {
  const target = evaluate(e.target!, env);
  const varExpr = e.args[0];
  if (!varExpr || varExpr.t !== 'ident' || e.args.length !== 2)
    throw new CelUnsupported(`macro ${e.fn}`);
  if (!Array.isArray(target) && !isObject(target)) throw noOverload(e.fn);
  const items: unknown[] = Array.isArray(target) ? target : Object.keys(target);
  const run = (item: unknown) =>
    evaluate(e.args[1], { ...env, [varExpr.name]: item });
  switch (e.fn) {
    case 'all':
      return items.every(i => bool(run(i), 'all'));
    case 'exists':
      return items.some(i => bool(run(i), 'exists'));
    case 'exists_one':
      return items.filter(i => bool(run(i), 'exists_one')).length === 1;
    case 'filter':
      return items.filter(i => bool(run(i), 'filter'));
    default:
      return items.map(run);
  }
}

function call(e: Expr & { t: 'call' }, env: Env): unknown {
  if (e.fn === 'has' && !e.target) {
    const arg = e.args[0];
    if (!arg || arg.t !== 'select' || e.args.length !== 1)
      throw new CelUnsupported('has() needs a field selection');
    const operand = evaluate(arg.operand, env);
    if (!isObject(operand))
      throw new CelRuntimeError('invalid type for field selection.');
    return Object.prototype.hasOwnProperty.call(operand, arg.field);
  }
  if (
    e.target &&
    ['all', 'exists', 'exists_one', 'map', 'filter'].includes(e.fn)
  )
    return macro(e, env);
  const args = (e.target ? [e.target, ...e.args] : e.args).map(a =>
    evaluate(a, env),
  );
  switch (e.fn) {
    case 'size':
      return size(args[0]);
    case 'contains':
      return str(args[0], e.fn).includes(str(args[1], e.fn));
    case 'startsWith':
      return str(args[0], e.fn).startsWith(str(args[1], e.fn));
    case 'endsWith':
      return str(args[0], e.fn).endsWith(str(args[1], e.fn));
    case 'matches':
      return new RegExp(str(args[1], e.fn)).test(str(args[0], e.fn));
    case 'lowerAscii':
      return str(args[0], e.fn).toLowerCase();
    case 'upperAscii':
      return str(args[0], e.fn).toUpperCase();
    case 'string':
      return typeof args[0] === 'object'
        ? JSON.stringify(args[0])
        : String(args[0]);
    case 'int': {
      const n = typeof args[0] === 'string' ? Number(args[0]) : args[0];
      if (typeof n !== 'number' || Number.isNaN(n)) throw noOverload('int');
      return Math.trunc(n);
    }
    case 'double': {
      const n = typeof args[0] === 'string' ? Number(args[0]) : args[0];
      if (typeof n !== 'number' || Number.isNaN(n)) throw noOverload('double');
      return n;
    }
    default:
      throw new CelUnsupported(`function ${e.fn}`);
  }
}

export function evaluate(e: Expr, env: Env): unknown {
  switch (e.t) {
    case 'lit':
      return e.v;
    case 'ident':
      if (!(e.name in env)) throw new CelUnsupported(`identifier ${e.name}`);
      return env[e.name];
    case 'select': {
      const operand = evaluate(e.operand, env);
      if (!isObject(operand)) throw noOverload(`select ${e.field}`);
      if (!Object.prototype.hasOwnProperty.call(operand, e.field))
        throw new CelRuntimeError(`no such key: ${e.field}`);
      return operand[e.field];
    }
    case 'index': {
      const operand = evaluate(e.operand, env);
      const index = evaluate(e.index, env);
      if (Array.isArray(operand) && typeof index === 'number') {
        if (index < 0 || index >= operand.length)
          throw new CelRuntimeError(`index out of bounds: ${index}`);
        return operand[index];
      }
      if (isObject(operand) && typeof index === 'string') {
        if (!(index in operand))
          throw new CelRuntimeError(`no such key: ${index}`);
        return operand[index];
      }
      throw noOverload('index');
    }
    case 'call':
      return call(e, env);
    case 'unary': {
      const v = evaluate(e.e, env);
      if (e.op === '!') return !bool(v, '!');
      if (typeof v !== 'number') throw noOverload('-');
      return -v;
    }
    case 'binary': {
      if (e.op === '&&' || e.op === '||') return logical(e.op, e.l, e.r, env);
      const l = evaluate(e.l, env);
      const r = evaluate(e.r, env);
      switch (e.op) {
        case '==':
          return equals(l, r);
        case '!=':
          return !equals(l, r);
        case 'in':
          if (Array.isArray(r)) return r.some(x => equals(x, l));
          if (isObject(r) && typeof l === 'string') return l in r;
          throw noOverload('in');
        case '<':
        case '<=':
        case '>':
        case '>=':
          return compare(e.op, l, r);
        default:
          return arithmetic(e.op, l, r);
      }
    }
    case 'cond':
      return bool(evaluate(e.c, env), '?:')
        ? evaluate(e.a, env)
        : evaluate(e.b, env);
    case 'list':
      return e.items.map(i => evaluate(i, env));
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of e.entries)
        out[String(evaluate(k, env))] = evaluate(v, env);
      return out;
    }
    default:
      throw new CelUnsupported('expression');
  }
}

export function referencesIdent(e: Expr, name: string): boolean {
  switch (e.t) {
    case 'ident':
      return e.name === name;
    case 'select':
      return referencesIdent(e.operand, name);
    case 'index':
      return referencesIdent(e.operand, name) || referencesIdent(e.index, name);
    case 'call':
      return (
        (e.target ? referencesIdent(e.target, name) : false) ||
        e.args.some(a => referencesIdent(a, name))
      );
    case 'unary':
      return referencesIdent(e.e, name);
    case 'binary':
      return referencesIdent(e.l, name) || referencesIdent(e.r, name);
    case 'cond':
      return [e.c, e.a, e.b].some(x => referencesIdent(x, name));
    case 'list':
      return e.items.some(x => referencesIdent(x, name));
    case 'map':
      return e.entries.some(
        ([k, v]) => referencesIdent(k, name) || referencesIdent(v, name),
      );
    default:
      return false;
  }
}
