import { toKubernetesYaml } from '@model-manager/plugin-model-manager-common';

/** YAML that YAML 1.1 readers (kubectl, PyYAML) and 1.2 readers read the same way. */
export function toYaml(value: unknown): string {
  return toKubernetesYaml(value);
}
