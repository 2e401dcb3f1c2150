/** AST and errors of the CEL subset this server evaluates. */

export type Expr =
  | { t: 'lit'; v: unknown }
  | { t: 'ident'; name: string }
  | { t: 'select'; operand: Expr; field: string }
  | { t: 'index'; operand: Expr; index: Expr }
  | { t: 'call'; fn: string; target?: Expr; args: Expr[] }
  | { t: 'unary'; op: '!' | '-'; e: Expr }
  | { t: 'binary'; op: string; l: Expr; r: Expr }
  | { t: 'cond'; c: Expr; a: Expr; b: Expr }
  | { t: 'list'; items: Expr[] }
  | { t: 'map'; entries: Array<[Expr, Expr]> };

/** The expression uses syntax or functions outside the supported subset. */
export class CelUnsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelUnsupported';
  }
}

/** A CEL runtime error (`no such key: x`), reported like kube-apiserver does. */
export class CelRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelRuntimeError';
  }
}
