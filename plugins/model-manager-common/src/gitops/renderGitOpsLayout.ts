import { InputError } from '@backstage/errors';
import type { RenderedObject } from '../renderer/types';
import { toKubernetesYaml } from '../renderer/toKubernetesYaml';
import type { GitOpsFile, GitOpsTarget } from './types';

/**
 * Annotations for a shared object (`applyPolicy: create-if-absent`: the ClusterServingRuntime,
 * a namespace's weights claim). model-manager creates such an object once and never changes or
 * deletes it, because other models use it; these ask the GitOps engines for the same:
 *
 * - Argo CD: `Prune=false` keeps it when it leaves git, `Delete=false` keeps it when the
 *   Application is deleted
 *   (https://argo-cd.readthedocs.io/en/stable/user-guide/sync-options/#no-prune-resources and
 *   #no-resource-deletion; several options joined with `,`).
 * - Flux: `prune: disabled` keeps it out of garbage collection, `ssa: IfNotPresent` applies it
 *   only when absent
 *   (https://fluxcd.io/flux/components/kustomize/kustomizations/#controlling-the-apply-behavior-of-resources).
 */
export const GITOPS_SHARED_OBJECT_ANNOTATIONS: Readonly<
  Record<string, string>
> = {
  'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false',
  'kustomize.toolkit.fluxcd.io/prune': 'disabled',
  'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent',
};

/**
 * Annotations for an object model-manager deletes and creates again when a change touches an
 * immutable field (`applyPolicy: recreate-when-immutable`: the weights download Job, whose pod
 * template kube-apiserver refuses to change), asking the GitOps engines for the same:
 *
 * - Argo CD: `Force=true,Replace=true` syncs it with `kubectl replace --force`, deleting and
 *   creating it (https://argo-cd.readthedocs.io/en/stable/user-guide/sync-options/#replace-resource-instead-of-applying-changes).
 * - Flux: `force: enabled` recreates it when the apply fails on an immutable field
 *   (kustomize-controller, https://fluxcd.io/flux/components/kustomize/kustomizations/#controlling-the-apply-behavior-of-resources).
 */
export const GITOPS_RECREATE_ANNOTATIONS: Readonly<Record<string, string>> = {
  'argocd.argoproj.io/sync-options': 'Force=true,Replace=true',
  'kustomize.toolkit.fluxcd.io/force': 'enabled',
};

/** The top-level keys Kubernetes writes first; the rest keep the renderer's order. */
const LEADING_KEYS = ['apiVersion', 'kind', 'metadata'];

/**
 * A model's rendered objects as files a GitOps repository holds, in a layout Argo CD, Flux and
 * `kubectl apply -k` read:
 *
 * ```
 * <targetPath>/<cluster>/<namespace>/<model>/
 *   kustomization.yaml          # kustomize.config.k8s.io/v1beta1 Kustomization, resources: every file below
 *   <kind-lowercase>-<name>.yaml  # one object per file
 * ```
 *
 * Each object is written with {@link toKubernetesYaml} (strings a YAML 1.1 reader such as
 * kubectl's would misread are quoted), `apiVersion`, `kind`, `metadata` first and the rest in
 * the renderer's order, so the same objects always give the same bytes. Shared objects
 * (create-if-absent) get {@link GITOPS_SHARED_OBJECT_ANNOTATIONS}. Inputs are not mutated.
 *
 * Pure: the scaffolder action writes the result into the task workspace, the CLI into --out-dir.
 * @throws InputError when a path segment or targetPath is not a plain relative folder name.
 */
export function renderGitOpsLayout(
  objects: RenderedObject[],
  target: GitOpsTarget,
): GitOpsFile[] {
  const dir = [
    ...targetPathSegments(target.targetPath ?? ''),
    segment('cluster', target.cluster),
    segment('namespace', target.namespace),
    segment('model', target.model),
  ].join('/');
  const files: GitOpsFile[] = [];
  const seen = new Map<string, RenderedObject>();
  for (const object of objects) {
    const name = `${object.kind.toLowerCase()}-${object.name}.yaml`;
    const other = seen.get(name);
    if (other)
      throw new InputError(
        `two objects would both be written to ${dir}/${name}: ${describe(
          other,
        )} and ${describe(object)}`,
      );
    seen.set(name, object);
    files.push({
      path: `${dir}/${name}`,
      content: toKubernetesYaml(forGit(object)),
    });
  }
  files.push({
    path: `${dir}/kustomization.yaml`,
    content: toKubernetesYaml({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [...seen.keys()],
    }),
  });
  return files;
}

/**
 * The manifest with its leading keys first and, for a shared object or one recreated on immutable
 * changes, the GitOps annotations.
 */
function forGit(object: RenderedObject): Record<string, unknown> {
  const manifest = object.manifest;
  const ordered: Record<string, unknown> = {};
  for (const key of LEADING_KEYS)
    if (key in manifest) ordered[key] = manifest[key];
  for (const [key, value] of Object.entries(manifest))
    if (!LEADING_KEYS.includes(key)) ordered[key] = value;
  const extra =
    object.applyPolicy === 'create-if-absent'
      ? GITOPS_SHARED_OBJECT_ANNOTATIONS
      : object.applyPolicy === 'recreate-when-immutable'
      ? GITOPS_RECREATE_ANNOTATIONS
      : undefined;
  if (extra) {
    const metadata = (manifest.metadata ?? {}) as Record<string, unknown>;
    ordered.metadata = {
      ...metadata,
      annotations: {
        ...((metadata.annotations ?? {}) as Record<string, string>),
        ...extra,
      },
    };
  }
  return ordered;
}

function describe(object: RenderedObject): string {
  return `${object.apiVersion} ${object.kind} ${object.name}`;
}

/** A folder name: not empty, no `/` or `\`, not `.` or `..`. */
function segment(field: string, value: string): string {
  if (
    typeof value !== 'string' ||
    value === '' ||
    value === '.' ||
    value === '..' ||
    /[/\\\0]/.test(value)
  )
    throw new InputError(
      `${field}: '${value}' cannot be a folder name of the GitOps layout (it must be non-empty, without / or \\, and not . or ..)`,
    );
  return value;
}

/** targetPath as folder names: relative, `/`-separated, no `..`; '' and '.' are the root. */
function targetPathSegments(targetPath: string): string[] {
  if (targetPath.startsWith('/') || /^[A-Za-z]:/.test(targetPath))
    throw new InputError(
      `targetPath: '${targetPath}' must be a folder relative to the repository root, such as clusters or deploy/models`,
    );
  const parts = targetPath.split('/').filter(p => p !== '' && p !== '.');
  for (const part of parts)
    if (part === '..' || /[\\\0]/.test(part))
      throw new InputError(
        `targetPath: '${targetPath}' must stay inside the repository (no .. or \\), such as clusters or deploy/models`,
      );
  return parts;
}
