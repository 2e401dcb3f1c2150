/**
 * Compiles one CEL expression of a CRD (a `rule` or a `messageExpression`)
 * like kube-apiserver does when the CRD is created: parse, then check that
 * every function and variable it names exists. kube-apiserver rejects a CRD
 * whose rule does not compile; the test double cannot evaluate such a rule
 * either, so {@link compileRule} says why instead of letting it pass.
 */
import { parse, plan, type CelResult } from '@bufbuild/cel';
import {
  PLANNER_CALLS,
  RULE_VARIABLES,
  TYPE_IDENTIFIERS,
  kubernetesCelEnv,
} from './environment';

/** The AST `parse` returns (the cel-spec `Expr` message). */
type Expr = ReturnType<typeof parse>['expr'];

export type CelBindings = Partial<
  Record<(typeof RULE_VARIABLES)[number], unknown>
>;

export type CompiledRule =
  | {
      ok: true;
      usesOldSelf: boolean;
      run(bindings: CelBindings): CelResult;
    }
  | { ok: false; error: string };

interface Refs {
  unknownFunctions: Set<string>;
  unknownIdents: Set<string>;
  usesOldSelf: boolean;
}

function collect(e: Expr | undefined, scope: Set<string>, refs: Refs): void {
  if (!e) return;
  const k = e.exprKind;
  switch (k.case) {
    case 'identExpr':
      if (k.value.name === 'oldSelf') refs.usesOldSelf = true;
      if (!scope.has(k.value.name) && !TYPE_IDENTIFIERS.has(k.value.name))
        refs.unknownIdents.add(k.value.name);
      return;
    case 'selectExpr':
      collect(k.value.operand, scope, refs);
      return;
    case 'callExpr': {
      const name = k.value.function;
      if (!PLANNER_CALLS.has(name) && !kubernetesCelEnv().funcs.find(name))
        refs.unknownFunctions.add(name);
      collect(k.value.target, scope, refs);
      for (const a of k.value.args) collect(a, scope, refs);
      return;
    }
    case 'listExpr':
      for (const el of k.value.elements) collect(el, scope, refs);
      return;
    case 'structExpr':
      for (const entry of k.value.entries) {
        if (entry.keyKind.case === 'mapKey')
          collect(entry.keyKind.value, scope, refs);
        collect(entry.value, scope, refs);
      }
      return;
    case 'comprehensionExpr': {
      const c = k.value;
      collect(c.iterRange, scope, refs);
      collect(c.accuInit, scope, refs);
      const inner = new Set([...scope, c.iterVar, c.accuVar]);
      if (c.iterVar2) inner.add(c.iterVar2);
      collect(c.loopCondition, inner, refs);
      collect(c.loopStep, inner, refs);
      collect(c.result, new Set([...scope, c.accuVar]), refs);
      return;
    }
    default:
      return;
  }
}

function compile(source: string): CompiledRule {
  let parsed;
  try {
    parsed = parse(source);
  } catch (e) {
    return { ok: false, error: `syntax error: ${(e as Error).message}` };
  }
  const refs: Refs = {
    unknownFunctions: new Set(),
    unknownIdents: new Set(),
    usesOldSelf: false,
  };
  collect(parsed.expr, new Set(RULE_VARIABLES), refs);
  const problems = [
    ...[...refs.unknownFunctions].map(f => `undeclared function '${f}'`),
    ...[...refs.unknownIdents].map(i => `undeclared reference to '${i}'`),
  ];
  if (problems.length > 0) return { ok: false, error: problems.join(', ') };
  let program;
  try {
    program = plan(kubernetesCelEnv(), parsed);
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  return {
    ok: true,
    usesOldSelf: refs.usesOldSelf,
    run: bindings => program(bindings as never),
  };
}

const cache = new Map<string, CompiledRule>();

/** The compiled expression, or why the test double cannot evaluate it. */
export function compileRule(source: string): CompiledRule {
  let compiled = cache.get(source);
  if (!compiled) {
    compiled = compile(source);
    cache.set(source, compiled);
  }
  return compiled;
}
