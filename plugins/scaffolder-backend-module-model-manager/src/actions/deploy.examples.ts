import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

const step = (id: string, name: string, input: Record<string, unknown>) =>
  yaml.stringify({
    steps: [{ id, name, action: 'model-manager:deploy', input }],
  });

/** Each example is run by deploy.test.ts against a real model-manager backend. */
export const examples: TemplateExample[] = [
  {
    description:
      'Deploy the model picked in the form (a Component entity ref) with its defaults',
    example: step('deploy', 'Deploy model', {
      model: 'component:default/qwen2-5-7b-instruct',
      cluster: 'local',
      namespace: 'models',
    }),
  },
  {
    description:
      'Deploy an OpenVINO model by its models.yaml name (flat runtime: no serverVersion)',
    example: step('deploy', 'Deploy embedding model', {
      model: 'bge-small-en-v1-5-ov',
      cluster: 'local',
      namespace: 'models',
    }),
  },
  {
    description:
      'Deploy a vLLM model on another server version, with extra env and args; null removes an inherited variable',
    example: step('deploy', 'Deploy on vLLM 0.24.0', {
      model: 'component:default/llama-3-1-8b-instruct',
      cluster: 'local',
      namespace: 'models',
      serverVersion: '0.24.0',
      env: { VLLM_LOGGING_LEVEL: 'WARNING', VLLM_CPU_OMP_THREADS_BIND: null },
      args: ['--max-model-len=4096'],
    }),
  },
  {
    description:
      "Deploy with a variable read from a Secret of the target namespace (rendered as valueFrom.secretKeyRef); a request references a Secret, it never carries a secret's value",
    example: step('deploy', 'Deploy with a Hugging Face token reference', {
      model: 'component:default/qwen2-5-7b-instruct',
      cluster: 'local',
      namespace: 'models',
      env: { HF_TOKEN: { secretKeyRef: { name: 'hf-token', key: 'token' } } },
    }),
  },
  {
    description:
      'Server-side dry run: the API server validates every object, nothing is applied',
    example: step('dry-run', 'Dry run', {
      model: 'component:default/qwen2-5-vl-7b-instruct',
      cluster: 'local',
      namespace: 'models',
      dryRun: true,
    }),
  },
  {
    description:
      'Take over fields changed outside model-manager (after a 409 conflict naming another field manager)',
    example: step('deploy', 'Deploy, taking over fields', {
      model: 'component:default/qwen3-30b-a3b',
      cluster: 'local',
      namespace: 'models',
      force: true,
    }),
  },
];
