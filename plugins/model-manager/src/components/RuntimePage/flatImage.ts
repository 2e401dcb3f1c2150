import type { RuntimeSummary } from '../../api';

/**
 * The one image a flat (unversioned) runtime runs, with where it is set: its plumbing `image`
 * key (e.g. runtimes/openvino/values.yaml `image:`), which the resolver uses when the runtime has
 * no `versions:` (common resolveServer: "for a flat runtime its plumbing `image`"; a model's
 * `server.image` replaces it). Undefined for a versioned runtime (each version names its image).
 */
export function flatImageOf(
  runtime: Pick<RuntimeSummary, 'versioned' | 'plumbing'>,
): { image: string; source: string } | undefined {
  if (runtime.versioned) return undefined;
  const image = runtime.plumbing?.image;
  if (!image || typeof image.value !== 'string') return undefined;
  return { image: image.value, source: image.source };
}
