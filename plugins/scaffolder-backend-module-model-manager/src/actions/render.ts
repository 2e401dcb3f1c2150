import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveSafeChildPath } from '@backstage/backend-plugin-api';
import { renderGitOpsLayout } from '@model-manager/plugin-model-manager-common';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { ModelManagerClient, type RenderRequest } from '../client';
import type { ModelManagerActionOptions } from './actionOptions';
import { examples } from './render.examples';
import { parseModelRef } from './parseModelRef';
import { requestOverrides } from './requestOverrides';
import { userFacingErrors } from './userFacingErrors';
import { modelOverridesInput } from './schemas';
import { validateDeployInput } from './validateDeployInput';

export const RENDER_ACTION_ID = 'model-manager:render';

/**
 * `model-manager:render`: writes the objects a deploy of a model would apply into the task
 * workspace, for a GitOps repository (Argo CD, Flux, `kubectl apply -k`):
 * `<targetPath>/<cluster>/<namespace>/<model>/`, one `<kind>-<name>.yaml` per object and a
 * `kustomization.yaml` (the layout of `renderGitOpsLayout`, which the CLI's `render --out-dir`
 * writes too). The objects come from the model-manager backend (its models.yaml, its cluster and
 * namespace checks), asked as the user who started the task: the backend checks
 * `model-manager.model.render` on the model's entity and audits the render (`model-render`); a
 * denial fails the task with the backend's message naming the user, the model and why, and
 * writes nothing. Nothing reaches a cluster, so a scaffolder dry run writes the files too.
 */
export function createRenderModelAction(options: ModelManagerActionOptions) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: RENDER_ACTION_ID,
    description:
      'Writes the Kubernetes objects a deploy of a model would apply into the workspace as <cluster>/<namespace>/<model>/ (one file per object and a kustomization.yaml), for a GitOps repository; follow it with a publish action such as publish:github:pull-request. Applies nothing.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        ...modelOverridesInput,
        cluster: z =>
          z
            .string()
            .describe(
              'The cluster the objects are for: a name from kubernetes.clusterLocatorMethods, such as local (the first folder of the layout)',
            ),
        namespace: z =>
          z
            .string()
            .describe(
              'The Kubernetes namespace the objects are for (a DNS-1123 label); the cluster must allow it',
            ),
        targetPath: z =>
          z
            .string()
            .optional()
            .describe(
              "A folder of the workspace (and so of the repository) to write <cluster>/ under, such as clusters; default '' (the root)",
            ),
      },
      output: {
        path: z =>
          z
            .string()
            .describe(
              'The folder written, relative to the workspace, such as local/models/qwen2-5-7b-instruct (point an Argo CD Application or Flux Kustomization at it)',
            ),
        files: z =>
          z
            .array(z.string())
            .describe(
              'Each file written, relative to the workspace, kustomization.yaml last',
            ),
        modelEntityRef: z =>
          z
            .string()
            .describe(
              "The model's catalog entity ref, such as component:default/qwen2-5-7b-instruct",
            ),
      },
    },
    async handler(ctx) {
      return userFacingErrors(options.logger, RENDER_ACTION_ID, async () => {
        const { name: model, entityRef } = parseModelRef(ctx.input.model);
        const { cluster, namespace } = ctx.input;
        const request: RenderRequest = {
          cluster,
          namespace,
          ...requestOverrides(ctx.input),
        };
        validateDeployInput({ ...request, cluster, namespace });

        const credentials = await ctx.getInitiatorCredentials();
        const { items } = await client.render(model, request, credentials);
        const files = renderGitOpsLayout(items, {
          cluster,
          namespace,
          model,
          targetPath: ctx.input.targetPath ?? '',
        });
        const dir = path.posix.dirname(files[files.length - 1].path);
        // The model's folder holds exactly this render: files of objects it no longer has go.
        await fs.rm(resolveSafeChildPath(ctx.workspacePath, dir), {
          recursive: true,
          force: true,
        });
        for (const file of files) {
          const target = resolveSafeChildPath(ctx.workspacePath, file.path);
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.writeFile(target, file.content, 'utf8');
        }
        ctx.logger.info(
          `Wrote ${
            items.length
          } objects of model ${model} for cluster ${cluster}, namespace ${namespace} to ${dir}/: ${files
            .map(f => path.posix.basename(f.path))
            .join(', ')}`,
        );
        ctx.output('path', dir);
        ctx.output(
          'files',
          files.map(f => f.path),
        );
        ctx.output('modelEntityRef', entityRef);
      });
    },
  });
}
