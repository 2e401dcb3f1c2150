import {
  KSERVE_NAME_PATTERN,
  MAX_OBJECT_NAME_LENGTH,
  MODEL_NAME_OBJECTS,
} from '../constants';
import type { EngineProfile } from '../profile/types';

/**
 * Checks a model name against every object it becomes ({@link MODEL_NAME_OBJECTS}, the engine
 * profile's `name_suffixes`, and `more`: names the model's routing builds from it, such as the
 * workload Service its Backend points at): each derived name must match KServe's InferenceService
 * pattern and fit a DNS-1035 label (63 characters). Returns one message per broken rule.
 */
export function checkModelName(
  name: string,
  profile: Pick<EngineProfile, 'nameSuffixes'>,
  more: ReadonlyArray<{ object: string; suffix: string }> = [],
): string[] {
  const problems: string[] = [];
  if (!KSERVE_NAME_PATTERN.test(name)) {
    problems.push(
      `model name '${name}' does not match KServe's InferenceService name pattern ${KSERVE_NAME_PATTERN.source} (a lowercase letter first; lowercase letters, digits and -; not ending in -). Rename the model`,
    );
  }
  const seen = new Set<string>();
  for (const { object, suffix } of [
    ...MODEL_NAME_OBJECTS,
    ...profile.nameSuffixes,
    ...more,
  ]) {
    if (seen.has(suffix)) continue;
    seen.add(suffix);
    const derived = `${name}${suffix}`;
    if (derived.length > MAX_OBJECT_NAME_LENGTH) {
      problems.push(
        `model name '${name}' is too long: it names ${object} '${derived}' (${
          derived.length
        } characters), and Kubernetes names and label values are at most ${MAX_OBJECT_NAME_LENGTH}. Shorten the model name to at most ${
          MAX_OBJECT_NAME_LENGTH - suffix.length
        } characters`,
      );
    }
  }
  return problems;
}
