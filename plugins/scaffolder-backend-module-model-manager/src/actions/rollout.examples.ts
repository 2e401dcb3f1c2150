import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

export const examples: TemplateExample[] = [
  {
    description:
      'After moving default_version in models.yaml: move every vLLM target that runs something else, one canary first',
    example: yaml.stringify({
      steps: [
        {
          id: 'rollout',
          action: 'model-manager:rollout',
          name: 'Roll out the vLLM default version',
          input: { runtime: 'vllm' },
        },
      ],
    }),
  },
  {
    description:
      'Move the vLLM targets of one namespace to version 0.19.1, two canaries, 8 at a time, tolerating one failure',
    example: yaml.stringify({
      steps: [
        {
          id: 'rollout',
          action: 'model-manager:rollout',
          name: 'Roll out vLLM 0.19.1',
          input: {
            runtime: 'vllm',
            version: '0.19.1',
            cluster: 'local',
            namespace: 'models',
            canary: 2,
            concurrency: 8,
            maxFailures: 1,
            waitForCanary: false,
          },
        },
      ],
    }),
  },
  {
    description:
      'The promote step for held targets too: after moving default_version, move every vLLM target to it, including those an earlier rollout or a deploy request held at another version',
    example: yaml.stringify({
      steps: [
        {
          id: 'rollout',
          action: 'model-manager:rollout',
          name: 'Roll out the vLLM default version, held targets too',
          input: { runtime: 'vllm', includeHeld: true },
        },
      ],
    }),
  },
];
