import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { isOwnedByModel } from '@model-manager/plugin-model-manager-common';
import {
  DeploymentFailedError,
  ModelManagerClient,
  type DeploymentResult,
} from '../client';
import type { ModelManagerActionOptions } from './actionOptions';
import { logDeployment, objectLabel } from './logDeployment';
import { parseModelRef } from './parseModelRef';
import { userFacingErrors } from './userFacingErrors';
import { objectResultSchema } from './schemas';
import { examples } from './undeploy.examples';
import { validateTarget } from './validateDeployInput';

export const UNDEPLOY_ACTION_ID = 'model-manager:undeploy';

/**
 * `model-manager:undeploy`: deletes a model's objects from a namespace through the model-manager
 * backend, as the user who started the task. A scaffolder dry run deletes nothing: it reads which
 * of the model's objects exist and logs what would be deleted.
 */
export function createUndeployModelAction(options: ModelManagerActionOptions) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: UNDEPLOY_ACTION_ID,
    description:
      'Undeploys a model: deletes its objects from a namespace through the model-manager backend, as the user who started the task (a shared ClusterServingRuntime stays). A scaffolder dry run deletes nothing.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        model: z =>
          z
            .string()
            .describe(
              'The model: its catalog entity ref (component:default/qwen2-5-7b-instruct) or its name in models.yaml',
            ),
        cluster: z =>
          z
            .string()
            .describe(
              'The cluster: a name from kubernetes.clusterLocatorMethods, such as local',
            ),
        namespace: z =>
          z.string().describe('The namespace the model is deployed in'),
      },
      output: {
        revision: z =>
          z
            .number()
            .optional()
            .describe(
              "The history revision recorded for the undeploy (not set for a scaffolder dry run, nor when none of the model's objects was there)",
            ),
        objects: z =>
          z
            .array(objectResultSchema(z))
            .optional()
            .describe(
              'Each object and what happened to it (deleted, absent, failed, not-applied)',
            ),
        modelEntityRef: z =>
          z.string().describe("The model's catalog entity ref"),
      },
    },
    async handler(ctx) {
      return userFacingErrors(options.logger, UNDEPLOY_ACTION_ID, async () => {
        const { name: model, entityRef } = parseModelRef(ctx.input.model);
        const { cluster, namespace } = ctx.input;
        validateTarget({ cluster, namespace });
        const credentials = await ctx.getInitiatorCredentials();
        ctx.output('modelEntityRef', entityRef);

        if (ctx.isDryRun) {
          ctx.logger.info(
            `Dry run: nothing is deleted. Undeploying model ${model} from cluster ${cluster}, namespace ${namespace} would:`,
          );
          const diff = await client.diff(
            model,
            { cluster, namespace },
            credentials,
          );
          // Undeploy leaves shared objects (the ClusterServingRuntime, the namespace's weights
          // claim) alone.
          for (const o of diff.objects.filter(isOwnedByModel).reverse()) {
            ctx.logger.info(
              `${objectLabel(o)}: ${
                o.exists ? 'delete' : 'absent, nothing to delete'
              }`,
            );
          }
          return;
        }

        ctx.logger.info(
          `Undeploying model ${model} from cluster ${cluster}, namespace ${namespace}`,
        );
        let result: DeploymentResult;
        try {
          result = await ctx.checkpoint({
            key: `undeploy-${model}-${cluster}-${namespace}`,
            fn: () =>
              client.undeploy(model, { cluster, namespace }, credentials),
          });
        } catch (e) {
          if (e instanceof DeploymentFailedError)
            logDeployment(ctx.logger, e.deployment);
          throw e;
        }
        logDeployment(ctx.logger, result);
        // An undeploy that found none of the model's objects takes no revision.
        if (result.revision !== undefined)
          ctx.output('revision', result.revision);
        ctx.output('objects', result.objects);
      });
    },
  });
}
