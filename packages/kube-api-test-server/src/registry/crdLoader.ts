/**
 * Loads CustomResourceDefinitions from YAML files. Parsing the KServe CRDs
 * takes seconds, so parsed documents are cached in memory and as JSON in the
 * OS temp directory, keyed by path, size and modification time.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { JsonObject, isObject } from '../util/json';

const CACHE_FORMAT = 'v1';
const memoryCache = new Map<string, JsonObject[]>();

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFiles(full));
    else if (/\.ya?ml$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

function cacheFile(key: string): string {
  const hash = crypto
    .createHash('sha256')
    .update(key)
    .digest('hex')
    .slice(0, 32);
  return path.join(
    os.tmpdir(),
    'kube-api-test-server-crd-cache',
    `${hash}.json`,
  );
}

function parseFile(file: string): JsonObject[] {
  const text = fs.readFileSync(file, 'utf8');
  return YAML.parseAllDocuments(text)
    .map(doc => doc.toJS({ maxAliasCount: -1 }) as unknown)
    .filter(
      (doc): doc is JsonObject =>
        isObject(doc) && doc.kind === 'CustomResourceDefinition',
    );
}

function loadFile(file: string): JsonObject[] {
  const stat = fs.statSync(file);
  const key = `${CACHE_FORMAT}|${path.resolve(file)}|${stat.size}|${
    stat.mtimeMs
  }`;
  const cached = memoryCache.get(key);
  if (cached) return cached;
  const diskPath = cacheFile(key);
  let docs: JsonObject[] | undefined;
  try {
    docs = JSON.parse(fs.readFileSync(diskPath, 'utf8')) as JsonObject[];
  } catch {
    docs = parseFile(file);
    try {
      fs.mkdirSync(path.dirname(diskPath), { recursive: true });
      const tmp = `${diskPath}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(docs));
      fs.renameSync(tmp, diskPath);
    } catch {
      // The cache is an optimisation only.
    }
  }
  memoryCache.set(key, docs);
  return docs;
}

/** Every CustomResourceDefinition in `*.yaml`/`*.yml` files under `dir`, recursively. */
export function loadCrds(dir: string): JsonObject[] {
  if (!fs.existsSync(dir)) {
    throw new Error(
      `CRD directory ${dir} does not exist (set crdDir or MODEL_MANAGER_CRD_DIR)`,
    );
  }
  return yamlFiles(dir).flatMap(loadFile);
}

/** The monorepo root: the nearest ancestor whose package.json declares workspaces. */
export function findRepoRoot(start: string): string | undefined {
  let dir = start;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        const json = JSON.parse(fs.readFileSync(pkg, 'utf8')) as {
          workspaces?: unknown;
        };
        if (json.workspaces) return dir;
      } catch {
        // keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The monorepo root, found from the working directory (tests and the CLI run
 * inside the repository) or, failing that, from this source file.
 */
export function repoRoot(): string {
  // This package runs from source (tests, CLI); __dirname is the source directory.
  // eslint-disable-next-line no-restricted-syntax
  const sourceDir = __dirname;
  return (
    findRepoRoot(process.cwd()) ?? findRepoRoot(sourceDir) ?? process.cwd()
  );
}

export function defaultCrdDir(): string {
  if (process.env.MODEL_MANAGER_CRD_DIR)
    return process.env.MODEL_MANAGER_CRD_DIR;
  return path.resolve(repoRoot(), 'test-assets/crds');
}
