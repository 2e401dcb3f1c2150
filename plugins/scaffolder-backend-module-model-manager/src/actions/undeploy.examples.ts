import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import yaml from 'yaml';

const step = (id: string, name: string, input: Record<string, unknown>) =>
  yaml.stringify({
    steps: [{ id, name, action: 'model-manager:undeploy', input }],
  });

/** Each example is run by undeploy.test.ts against a real model-manager backend. */
export const examples: TemplateExample[] = [
  {
    description:
      'Undeploy a model: delete its objects from the namespace (a shared ClusterServingRuntime stays)',
    example: step('undeploy', 'Undeploy model', {
      model: 'component:default/bge-reranker-base-ov',
      cluster: 'local',
      namespace: 'models',
    }),
  },
  {
    description: 'Undeploy a model named as in models.yaml',
    example: step('undeploy', 'Undeploy model', {
      model: 'bge-m3',
      cluster: 'local',
      namespace: 'models',
    }),
  },
];
