import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

const step = (id: string, name: string, input: Record<string, unknown>) =>
  yaml.stringify({
    steps: [{ id, name, action: 'model-manager:render', input }],
  });

/** Each example is run by render.test.ts against a real model-manager backend. */
export const examples: TemplateExample[] = [
  {
    description:
      'Write the objects of the model picked in the form (a Component entity ref) to local/models/<model>/ in the workspace, with a kustomization.yaml',
    example: step('render', 'Render model', {
      model: 'component:default/qwen2-5-7b-instruct',
      cluster: 'local',
      namespace: 'models',
    }),
  },
  {
    description:
      'Render an OpenVINO model by its models.yaml name; its shared objects (serving runtime, weights claim) are annotated so Argo CD and Flux never prune them',
    example: step('render', 'Render embedding model', {
      model: 'bge-small-en-v1-5-ov',
      cluster: 'local',
      namespace: 'models',
    }),
  },
  {
    description:
      'Render a vLLM model on another server version, with extra env and args, under a folder of the GitOps repository',
    example: step('render', 'Render on vLLM 0.24.0', {
      model: 'component:default/llama-3-1-8b-instruct',
      cluster: 'local',
      namespace: 'models',
      serverVersion: '0.24.0',
      env: { VLLM_LOGGING_LEVEL: 'WARNING', VLLM_CPU_OMP_THREADS_BIND: null },
      args: ['--max-model-len=4096'],
      targetPath: 'clusters',
    }),
  },
];
