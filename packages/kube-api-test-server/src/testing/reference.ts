/** Reads the recorded kube-apiserver answers in test-assets/k8s-reference. */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../registry/crdLoader';

export interface RecordedResponse {
  file: string;
  request: string;
  status: number;
  headers: Record<string, string>;
  body: any;
}

export function referenceDir(): string {
  return path.resolve(repoRoot(), 'test-assets/k8s-reference');
}

export function readRequestBody(name: string): string {
  return fs.readFileSync(path.join(referenceDir(), 'requests', name), 'utf8');
}

export function readResponse(name: string): RecordedResponse {
  const text = fs.readFileSync(
    path.join(referenceDir(), 'responses', name),
    'utf8',
  );
  const lines = text.split('\n');
  const request = lines[0].replace(/^# request:\s*/, '');
  let i = 1;
  while (!lines[i].startsWith('HTTP/')) i++;
  const status = Number(lines[i].split(' ')[1]);
  const headers: Record<string, string> = {};
  for (i++; i < lines.length && lines[i].trim() !== ''; i++) {
    const idx = lines[i].indexOf(':');
    headers[lines[i].slice(0, idx).trim().toLowerCase()] = lines[i]
      .slice(idx + 1)
      .trim();
  }
  const rest = lines.slice(i).join('\n').trim();
  return {
    file: name,
    request,
    status,
    headers,
    body: rest ? JSON.parse(rest) : undefined,
  };
}

/** Replaces values that legitimately differ between servers (by default uids and resourceVersions). */
export function normalizeVolatile(
  value: any,
  keys: string[] = ['uid', 'resourceVersion'],
): any {
  if (Array.isArray(value)) return value.map(v => normalizeVolatile(v, keys));
  if (value && typeof value === 'object') {
    const out: any = {};
    for (const [k, v] of Object.entries(value)) {
      if (keys.includes(k) && typeof v === 'string') {
        out[k] = `<${k}>`;
      } else {
        out[k] = normalizeVolatile(v, keys);
      }
    }
    return out;
  }
  return value;
}
