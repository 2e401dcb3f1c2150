/*
 * node --test scripts/check-package-imports.test.js
 *
 * The import check against a small monorepo written to a temporary directory, and against this
 * repository.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const {
  checkPackageImports,
  checkTestDependencies,
} = require('./check-package-imports');

/** Writes `files` (path -> text; objects become JSON) under a fresh temporary directory. */
function monorepo(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-imports-'));
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(
      path.join(root, file),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return root;
}

const base = {
  'package.json': { workspaces: ['plugins/*'] },
  'plugins/a/package.json': {
    name: '@x/a',
    exports: {
      '.': './src/index.ts',
      './testUtils': './src/testUtils/index.ts',
      './package.json': './package.json',
    },
  },
  'plugins/a/src/index.ts': 'export const a = 1;\n',
  'plugins/a/src/testUtils/index.ts': 'export const t = 1;\n',
  'plugins/a/src/__testUtils__/fixture.ts': 'export const f = 1;\n',
  'plugins/b/package.json': { name: '@x/b' },
};

const rows = [
  {
    rule: 'a relative import into another package is reported',
    file: `import { f } from '../../a/src/__testUtils__/fixture';\n`,
    problems: [/reaches into package @x\/a; import '@x\/a'/],
  },
  {
    rule: 'a relative require into another package is reported',
    file: `\n\nconst { a } = require('../../a/src');\n`,
    problems: [/^plugins\/b\/src\/x\.test\.ts:3: .*reaches into package @x\/a/],
  },
  {
    rule: 'a subpath the exports map does not list is reported',
    file: `import { f } from '@x/a/src/__testUtils__/fixture';\n`,
    problems: [/@x\/a does not export '\.\/src\/__testUtils__\/fixture'/],
  },
  {
    rule: 'an exported subpath is allowed',
    file: `import { t } from '@x/a/testUtils';\nimport { a } from '@x/a';\n`,
    problems: [],
  },
  {
    rule: 'a relative import inside the own package is allowed',
    file: `import { y } from './y';\nimport { z } from '../z';\n`,
    problems: [],
  },
];

for (const row of rows) {
  test(row.rule, () => {
    const root = monorepo({ ...base, 'plugins/b/src/x.test.ts': row.file });
    try {
      const found = checkPackageImports(root).map(
        p => `${p.file}:${p.line}: ${p.message}`,
      );
      assert.equal(found.length, row.problems.length, found.join('\n'));
      row.problems.forEach((pattern, i) => assert.match(found[i], pattern));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}

test('a file outside every package may not enter a package by path', () => {
  const root = monorepo({
    ...base,
    'bench/run.js': `require('../plugins/a/src');\n`,
  });
  try {
    const [problem, ...rest] = checkPackageImports(root);
    assert.deepEqual(rest, []);
    assert.equal(problem.file, path.join('bench', 'run.js'));
    assert.match(problem.message, /reaches into package @x\/a/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('this repository imports other packages by name only', () => {
  const problems = checkPackageImports(path.resolve(__dirname, '..'));
  assert.deepEqual(
    problems.map(p => `${p.file}:${p.line}: ${p.message}`),
    [],
  );
});

for (const row of [
  {
    rule: 'a product listing the test harness under dependencies is reported',
    json: { name: '@x/b', dependencies: { '@x/test-harness': '0.1.0' } },
    problems: [
      /@x\/b lists the test support @x\/test-harness under dependencies/,
    ],
  },
  {
    rule: "a product listing Backstage's backend-test-utils under dependencies is reported",
    json: {
      name: '@x/b',
      dependencies: { '@backstage/backend-test-utils': '1.0.0' },
    },
    problems: [/move it to devDependencies/],
  },
  {
    rule: 'test support as a devDependency is allowed',
    json: {
      name: '@x/b',
      devDependencies: {
        '@x/test-harness': '0.1.0',
        '@x/kube-api-test-server': '0.1.0',
      },
    },
    problems: [],
  },
  {
    rule: 'test support may depend on test support',
    json: {
      name: '@x/test-harness',
      dependencies: { '@x/kube-api-test-server': '0.1.0' },
    },
    problems: [],
  },
]) {
  test(row.rule, () => {
    const root = monorepo({ ...base, 'plugins/b/package.json': row.json });
    try {
      const found = checkTestDependencies(root).map(
        p => `${p.file}: ${p.message}`,
      );
      assert.equal(found.length, row.problems.length, found.join('\n'));
      row.problems.forEach((pattern, i) => assert.match(found[i], pattern));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}

test('no package of this repository depends on test support at run time', () => {
  assert.deepEqual(
    checkTestDependencies(path.resolve(__dirname, '..')).map(
      p => `${p.file}: ${p.message}`,
    ),
    [],
  );
});
