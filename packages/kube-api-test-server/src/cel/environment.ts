/**
 * The CEL environment the test double evaluates CRD `x-kubernetes-validations`
 * with: the `@bufbuild/cel` standard library (conformance-tested against
 * cel-spec; `matches` uses RE2 like cel-go) plus the Kubernetes extension
 * libraries the CRDs in `test-assets/crds` use.
 *
 * kube-apiserver's base environment
 * (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/cel/environment/base.go)
 * adds: the cel-go `strings` extension (`split`, `join`, `replace`,
 * `lowerAscii`, `indexOf`, ...), `lists`, `regex`, `url`, `ip`, `cidr`,
 * `quantity`, `semver`, `format`, `sets` and optional syntax (`?.`, `[?]`).
 * Of these the CRDs here use only `split` (Gateway API's HTTPRoute); the
 * `strings` extension of `@bufbuild/cel` provides it. A rule that calls a
 * function registered nowhere is reported by {@link compileRule}, never
 * skipped.
 */
import { celEnv, type CelEnv } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/** Kubernetes binds `self` and, in transition rules, `oldSelf`. */
export const RULE_VARIABLES = ['self', 'oldSelf'] as const;

/**
 * Calls the `@bufbuild/cel` planner implements itself (logic, ternary,
 * indexing), so they are not in the function resolver.
 */
export const PLANNER_CALLS = new Set([
  '_&&_',
  '_||_',
  '_?_:_',
  '_[_]',
  '@not_strictly_false',
  'not_strictly_false',
]);

/**
 * Type names CEL resolves as identifiers (`type(x) == string`); cel-spec
 * langdef "Values", as listed in k8s.io/apiserver/pkg/cel/common/escaping.go.
 */
export const TYPE_IDENTIFIERS = new Set([
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'bytes',
  'list',
  'map',
  'null_type',
  'type',
]);

let env: CelEnv | undefined;

/** The shared environment (creating it registers the std library once). */
export function kubernetesCelEnv(): CelEnv {
  env ??= celEnv({ funcs: strings });
  return env;
}
