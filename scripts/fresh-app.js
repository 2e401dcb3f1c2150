#!/usr/bin/env node
/*
 * Helpers of scripts/install-into-fresh-app.sh (run from this repository, with its node_modules):
 *
 *   fresh-app.js blocks <docs.md> <kind>         prints the fenced blocks that follow a
 *                                                `<!-- fresh-app: <kind> -->` line, in order
 *   fresh-app.js insert-backend <index.ts> <file> inserts the lines of <file> before
 *                                                `backend.start();`
 *   fresh-app.js merge-config <app-config> <file> merges the YAML of <file> into <app-config>
 *                                                (maps deep, lists appended)
 *   fresh-app.js pin-backstage <package.json> <our package.json>
 *                                                yarn `resolutions` for every @backstage/*
 *                                                package: the versions our root `overrides` pin
 *   fresh-app.js registry <tarball dir> <port file>
 *                                                an npm registry on 127.0.0.1 (free port,
 *                                                written to <port file>) serving the packed
 *                                                tarballs; every other name is a 404
 *   fresh-app.js check <backend url> <pid>       the checks of the proof (entities, models,
 *                                                dry-run deploys, a deploy); exits 1 on the first failure,
 *                                                or as soon as the backend (<pid>) has exited
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const YAML = require('yaml');

function fail(message) {
  process.stderr.write(`fresh-app: ${message}\n`);
  process.exit(1);
}

function blocks(docsFile, kind) {
  const lines = fs.readFileSync(docsFile, 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== `<!-- fresh-app: ${kind} -->`) continue;
    const open = lines[i + 1] ?? '';
    if (!open.startsWith('```'))
      fail(`${docsFile}:${i + 2}: a fenced block must follow the marker`);
    const body = [];
    let j = i + 2;
    for (; j < lines.length && !lines[j].startsWith('```'); j++)
      body.push(lines[j]);
    if (j === lines.length) fail(`${docsFile}:${i + 2}: unclosed block`);
    out.push(body.join('\n'));
  }
  if (out.length === 0)
    fail(`${docsFile}: no block marked <!-- fresh-app: ${kind} -->`);
  return out.join('\n');
}

function insertBackend(indexFile, linesFile) {
  const source = fs.readFileSync(indexFile, 'utf8');
  const marker = 'backend.start();';
  if (!source.includes(marker))
    fail(`${indexFile}: no "${marker}" to insert before`);
  const lines = fs.readFileSync(linesFile, 'utf8').trimEnd();
  fs.writeFileSync(indexFile, source.replace(marker, `${lines}\n\n${marker}`));
}

function merge(target, source) {
  if (Array.isArray(target) && Array.isArray(source))
    return [...target, ...source];
  if (
    target &&
    source &&
    typeof target === 'object' &&
    typeof source === 'object' &&
    !Array.isArray(target) &&
    !Array.isArray(source)
  ) {
    const out = { ...target };
    for (const [key, value] of Object.entries(source))
      out[key] = key in out ? merge(out[key], value) : value;
    return out;
  }
  return source;
}

function mergeConfig(appConfigFile, fragmentFile) {
  const base = YAML.parse(fs.readFileSync(appConfigFile, 'utf8')) ?? {};
  const fragment = YAML.parse(fs.readFileSync(fragmentFile, 'utf8'));
  fs.writeFileSync(appConfigFile, YAML.stringify(merge(base, fragment)));
}

function pinBackstage(appPackageFile, ourPackageFile) {
  const app = JSON.parse(fs.readFileSync(appPackageFile, 'utf8'));
  const ours = JSON.parse(fs.readFileSync(ourPackageFile, 'utf8'));
  const pins = Object.entries(ours.overrides ?? {}).filter(([name]) =>
    name.startsWith('@backstage/'),
  );
  if (pins.length === 0) fail(`${ourPackageFile}: no @backstage/* overrides`);
  app.resolutions = { ...app.resolutions, ...Object.fromEntries(pins) };
  fs.writeFileSync(appPackageFile, `${JSON.stringify(app, null, 2)}\n`);
}

/** One packument per packed package: the package.json inside the tarball, with its dist. */
function readPackuments(dir, baseUrl) {
  const packuments = new Map();
  for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.tgz'))) {
    const full = path.join(dir, file);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xOzf', full, 'package/package.json'], {
        encoding: 'utf8',
      }),
    );
    const data = fs.readFileSync(full);
    const published = fs.statSync(full).mtime.toISOString();
    const version = {
      ...manifest,
      _id: `${manifest.name}@${manifest.version}`,
      dist: {
        tarball: `${baseUrl}/-/tarballs/${encodeURIComponent(file)}`,
        shasum: crypto.createHash('sha1').update(data).digest('hex'),
        integrity: `sha512-${crypto
          .createHash('sha512')
          .update(data)
          .digest('base64')}`,
      },
    };
    packuments.set(manifest.name, {
      _id: manifest.name,
      name: manifest.name,
      'dist-tags': { latest: manifest.version },
      versions: { [manifest.version]: version },
      time: {
        created: published,
        modified: published,
        [manifest.version]: published,
      },
    });
  }
  return packuments;
}

function registry(dir, portFile) {
  // Read once the port is known: each packument names its tarball's address.
  let packuments;
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (url.startsWith('/-/tarballs/')) {
      const file = path.join(dir, path.basename(url));
      if (!fs.existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    const packument = packuments.get(url.slice(1));
    if (!packument) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `${url.slice(1)} is not packed here` }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(packument));
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    packuments = readPackuments(dir, `http://127.0.0.1:${port}`);
    fs.writeFileSync(portFile, String(port));
    process.stdout.write(
      `registry for ${[...packuments.keys()].join(
        ', ',
      )} on http://127.0.0.1:${port}\n`,
    );
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

let backendPid;

function backendAlive() {
  if (!backendPid) return true;
  try {
    process.kill(backendPid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Asks until `probe` returns a value (not undefined) or `seconds` pass; each try is a request. */
async function until(what, seconds, probe) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    if (!backendAlive())
      fail(`${what}: the backend (pid ${backendPid}) exited`);
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      fail(`${what}: not within ${seconds} s${last ? ` (${last})` : ''}`);
    await new Promise(r => setTimeout(r, 1000));
  }
}

async function check(base, pid) {
  backendPid = pid ? Number(pid) : undefined;
  const token = await until('guest sign-in', 120, async () => {
    const res = await fetch(`${base}/api/auth/guest/refresh`);
    if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    return (await res.json()).backstageIdentity.token;
  });
  const headers = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };
  const get = async p => {
    const res = await fetch(`${base}${p}`, { headers });
    if (!res.ok) throw new Error(`GET ${p}: HTTP ${res.status}`);
    return res.json();
  };
  const ok = m => process.stdout.write(`ok: ${m}\n`);

  // The model-manager API: every model of models.yaml.
  const models = await until('GET /api/model-manager/models', 60, () =>
    get('/api/model-manager/models'),
  );
  const names = models.items.map(m => m.name);
  if (names.length === 0) fail('GET /api/model-manager/models: no models');
  ok(`GET /api/model-manager/models lists ${names.length} models`);

  // The catalog: a Component per model (from the catalog module), and the templates.
  await until('model entities in the catalog', 180, async () => {
    const found = await get(
      '/api/catalog/entities/by-query?filter=kind=component,spec.type=model-server&limit=1000',
    );
    const have = new Set(found.items.map(e => e.metadata.name));
    const missing = names.filter(n => !have.has(n));
    return missing.length === 0 ? true : undefined;
  });
  ok(
    `the catalog has a model-server Component for each of the ${names.length} models`,
  );
  await until('the Deploy model template in the catalog', 180, async () => {
    const res = await fetch(
      `${base}/api/catalog/entities/by-name/template/default/deploy-model`,
      { headers },
    );
    return res.ok ? true : undefined;
  });
  ok('the catalog has the Deploy model template');

  // A dry-run deploy through the REST API.
  const model = 'bge-reranker-v2-m3';
  const res = await fetch(`${base}/api/model-manager/models/${model}/deploy`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      cluster: 'my-cluster',
      namespace: 'models',
      dryRun: true,
    }),
  });
  const body = await res.text();
  if (!res.ok) fail(`dry-run deploy of ${model}: HTTP ${res.status} ${body}`);
  ok(
    `POST /api/model-manager/models/${model}/deploy (dryRun): ${body.slice(
      0,
      300,
    )}`,
  );

  // A real deploy through the REST API: the objects reach the cluster and the fleet shows them.
  const applied = await fetch(
    `${base}/api/model-manager/models/${model}/deploy`,
    {
      method: 'POST',
      headers,
      body: JSON.stringify({ cluster: 'my-cluster', namespace: 'models' }),
    },
  );
  const appliedBody = await applied.text();
  if (!applied.ok)
    fail(`deploy of ${model}: HTTP ${applied.status} ${appliedBody}`);
  const kube = `http://127.0.0.1:${process.env.FRESH_APP_KUBE_PORT ?? 16643}`;
  const onCluster = await fetch(
    `${kube}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/${model}`,
    { headers: { authorization: 'Bearer admin-token' } },
  );
  if (!onCluster.ok)
    fail(
      `deploy of ${model}: the LLMInferenceService is not on the cluster (HTTP ${onCluster.status})`,
    );
  const fleet = await get(`/api/model-manager/models/${model}/fleet`);
  const target = fleet.items.find(
    t => t.cluster === 'my-cluster' && t.namespace === 'models',
  );
  if (!target)
    fail(
      `deploy of ${model}: GET /models/${model}/fleet does not list my-cluster/models`,
    );
  ok(
    `POST /api/model-manager/models/${model}/deploy applied revision ${
      JSON.parse(appliedBody).revision
    }: the LLMInferenceService is on the cluster and /fleet shows the target (${
      target.state
    })`,
  );

  // A dry-run deploy through the Deploy model template (the model-manager:deploy action).
  const created = await fetch(`${base}/api/scaffolder/v2/tasks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      templateRef: 'template:default/deploy-model',
      values: {
        model: 'component:default/bge-reranker-base-ov',
        cluster: 'my-cluster',
        namespace: 'models',
        dryRun: true,
        force: false,
      },
    }),
  });
  if (created.status !== 201)
    fail(`scaffolder task: HTTP ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  const task = await until('the Deploy model task to end', 120, async () => {
    const t = await get(`/api/scaffolder/v2/tasks/${id}`);
    return ['completed', 'failed', 'cancelled'].includes(t.status)
      ? t
      : undefined;
  });
  const events = await get(`/api/scaffolder/v2/tasks/${id}/events`);
  const log = events
    .filter(e => e.type === 'log')
    .map(e => e.body.message)
    .join('\n');
  if (task.status !== 'completed')
    fail(`the Deploy model task ${task.status}:\n${log}`);
  ok(`the Deploy model template's dry run completed:\n${log}`);
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'blocks':
    process.stdout.write(`${blocks(args[0], args[1])}\n`);
    break;
  case 'insert-backend':
    insertBackend(args[0], args[1]);
    break;
  case 'merge-config':
    mergeConfig(args[0], args[1]);
    break;
  case 'pin-backstage':
    pinBackstage(args[0], args[1]);
    break;
  case 'registry':
    registry(args[0], args[1]);
    break;
  case 'check':
    check(args[0], args[1]).catch(e => fail(e.stack ?? String(e)));
    break;
  default:
    fail(`unknown command ${command}`);
}
