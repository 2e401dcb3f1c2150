import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  CatalogError,
  MAX_SOURCE_BYTES,
  type CatalogSources,
  type SourceText,
} from '@model-manager/plugin-model-manager-common';
import type { CatalogLocation } from './types';

/**
 * Reads models.yaml and runtimes/ (values.yaml and profile.yaml per runtime, templates, the
 * manifests values.yaml points at) as text. File names in messages are relative to the folder holding models.yaml.
 * Unreadable, oversized or non-UTF-8 files are a {@link CatalogError} naming the file.
 */
export async function readCatalogSources(
  location: CatalogLocation,
): Promise<CatalogSources> {
  const modelsFile = path.resolve(location.modelsFile);
  const runtimesDir = path.resolve(
    location.runtimesDir ?? path.join(path.dirname(modelsFile), 'runtimes'),
  );
  const base = path.dirname(modelsFile);
  const show = (p: string) => {
    const rel = path.relative(base, p);
    return rel.startsWith('..') ? p : rel;
  };
  const read = async (p: string): Promise<SourceText> => ({
    file: show(p),
    text: await readText(p, show(p)),
  });

  const sources: CatalogSources = {
    models: await read(modelsFile),
    values: {},
    profiles: {},
    templates: {},
    manifests: {},
  };
  let entries: string[];
  try {
    entries = (await fs.readdir(runtimesDir, { withFileTypes: true }))
      .filter(e => e.isDirectory())
      .map(e => e.name)
      .sort();
  } catch (e) {
    throw new CatalogError([
      {
        file: show(runtimesDir),
        path: '',
        message: `cannot read the runtimes folder: ${(e as Error).message}`,
      },
    ]);
  }
  for (const name of entries) {
    const valuesPath = path.join(runtimesDir, name, 'values.yaml');
    if (await exists(valuesPath)) sources.values[name] = await read(valuesPath);
    const profilePath = path.join(runtimesDir, name, 'profile.yaml');
    if (await exists(profilePath))
      sources.profiles[`${name}/profile.yaml`] = await read(profilePath);
  }
  // Every template under runtimes/templates/ (a profile names the ones its engine renders).
  if (entries.includes('templates')) {
    for (const file of (
      await fs.readdir(path.join(runtimesDir, 'templates'))
    ).sort()) {
      if (!/\.ya?ml$/.test(file)) continue;
      sources.templates[file] = await read(
        path.join(runtimesDir, 'templates', file),
      );
    }
  }
  // Manifests named by serving_runtime_manifest, and templates of a runtime's own folder a
  // profile names: every other .yaml under a runtime folder.
  for (const name of entries) {
    if (name === 'templates') continue;
    for (const file of (
      await fs.readdir(path.join(runtimesDir, name))
    ).sort()) {
      if (file === 'values.yaml' || file === 'profile.yaml') continue;
      if (!/\.ya?ml$/.test(file)) continue;
      sources.manifests[`${name}/${file}`] = await read(
        path.join(runtimesDir, name, file),
      );
    }
  }
  return sources;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}

async function readText(p: string, shown: string): Promise<string> {
  let buffer: Buffer;
  try {
    const stat = await fs.stat(p);
    if (stat.size > MAX_SOURCE_BYTES) {
      throw new CatalogError([
        {
          file: shown,
          path: '',
          message: `file is ${stat.size} bytes, more than the ${MAX_SOURCE_BYTES} allowed`,
        },
      ]);
    }
    buffer = await fs.readFile(p);
  } catch (e) {
    if (e instanceof CatalogError) throw e;
    throw new CatalogError([
      {
        file: shown,
        path: '',
        message: `cannot read: ${(e as Error).message}`,
      },
    ]);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    const bad = firstInvalidUtf8(buffer);
    const before = buffer.subarray(0, bad).toString('utf8');
    const line = before.split('\n').length;
    const col = before.length - before.lastIndexOf('\n');
    throw new CatalogError([
      {
        file: shown,
        line,
        col,
        path: '',
        message: `not valid UTF-8 (byte 0x${(buffer[bad] ?? 0).toString(
          16,
        )} at offset ${bad}); save the file as UTF-8`,
      },
    ]);
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(buffer: Uint8Array): number {
  let i = 0;
  while (i < buffer.length) {
    const b = buffer[i];
    let need = 0;
    if (b < 0x80) need = 0;
    else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) need = 2;
    else if (b >= 0xf0 && b <= 0xf4) need = 3;
    else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= buffer.length || (buffer[i + k] & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return buffer.length;
}
