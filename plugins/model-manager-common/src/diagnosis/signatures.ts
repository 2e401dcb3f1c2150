import { z } from 'zod';
import type { SignatureWhere } from '../api/diagnosis';

/**
 * A known message: where it is looked for, the regular expression (JavaScript syntax) a log line,
 * Event message, KServe condition message or container reason (`Reason: message`) is matched
 * against, what it means and the fix. Engines list theirs in their profile (`diagnosis:`); the
 * Kubernetes ones every engine shares are {@link KUBERNETES_SIGNATURES}.
 */
export interface Signature {
  id: string;
  where: SignatureWhere;
  match: string;
  meaning: string;
  fix: string;
}

/** A signature with its compiled expression and the list it comes from. */
export interface CompiledSignature extends Signature {
  regex: RegExp;
  source: string;
}

const line = (what: string) =>
  z
    .string({ invalid_type_error: `must be a string (${what})` })
    .min(1, `must not be empty (${what})`)
    .regex(/^[^\r\n\0]*$/, `must be a single line (${what})`);

/** One `diagnosis:` item of a profile. */
export const signatureSchema = z
  .object({
    id: line('a short id such as gated-repo').regex(
      /^[a-z0-9][a-z0-9-]*$/,
      'id must hold lowercase letters, digits and -',
    ),
    where: z.enum(['log', 'event', 'condition', 'container'], {
      errorMap: () => ({
        message:
          'where must be log (a container log line), event (an Event message), condition (a KServe condition message) or container (a container state: Reason: message)',
      }),
    }),
    match: line('a regular expression').refine(
      m => {
        try {
          RegExp(m);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'match is not a valid (JavaScript) regular expression' },
    ),
    meaning: line('what the message means, in words'),
    fix: line('what to change'),
  })
  .strict();

/** Compiles a list of signatures, naming where they come from. */
export function compileSignatures(
  list: readonly Signature[],
  source: string,
): CompiledSignature[] {
  return list.map(s => ({ ...s, regex: new RegExp(s.match), source }));
}

/**
 * What Kubernetes itself says about any model's pods, whatever the engine. Each entry cites where
 * the text is made.
 */
export const KUBERNETES_SIGNATURES: readonly Signature[] = [
  // Container states: kubelet's reasons (pkg/kubelet/images/types.go ErrImagePull
  // "ErrImagePull", ErrImagePullBackOff "ImagePullBackOff", ErrInvalidImageName
  // "InvalidImageName"; pkg/kubelet/kuberuntime CrashLoopBackOff, CreateContainerConfigError) and
  // the container runtime's OOMKilled (cri-api ContainerStatus.Reason, exit code 137).
  {
    id: 'oom-killed',
    where: 'container',
    match: '^OOMKilled',
    meaning:
      'the container used more memory than its limit and the kernel killed it (OOMKilled, exit code 137)',
    fix: 'raise the memory limit (the category or model memory), or make the engine allocate less (a smaller KV cache, a shorter max model length)',
  },
  {
    id: 'image-pull',
    where: 'container',
    match: '^(ImagePullBackOff|ErrImagePull)',
    meaning: 'the node cannot pull the serving image',
    fix: "check that the image and tag exist (the runtime version's image) and that the cluster can reach the registry; a private registry needs imagePullSecrets",
  },
  {
    id: 'invalid-image-name',
    where: 'container',
    match: '^InvalidImageName',
    meaning: 'the image reference is not a valid image name',
    fix: "correct the runtime version's image in models.yaml",
  },
  {
    id: 'config-error',
    where: 'container',
    match: '^CreateContainerConfigError',
    meaning:
      'the container cannot be created: a Secret or ConfigMap it reads (such as the Hugging Face token) is missing',
    fix: 'create the Secret or ConfigMap the message names in the model namespace',
  },
  {
    id: 'crash-loop',
    where: 'container',
    match: '^CrashLoopBackOff',
    meaning:
      'the server starts and exits again and again; the kubelet waits longer before each restart',
    fix: "read the log of the previous run below: the engine's own error is there",
  },
  // Events. The kubelet: pkg/kubelet/images/image_manager.go `Failed to pull image %q: %v`,
  // with containerd's "<ref>: not found" (remotes/docker/resolver.go) or a registry's
  // "manifest unknown" (OCI distribution spec error code MANIFEST_UNKNOWN).
  {
    id: 'image-tag-not-found',
    where: 'event',
    match:
      'Failed to pull image .*(: not found|manifest unknown|code = NotFound)',
    meaning: 'the image tag does not exist in the registry',
    fix: "set a version whose image exists (the runtime's versions in models.yaml), or push the image",
  },
  {
    id: 'image-pull-denied',
    where: 'event',
    match:
      'Failed to pull image .*(pull access denied|401 Unauthorized|403 Forbidden|insufficient_scope|authorization failed)',
    meaning: 'the registry refused to serve the image to the node',
    fix: 'give the namespace imagePullSecrets for the registry, or use a public image',
  },
  // The scheduler: pkg/scheduler/framework/plugins/noderesources/fit.go `Insufficient %v`,
  // reported as "0/3 nodes are available: 3 Insufficient cpu."
  {
    id: 'insufficient-resources',
    where: 'event',
    match: 'Insufficient (cpu|memory|ephemeral-storage|[\\w.-]+/[\\w.-]+)',
    meaning:
      "no node has enough free resources for the pod's requests, so it stays Pending",
    fix: "lower the model's cpu/memory (category or model resources), free capacity, or add nodes",
  },
  // The scheduler's VolumeBinding plugin: "pod has unbound immediate PersistentVolumeClaims".
  {
    id: 'unbound-claim',
    where: 'event',
    match: 'unbound immediate PersistentVolumeClaims',
    meaning:
      'the weights claim (PersistentVolumeClaim) is not bound to a volume, so the pod cannot be scheduled',
    fix: 'check the claim: a default StorageClass, or a storageClassName the cluster has',
  },
  // The scheduler's TaintToleration plugin: "node(s) had untolerated taint {...}".
  {
    id: 'untolerated-taint',
    where: 'event',
    match: 'had untolerated taint',
    meaning: 'the nodes with room are tainted and the pod does not tolerate it',
    fix: 'add the toleration to the model, or schedule it on untainted nodes',
  },
  // The kubelet's volume manager: "MountVolume.SetUp failed for volume ..." and
  // "Unable to attach or mount volumes: ..." (FailedMount).
  {
    id: 'failed-mount',
    where: 'event',
    match: 'MountVolume\\.SetUp failed|Unable to attach or mount volumes',
    meaning:
      'a volume of the pod cannot be mounted (the weights claim, or a Secret it mounts)',
    fix: 'check the volume the message names exists in the namespace and is bound',
  },
  // kube-apiserver's ResourceQuota admission: "exceeded quota: ..." (a FailedCreate Event).
  {
    id: 'exceeded-quota',
    where: 'event',
    match: 'exceeded quota',
    meaning:
      "the namespace's ResourceQuota refuses the pod, so it is never created",
    fix: "raise the namespace quota or lower the model's requests",
  },
  // KServe: pkg/controller/v1beta1/inferenceservice/utils GetServingRuntime, "No ServingRuntimes
  // or ClusterServingRuntimes with the name: <name>".
  {
    id: 'serving-runtime-missing',
    where: 'condition',
    match: 'No ServingRuntimes or ClusterServingRuntimes with the name',
    meaning: 'KServe cannot find the ServingRuntime the InferenceService names',
    fix: 'deploy again (the ClusterServingRuntime is created when missing) or create the runtime',
  },
];

const compiled = new WeakMap<object, readonly CompiledSignature[]>();
let common: readonly CompiledSignature[] | undefined;

/**
 * The signatures a diagnosis of an engine's model uses: the engine's, then the common ones.
 * Compiled once per profile: the fleet diagnoses every NotReady target with its runtime's, and
 * compiling them for each (a RegExp per signature) was most of a cold `/fleet`'s diagnosis CPU at
 * 1000 targets (docs/performance.md, "Fourth round"). The regular expressions have no flags, so
 * they keep no state between matches and can be shared.
 */
export function signaturesFor(profile?: {
  file: string;
  signatures: readonly Signature[];
}): readonly CompiledSignature[] {
  common ??= compileSignatures(KUBERNETES_SIGNATURES, 'kubernetes');
  if (!profile) return common;
  let list = compiled.get(profile);
  if (!list) {
    list = [...compileSignatures(profile.signatures, profile.file), ...common];
    compiled.set(profile, list);
  }
  return list;
}
