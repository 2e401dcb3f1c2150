import type { ModelStatus } from '../api';

/**
 * The status of model qwen's LLMInferenceService on local/models (revision 1), Ready; `summary`
 * and `overrides` set what a test is about.
 */
export function qwenStatus(
  summary: Partial<NonNullable<ModelStatus['summary']>> = {},
  overrides: Partial<ModelStatus> = {},
): ModelStatus {
  return {
    cluster: 'local',
    namespace: 'models',
    revision: 1,
    found: true,
    summary: {
      kind: 'LLMInferenceService',
      name: 'qwen',
      ready: true,
      conditions: [{ type: 'Ready', status: 'True' }],
      problems: [],
      ...summary,
    },
    ...overrides,
  };
}
