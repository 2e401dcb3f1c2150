#!/usr/bin/env node
/*
 * Fails when a file reaches into another workspace package's files instead of importing the
 * package by name through its `exports` map:
 *
 * - a relative import that leaves the file's package (`../../model-manager-common/src/x`), or,
 *   from a file outside every package (bench/, e2e/, scripts/), one that enters a package;
 * - a bare import of a workspace package's subpath its `exports` map does not list
 *   (`@model-manager/plugin-model-manager-backend/src/__testUtils__/testBackend`).
 *
 * Also fails when a package that is not test support itself lists test support (the repository's
 * test harness and API test double, Backstage's `*-test-utils`) under `dependencies`: products
 * depend on no test code; test support is a devDependency.
 *
 * The same rules as `@backstage/no-relative-monorepo-imports` and
 * `@backstage/no-forbidden-package-imports` (https://github.com/backstage/backstage/tree/master/packages/eslint-plugin/rules),
 * over every source file of the repository, in well under a second.
 *
 *   node scripts/check-package-imports.js      # exit 1 and one line per import when any
 */
const fs = require('node:fs');
const path = require('node:path');

const SOURCE = /\.(ts|tsx|js|jsx|cjs|mjs|cts|mts)$/;
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'dist-types',
  'coverage',
  '.git',
  'test-results',
  'playwright-report',
]);
// `from '...'`, `import '...'`, `import('...')`, `require('...')`, `jest.mock('...')`,
// `require.resolve('...')`. Comments are not parsed out: an import-like comment counts too.
const IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire(?:\.resolve)?\s*\(\s*|\bjest\.(?:mock|requireActual)\s*\(\s*)(['"])([^'"\n]+)\1/g;

/** The workspace packages of `root` (its package.json `workspaces` globs of the `dir/*` form). */
function workspacePackages(root) {
  const { workspaces = [] } = JSON.parse(
    fs.readFileSync(path.join(root, 'package.json'), 'utf8'),
  );
  const packages = [];
  for (const glob of workspaces) {
    if (!glob.endsWith('/*'))
      throw new Error(
        `package.json workspaces: '${glob}' is not of the form 'dir/*', which this check reads`,
      );
    const parent = path.join(root, glob.slice(0, -2));
    if (!fs.existsSync(parent)) continue;
    for (const name of fs.readdirSync(parent)) {
      const file = path.join(parent, name, 'package.json');
      if (!fs.existsSync(file)) continue;
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      packages.push({ dir: path.dirname(file), name: json.name, json });
    }
  }
  return packages;
}

function sourceFiles(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name))
        sourceFiles(path.join(dir, entry.name), out);
    } else if (
      SOURCE.test(entry.name) &&
      !entry.name.endsWith('.d.ts') &&
      // Tool configuration, not package code: each package's ESLint config extends the repo's.
      entry.name !== '.eslintrc.js'
    ) {
      out.push(path.join(dir, entry.name));
    }
  }
  return out;
}

const inside = (dir, file) => {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/** Whether `subpath` (`./testUtils`) is one of the package's exports (keys may end in `*`). */
function exported(json, subpath) {
  if (!json.exports || typeof json.exports !== 'object') return true;
  return Object.keys(json.exports).some(key =>
    key.endsWith('*')
      ? subpath.startsWith(key.slice(0, -1))
      : key === subpath || key === `${subpath}.js`,
  );
}

/**
 * Every import of `root`'s source files that reaches into another package's files, as
 * `{ file, line, specifier, message }` (file relative to root).
 */
function checkPackageImports(root) {
  const packages = workspacePackages(root);
  const byName = new Map(packages.map(p => [p.name, p]));
  const packageOf = file => packages.find(p => inside(p.dir, file));
  const problems = [];
  for (const file of sourceFiles(root)) {
    const own = packageOf(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[2];
      const line = text.slice(0, match.index).split('\n').length;
      const report = message =>
        problems.push({
          file: path.relative(root, file),
          line,
          specifier,
          message,
        });
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        if (own && inside(own.dir, target)) continue;
        const other = packageOf(target);
        if (other)
          report(
            `'${specifier}' reaches into package ${other.name}; import '${other.name}' (what its package.json exports) instead`,
          );
        else if (own)
          report(
            `'${specifier}' leaves package ${own.name}; a package imports other code by package name only`,
          );
        continue;
      }
      const parts = specifier.split('/');
      const name = specifier.startsWith('@')
        ? parts.slice(0, 2).join('/')
        : parts[0];
      const target = byName.get(name);
      if (!target || target === own) continue;
      const subpath = `.${specifier.slice(name.length)}`;
      if (subpath !== '.' && !exported(target.json, subpath))
        report(
          `${
            target.name
          } does not export '${subpath}' (its package.json exports: ${Object.keys(
            target.json.exports,
          ).join(
            ', ',
          )}); import one of those, or add the entry point to its exports`,
        );
    }
  }
  return problems;
}

/** Test support by package name: Backstage's `*-test-utils`, our test double and test harness. */
const TEST_SUPPORT = /(^|[/-])test-(utils|server|harness)$/;

/**
 * Every `dependencies` entry of a workspace package that is test support, in a package that is not
 * test support itself, as `{ file, line, specifier, message }` (file: the package.json).
 */
function checkTestDependencies(root) {
  const problems = [];
  for (const pkg of workspacePackages(root)) {
    if (TEST_SUPPORT.test(pkg.name ?? '')) continue;
    for (const dep of Object.keys(pkg.json.dependencies ?? {})) {
      if (!TEST_SUPPORT.test(dep)) continue;
      problems.push({
        file: path.relative(root, path.join(pkg.dir, 'package.json')),
        line: 1,
        specifier: dep,
        message: `${pkg.name} lists the test support ${dep} under dependencies; products depend on no test code: move it to devDependencies`,
      });
    }
  }
  return problems;
}

module.exports = { checkPackageImports, checkTestDependencies };

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  const problems = [
    ...checkPackageImports(root),
    ...checkTestDependencies(root),
  ];
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  if (problems.length > 0) {
    console.error(
      `${problems.length} import(s) reach into another package's files, or dependencies on test support`,
    );
    process.exitCode = 1;
  } else {
    console.log('package imports: every import goes through a package name');
  }
}
