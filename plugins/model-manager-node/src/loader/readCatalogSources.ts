import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  CatalogError,
  catalogSourcesFromFiles,
  MAX_SOURCE_BYTES,
  runtimesFileRole,
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

  const models = await read(modelsFile);
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
  // Every file one level down (runtimes/<folder>/<file>) the catalog has a role for; which role
  // each has is catalogSourcesFromFiles' business.
  const files: Record<string, SourceText> = {};
  for (const name of entries) {
    const dir = path.join(runtimesDir, name);
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const relPath = `${name}/${entry.name}`;
      // Not isFile(): a ConfigMap volume mounts each file as a symlink.
      if (entry.isDirectory() || !runtimesFileRole(relPath)) continue;
      files[relPath] = await read(path.join(dir, entry.name));
    }
  }
  return catalogSourcesFromFiles(models, files);
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
