import { isDeepStrictEqual } from 'node:util';

/**
 * Whether a dry run's answer holds the same object as the live one: everything but
 * `metadata.resourceVersion`, `metadata.generation`, `metadata.managedFields` and `status`.
 *
 * A dry run cannot be judged by its resourceVersion: kube-apiserver answers a dry-run update with
 * the live object's resourceVersion whether or not it would change it (nothing is written to etcd,
 * so no new version is taken), and bumps `generation` and the managedFields entry's `time` when the
 * spec would change (recorded against v1.34.9: a Job whose backoffLimit a dry run changes comes
 * back with resourceVersion "205", as live, and generation 2; the same apply again comes back equal
 * to the live object). `status` is left out because the main resource cannot change it and a
 * controller may have written it between the read and the dry run.
 */
export function sameContent(
  live: Record<string, any> | undefined,
  dryRun: Record<string, any> | undefined,
): boolean {
  if (!live || !dryRun) return false;
  return isDeepStrictEqual(content(live), content(dryRun));
}

function content(object: Record<string, any>): Record<string, any> {
  const { status: _status, metadata = {}, ...rest } = object;
  const {
    resourceVersion: _resourceVersion,
    generation: _generation,
    managedFields: _managedFields,
    ...meta
  } = metadata;
  return { ...rest, metadata: meta };
}
