import { InputError } from '@backstage/errors';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import { objectLabel } from './describeFailure';

/**
 * The largest object model-manager sends, as JSON: etcd's default `--max-request-bytes`, 1.5 MiB
 * (`DefaultMaxRequestBytes = 1.5 * 1024 * 1024`, go.etcd.io/etcd server/embed/config.go), less
 * 64 KiB for what the API server adds before storing it (managedFields, defaults, the status of a
 * Job). A larger write is refused by etcd, which kube-apiserver answers with a 500 "etcdserver:
 * request is too large" (recorded against v1.34.9 with a 1.8 MB Job; its dry run, not written to
 * etcd, is accepted, so only this check tells a dry run the truth). kube-apiserver's own limit on a
 * request body, 3 MiB (`MaxRequestBodyBytes`, k8s.io/apiserver pkg/server/config.go), is higher
 * and never reached first.
 */
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024 - 64 * 1024;

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const format = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(2)} MiB`
    : `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * Refuses objects too large to store, before anything is sent: the message names the object, its
 * size, the limit and the field that makes it large.
 * @throws InputError
 */
export function checkObjectSizes(objects: RenderedObject[]): void {
  for (const object of objects) {
    const bytes = size(object.manifest);
    if (bytes <= MAX_OBJECT_BYTES) continue;
    const largest = largestField(object.manifest);
    throw new InputError(
      `${objectLabel(object)} is ${format(
        bytes,
      )} (${bytes} bytes as JSON), more than a cluster stores in one object: etcd refuses writes over its --max-request-bytes (default 1.5 MiB) and model-manager sends at most ${MAX_OBJECT_BYTES} bytes, leaving room for what the API server adds. Its largest field is ${
        largest.path
      } (${format(
        largest.bytes,
      )}): make it smaller (in models.yaml or the deploy's overrides). Nothing was applied.`,
    );
  }
}

/**
 * The field that holds most of an object: from the root, the child holding the most bytes, as long
 * as that child holds at least half of its parent (a long list of small values is named as the
 * list). Paths read `spec.template.spec.containers[0].args[2]`.
 */
export function largestField(value: unknown): { path: string; bytes: number } {
  let path = '';
  let node = value;
  let bytes = size(value);
  for (;;) {
    const dot = path ? '.' : '';
    const children: Array<[string, unknown]> = Array.isArray(node)
      ? node.map((v, i) => [`[${i}]`, v])
      : node && typeof node === 'object'
      ? Object.entries(node).map(([k, v]) => [`${dot}${k}`, v])
      : [];
    let best: [string, unknown, number] | undefined;
    for (const [key, child] of children) {
      const n = size(child);
      if (!best || n > best[2]) best = [key, child, n];
    }
    if (!best || best[2] * 2 < bytes)
      return { path: path || '(the object)', bytes };
    path += best[0];
    node = best[1];
    bytes = best[2];
  }
}
