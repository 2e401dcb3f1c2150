import type { EngineProfile } from '../profile/types';
import type { ResolvedEnvVar, ResolvedServer } from '../resolver/types';
import { isSecretKeyRef } from '../schema/secretRef';
import type { TemplateValue } from './types';

/**
 * A container's env list: `{ name, value }`, or for a Secret reference
 * `{ name, valueFrom: { secretKeyRef: { name, key } } }` (core/v1 EnvVarSource). Undefined when
 * empty, so the template leaves the key out.
 */
export function renderEnv(
  env: readonly ResolvedEnvVar[],
): TemplateValue[] | undefined {
  if (env.length === 0) return undefined;
  return env.map(e =>
    isSecretKeyRef(e.value)
      ? {
          name: e.name,
          valueFrom: {
            secretKeyRef: {
              name: e.value.secretKeyRef.name,
              key: e.value.secretKeyRef.key,
            },
          },
        }
      : { name: e.name, value: e.value },
  );
}

/** `imagePullSecrets` of a pod spec (core/v1 LocalObjectReference list), or undefined. */
export function renderPullSecrets(
  server: ResolvedServer,
): TemplateValue[] | undefined {
  const names = server.imagePullSecrets ?? [];
  return names.length > 0 ? names.map(p => ({ name: p.value })) : undefined;
}

/**
 * The env the weights download reads (the profile's `download.env`, e.g. HF_TOKEN), as the
 * model's layers set it: the download Job's container env (`download_env`).
 */
export function renderDownloadEnv(
  server: ResolvedServer,
  profile: EngineProfile,
): TemplateValue[] | undefined {
  return renderEnv(
    server.env.filter(e => profile.downloadEnv.includes(e.name)),
  );
}

/**
 * `download_init_containers`: for engines whose controller downloads in an init container it
 * adds itself (profile `download.init_container`, KServe's storage-initializer), a container of
 * that name holding only the download env. KServe merges a user-given container of that name into
 * its own: kserve/kserve@aaac4e294dae2c7b1aa1886447793f3aa1c30912
 * pkg/controller/v1alpha2/llmisvc/workload_storage.go attachStorageInitializer
 * (extractAndStripStorageInitializer + utils.MergeContainerWithPatch; the controller keeps its
 * own args and command) and its test "should merge user-provided env vars into
 * storage-initializer for hf:// URI" (controller_workload_storage_int_test.go). Without it the
 * storage initializer of an hf:// model gets no token: the controller only adds credentials from
 * a ServiceAccount's Secrets whose data key is exactly HF_TOKEN (pkg/credentials/hf/hf_secret.go),
 * never the main container's env.
 */
export function renderDownloadInitContainers(
  server: ResolvedServer,
  profile: EngineProfile,
): TemplateValue[] | undefined {
  const env = renderDownloadEnv(server, profile);
  if (!profile.downloadInitContainer || !env) return undefined;
  return [{ name: profile.downloadInitContainer, env }];
}
