import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

const ALICE = mockCredentials.user.header('user:default/alice');
const GENERATED = 120;
const OWNERS = ['team-a', 'team-b', 'team-c'];

/** One generated model: every 10th pinned to vLLM 0.19.1, llm and embed alternating, 3 owners. */
const generated = (i: number, description = `generated model ${i}`) => {
  const name = `gen-${String(i).padStart(3, '0')}`;
  const pin = i % 10 === 0 ? `      server_version: "0.19.1"\n` : '';
  return `  ${name}:\n    model_id: org/${name}\n    description: ${description}\n    category: ${
    i % 2 ? 'embed' : 'llm'
  }\n    owner: group:default/${
    OWNERS[i % 3]
  }\n    server:\n      runtime: vllm\n${pin}`;
};

/** The repository's models.yaml with GENERATED more vLLM models in front (129 models). */
function writeCatalog(dir: string, firstDescription?: string) {
  const repo = fs.readFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    'utf8',
  );
  const models = Array.from({ length: GENERATED }, (_, i) =>
    generated(i, i === 0 ? firstDescription : undefined),
  ).join('');
  fs.writeFileSync(
    path.join(dir, 'models.yaml'),
    repo.replace(/^models:\n/m, `models:\n${models}`),
  );
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-models-list-'));
fs.cpSync(
  path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
  path.join(dir, 'runtimes'),
  {
    recursive: true,
  },
);
writeCatalog(dir);

describe('GET /models: paging, filters, sort and conditional requests', () => {
  const ctx = useModelManager({
    modelsFile: path.join(dir, 'models.yaml'),
    runtimesDir: path.join(dir, 'runtimes'),
    modelManagerConfig: { watch: true },
  });
  const get = (
    query: Record<string, string | number | undefined> = {},
    headers: Record<string, string> = {},
  ) =>
    request(ctx.server)
      .get('/api/model-manager/models')
      .query(query)
      .set({ Authorization: ALICE, ...headers });
  const names = (res: request.Response) =>
    res.body.items.map((m: any) => m.name);

  it('without limit answers every model sorted by name, in the { items } shape the CLI reads, with total', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(129);
    expect(res.body.items).toHaveLength(129);
    expect(res.body.offset).toBe(0);
    expect(res.body.limit).toBeUndefined();
    expect(
      res.body.items.find((m: any) => m.name === 'llama-3-1-8b-instruct'),
    ).toMatchObject({
      runtime: 'vllm',
      version: '0.19.1',
      versionSource: 'model',
    });
    expect(names(res)).toEqual([...names(res)].sort());
    expect(res.body.facets).toEqual({
      runtimes: ['openvino', 'vllm'],
      versions: ['0.19.1', '0.24.0'],
      categories: ['embed', 'llm', 'rerank', 'vlm'],
      owners: [
        'group:default/ml-platform',
        'group:default/search',
        'group:default/team-a',
        'group:default/team-b',
        'group:default/team-c',
      ],
    });
  });

  it('pages with limit and offset: the pages put together are the full list, each says the total', async () => {
    const all = names(await get());
    const pages = await Promise.all(
      [0, 50, 100].map(offset => get({ limit: 50, offset })),
    );
    expect(pages.map(p => p.body.items.length)).toEqual([50, 50, 29]);
    expect(pages.map(p => [p.body.total, p.body.offset, p.body.limit])).toEqual(
      [
        [129, 0, 50],
        [129, 50, 50],
        [129, 100, 50],
      ],
    );
    expect(pages.flatMap(names)).toEqual(all);
    const past = await get({ limit: 50, offset: 500 });
    expect(past.body).toMatchObject({ items: [], total: 129 });
  });

  it.each([
    {
      filter: 'runtime',
      query: { runtime: 'openvino' },
      expected: [
        'bge-reranker-base-ov',
        'bge-small-en-v1-5-ov',
        'phi-3-5-mini-instruct-int4-ov',
      ],
    },
    {
      filter: 'version (pinned or the runtime default)',
      query: { version: '0.19.1' },
      expected: [
        'gen-000',
        'gen-010',
        'gen-020',
        'gen-030',
        'gen-040',
        'gen-050',
        'gen-060',
        'gen-070',
        'gen-080',
        'gen-090',
        'gen-100',
        'gen-110',
        'llama-3-1-8b-instruct',
      ],
    },
    {
      filter: 'category',
      query: { category: 'vlm' },
      expected: ['qwen2-5-vl-7b-instruct'],
    },
    {
      filter: 'owner',
      query: { owner: 'group:default/search' },
      expected: [
        'bge-m3',
        'bge-reranker-base-ov',
        'bge-reranker-v2-m3',
        'bge-small-en-v1-5-ov',
      ],
    },
    {
      filter: 'q in a tag, any case',
      query: { q: 'MULTILINGUAL' },
      expected: ['bge-m3'],
    },
    {
      filter: 'q in the model_id',
      query: { q: 'org/gen-11' },
      expected: Array.from({ length: 10 }, (_, i) => `gen-11${i}`),
    },
    {
      filter: 'several filters at once',
      query: {
        runtime: 'vllm',
        category: 'llm',
        owner: 'group:default/team-b',
        q: 'gen-05',
      },
      expected: ['gen-052', 'gen-058'],
    },
    {
      filter: 'a filter nothing matches',
      query: { runtime: 'tgi' },
      expected: [],
    },
  ])('filters by $filter', async ({ query, expected }) => {
    const res = await get(query);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it('pages a filtered list: total counts the matches, not the catalog', async () => {
    const res = await get({
      owner: 'group:default/team-a',
      limit: 5,
      offset: 5,
    });
    expect(res.body.total).toBe(40);
    expect(names(res)).toEqual([
      'gen-015',
      'gen-018',
      'gen-021',
      'gen-024',
      'gen-027',
    ]);
  });

  it('sorts by a field, descending with a leading -, ties by name', async () => {
    const all = names(await get());
    expect(names(await get({ sort: '-name' }))).toEqual([...all].reverse());
    const byVersion = await get({ sort: 'version', limit: 1000 });
    const versions = byVersion.body.items.map((m: any) => m.version ?? '');
    expect(versions.slice(0, 3)).toEqual(['', '', '']); // the flat OpenVINO runtime has none
    expect(versions.slice(3, 16)).toEqual(Array(13).fill('0.19.1'));
    expect(versions.slice(16)).toEqual(Array(113).fill('0.24.0'));
    expect(names(byVersion).slice(3, 5)).toEqual(['gen-000', 'gen-010']);
    const byOwner = await get({ sort: '-owner', limit: 2 });
    expect(byOwner.body.items.map((m: any) => m.owner)).toEqual([
      'group:default/team-c',
      'group:default/team-c',
    ]);
  });

  it.each([
    {
      query: { limit: 'ten' },
      message: /limit must be a whole number from 1 to 1000/,
    },
    {
      query: { limit: 0 },
      message: /limit must be a whole number from 1 to 1000/,
    },
    {
      query: { limit: 1001 },
      message: /limit must be a whole number from 1 to 1000/,
    },
    { query: { offset: -1 }, message: /offset must be a whole number/ },
    {
      query: { sort: 'size' },
      message: /sort must be one of name, -name, modelId/,
    },
    { query: { runtme: 'vllm' }, message: /unknown field\(s\) 'runtme'/ },
    {
      query: 'runtime=vllm&runtime=openvino',
      message: /runtime must be given once/,
    },
  ])(
    'answers 400 naming the parameter for $query',
    async ({ query, message }) => {
      const res = await request(ctx.server)
        .get('/api/model-manager/models')
        .query(query)
        .set('Authorization', ALICE);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        name: 'InputError',
        message: expect.stringMatching(/^invalid models query: /),
      });
      expect(res.body.error.message).toMatch(message);
    },
  );

  it('answers 304 with no body when If-None-Match holds the ETag of the same catalog and query', async () => {
    const first = await get({ runtime: 'vllm', limit: 50 });
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await get(
      { limit: 50, runtime: 'vllm' },
      { 'If-None-Match': etag },
    );
    expect(again.status).toBe(304);
    expect(again.text).toBeFalsy();
    expect(again.headers.etag).toBe(etag);
    // A list of tags, or the weak form, matches too.
    expect(
      (
        await get(
          { runtime: 'vllm', limit: 50 },
          { 'If-None-Match': `"other", W/${etag}` },
        )
      ).status,
    ).toBe(304);
    // Another query is another answer.
    const next = await get(
      { runtime: 'vllm', limit: 50, offset: 50 },
      { 'If-None-Match': etag },
    );
    expect(next.status).toBe(200);
    expect(next.headers.etag).not.toBe(etag);
    // The full list is conditional too.
    const full = await get();
    expect((await get({}, { 'If-None-Match': full.headers.etag })).status).toBe(
      304,
    );
  });

  // Last: it changes the catalog the other tests read.
  it('changes the ETag when models.yaml changes, and answers the new list to the old tag', async () => {
    const before = await get({ limit: 1 });
    const status = await request(ctx.server)
      .get('/api/model-manager/status')
      .set('Authorization', ALICE);
    writeCatalog(dir, 'changed on disk');
    // Wait for the watcher to load the new file (the catalog status moves on), at most 10 s.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = await request(ctx.server)
        .get('/api/model-manager/status')
        .set('Authorization', ALICE);
      if (now.body.at !== status.body.at) break;
      if (Date.now() > deadline)
        throw new Error('models.yaml was not reloaded within 10 s');
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    const after = await get(
      { limit: 1 },
      { 'If-None-Match': before.headers.etag },
    );
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.total).toBe(129);
    const changed = await get({ q: 'changed on disk' });
    expect(names(changed)).toEqual(['gen-000']);
  });
});
