/**
 * Repository-wide additions to @backstage/cli's ESLint configuration. Every
 * package's `.eslintrc.js` passes this to
 * `require('@backstage/cli/config/eslint-factory')(__dirname, ...)`; a root
 * `.eslintrc.js` cannot turn off a rule the factory enables (the package's own
 * config takes precedence in ESLint's cascade).
 */
module.exports = {
  rules: {
    // Prettier 2 (our formatter) lays chained conditionals out flat, one
    // `? :` per line, which reads as an else-if list; the codebase uses them
    // for three-way choices in 19 places. Rewriting them into if-chains buys no
    // clarity and touches files other work is changing.
    'no-nested-ternary': 'off',
  },
  testRules: {
    // Our rule tests are tables (STYLE.md "Table-driven for rules"): each row
    // carries a `check` function that `it.each` runs, and `beforeAll` hooks
    // assert that fixtures loaded. The rule cannot see that those functions
    // only run inside a test, so it flags every row.
    'jest/no-standalone-expect': 'off',
    // Table rows declare whether they expect a result or an error and the test
    // asserts on the branch the row names (`if (row.error) expect(...) else
    // expect(...)`); every branch asserts, which is what this rule guards.
    'jest/no-conditional-expect': 'off',
    // The same tables: `it.each(rules)('$rule', ({ check }) => check())` asserts
    // through each row's `check`.
    'jest/expect-expect': [
      'warn',
      { assertFunctionNames: ['expect', 'expect*', 'check'] },
    ],
  },
};
