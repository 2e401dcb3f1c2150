import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ModelCatalogStore } from './ModelCatalogStore';
import { firstInvalidUtf8, readCatalogSources } from './readCatalogSources';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

// The test catalog of the common package (nine models, two runtimes), not the shipped one: adding
// an engine or a model to the repository's models.yaml does not change these tests.
const REPO = FIXTURE_CATALOG_DIR;

function tempCatalog() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-store-'));
  fs.cpSync(path.join(REPO, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  fs.copyFileSync(
    path.join(REPO, 'models.yaml'),
    path.join(dir, 'models.yaml'),
  );
  return dir;
}

function logger() {
  const lines: Array<[string, string]> = [];
  return {
    lines,
    info: (m: string) => lines.push(['info', m]),
    warn: (m: string) => lines.push(['warn', m]),
    error: (m: string) => lines.push(['error', m]),
  };
}

describe('ModelCatalogStore', () => {
  it('a broken models.yaml keeps the last good catalog and logs the error with file:line', async () => {
    const dir = tempCatalog();
    const log = logger();
    const store = await ModelCatalogStore.create({
      location: { modelsFile: path.join(dir, 'models.yaml') },
      logger: log,
    });
    expect(Object.keys(store.current()!.models)).toHaveLength(9);

    const good = fs.readFileSync(path.join(dir, 'models.yaml'), 'utf8');
    fs.writeFileSync(
      path.join(dir, 'models.yaml'),
      good.replace(
        '    category: rerank\n    owner: group:default/search\n    tags: [rerank]\n    server:\n      runtime: vllm',
        '    category: rerank\n    owner: group:default/search\n    tags: [rerank]\n    server:\n      runtime: tgi',
      ),
    );
    const status = await store.reload();
    expect(status.ok).toBe(false);
    expect(status.message).toMatch(
      /^models\.yaml:\d+:7: models\.bge-reranker-v2-m3\.server\.runtime: unknown runtime 'tgi'/,
    );
    expect(Object.keys(store.current()!.models)).toHaveLength(9);
    expect(log.lines.at(-1)).toEqual([
      'error',
      expect.stringMatching(
        /kept the last good catalog; the catalog files are invalid:\nmodels\.yaml:\d+:7: /,
      ),
    ]);

    // Fixing the file brings changes in.
    fs.writeFileSync(
      path.join(dir, 'models.yaml'),
      good.replace('  bge-m3:\n', '  bge-m3-copy:\n'),
    );
    expect((await store.reload()).ok).toBe(true);
    expect(Object.keys(store.current()!.models)).toContain('bge-m3-copy');
  });

  it('notifies subscribers after each good load only', async () => {
    const dir = tempCatalog();
    const store = await ModelCatalogStore.create({
      location: { modelsFile: path.join(dir, 'models.yaml') },
      logger: logger(),
    });
    const seen: number[] = [];
    store.subscribe(c => seen.push(Object.keys(c.models).length));
    fs.writeFileSync(path.join(dir, 'models.yaml'), 'models: [');
    await store.reload();
    fs.copyFileSync(
      path.join(REPO, 'models.yaml'),
      path.join(dir, 'models.yaml'),
    );
    await store.reload();
    expect(seen).toEqual([9]);
  });

  it('reloads by itself when the file changes (watch)', async () => {
    const dir = tempCatalog();
    const store = await ModelCatalogStore.create({
      location: { modelsFile: path.join(dir, 'models.yaml') },
      logger: logger(),
      watch: true,
    });
    try {
      const reloaded = new Promise<number>(resolve =>
        store.subscribe(c => resolve(Object.keys(c.models).length)),
      );
      const text = fs.readFileSync(path.join(dir, 'models.yaml'), 'utf8');
      fs.writeFileSync(
        path.join(dir, 'models.yaml'),
        text.replace('  bge-m3:\n', '  bge-m3-renamed:\n'),
      );
      expect(await reloaded).toBe(9);
      expect(store.current()!.models['bge-m3-renamed']).toBeDefined();
    } finally {
      store.close();
    }
  });

  it('with no good catalog yet, current() is undefined and the status says why', async () => {
    const dir = tempCatalog();
    fs.writeFileSync(
      path.join(dir, 'models.yaml'),
      'models: {}\nruntimes: {}\nextra: 1\n',
    );
    const store = await ModelCatalogStore.create({
      location: { modelsFile: path.join(dir, 'models.yaml') },
      logger: logger(),
    });
    expect(store.current()).toBeUndefined();
    expect(store.loadStatus()).toMatchObject({
      ok: false,
      message: expect.stringContaining(
        "models.yaml:3:1: extra: unknown key 'extra'",
      ),
    });
  });
});

describe('readCatalogSources', () => {
  it('refuses a non-UTF-8 file naming the line', async () => {
    const dir = tempCatalog();
    fs.writeFileSync(
      path.join(dir, 'models.yaml'),
      Buffer.concat([
        Buffer.from('models:\n  a: \n  b: caf'),
        Buffer.from([0xe9]),
        Buffer.from('\n'),
      ]),
    );
    await expect(
      readCatalogSources({ modelsFile: path.join(dir, 'models.yaml') }),
    ).rejects.toThrow(
      /^models\.yaml:3:9: not valid UTF-8 \(byte 0xe9 at offset 22\); save the file as UTF-8$/,
    );
  });

  it('finds the first invalid UTF-8 byte', () => {
    expect(firstInvalidUtf8(Buffer.from('héllo', 'utf8'))).toBe(6);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc3]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xff, 0x62]))).toBe(1);
  });

  it('names a missing models.yaml', async () => {
    await expect(
      readCatalogSources({ modelsFile: '/nonexistent/models.yaml' }),
    ).rejects.toThrow(/models\.yaml: cannot read: ENOENT/);
  });
});
