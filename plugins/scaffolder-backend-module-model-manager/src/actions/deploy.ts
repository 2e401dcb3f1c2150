import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { preflightRefusalMessage } from '@model-manager/plugin-model-manager-common';
import {
  DeploymentFailedError,
  ModelManagerClient,
  PreflightRefusedError,
  type DeploymentResult,
  type DeployRequest,
} from '../client';
import type { ModelManagerWaitingActionOptions } from './actionOptions';
import { examples } from './deploy.examples';
import { logDeployment } from './logDeployment';
import { parseModelRef } from './parseModelRef';
import { requestOverrides } from './requestOverrides';
import { userFacingErrors } from './userFacingErrors';
import {
  modelOverridesInput,
  objectResultSchema,
  readyTimeoutSecondsInput,
} from './schemas';
import { validateDeployInput } from './validateDeployInput';
import {
  DEFAULT_READY_POLL_INTERVAL_MS,
  readyTimeoutMs,
  waitForReady,
} from './waitForReady';

export const DEPLOY_ACTION_ID = 'model-manager:deploy';

/**
 * How a task applies anyway after a preflight refusal: the action's input, and the checkbox of the
 * Deploy model template that sets it (the backend's message names the REST field).
 */
export const APPLY_ANYWAY_IN_A_TASK =
  'To apply anyway, run it again with skipPreflight (in the Deploy model form: tick "Deploy even if a preflight check fails"); the audit log and the history row say so';

/**
 * `model-manager:deploy`: deploys a model of models.yaml to a cluster through the model-manager
 * backend, as the user who started the task (their permission, audit event and history row).
 * A scaffolder dry run, or `dryRun: true`, asks for a server-side dry run: the API server
 * validates every object and nothing is applied.
 */
export function createDeployModelAction(
  options: ModelManagerWaitingActionOptions,
) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: DEPLOY_ACTION_ID,
    description:
      'Deploys a model of models.yaml to a Kubernetes cluster with server-side apply, through the model-manager backend and as the user who started the task. Logs what was applied where; a scaffolder dry run (or dryRun: true) applies nothing.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        ...modelOverridesInput,
        cluster: z =>
          z
            .string()
            .describe(
              'The cluster to deploy to: a name from kubernetes.clusterLocatorMethods, such as local',
            ),
        namespace: z =>
          z
            .string()
            .describe(
              'The Kubernetes namespace to deploy to (a DNS-1123 label: lowercase letters, digits and -)',
            ),
        dryRun: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Server-side dry run: the API server validates every object and nothing is applied (default false)',
            ),
        force: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Take over fields another field manager owns (after a 409 conflict); default false',
            ),
        skipPreflight: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Apply even when a preflight check fails (the namespace, quota, nodes, storage, gateway, ...); audited and named in the history row. Default false: a failed check refuses the deploy and nothing is applied',
            ),
        waitForReady: z =>
          z
            .boolean()
            .optional()
            .describe(
              'After applying, wait until KServe reports the model Ready (its InferenceService or LLMInferenceService Ready condition); fails after readyTimeoutSeconds. Ignored for dry runs. Default false',
            ),
        readyTimeoutSeconds: readyTimeoutSecondsInput(
          'How long waitForReady waits, in seconds (default 900). The objects stay applied when it runs out',
        ),
      },
      output: {
        revision: z =>
          z
            .number()
            .optional()
            .describe(
              "The model's revision recorded for this deploy (1, 2, 3 ... per model); not set for a dry run",
            ),
        objects: z =>
          z
            .array(objectResultSchema(z))
            .describe(
              'Each object applied (or dry-run) and what happened to it',
            ),
        endpoint: z =>
          z
            .string()
            .optional()
            .describe(
              "The base URL OpenAI clients call the model at (e.g. https://gateway/v1): the URL KServe reports, else the cluster's gateway (modelManager.kubernetes.clusters.<cluster>.gatewayBaseUrl); absent when neither is known",
            ),
        modelEntityRef: z =>
          z
            .string()
            .describe(
              "The model's catalog entity ref, such as component:default/qwen2-5-7b-instruct",
            ),
        ready: z =>
          z
            .boolean()
            .optional()
            .describe('true when waitForReady saw the model Ready'),
      },
    },
    async handler(ctx) {
      return userFacingErrors(options.logger, DEPLOY_ACTION_ID, async () => {
        const { name: model, entityRef } = parseModelRef(ctx.input.model);
        const { cluster, namespace } = ctx.input;
        const dryRun = ctx.isDryRun === true || ctx.input.dryRun === true;
        const request: DeployRequest = {
          cluster,
          namespace,
          ...requestOverrides(ctx.input),
          dryRun,
          force: ctx.input.force === true,
          ...(ctx.input.skipPreflight === true ? { skipPreflight: true } : {}),
        };
        validateDeployInput(request);

        ctx.logger.info(
          `${
            dryRun ? 'Server-side dry run (nothing applied) of' : 'Deploying'
          } model ${model} to cluster ${cluster}, namespace ${namespace}`,
        );
        const credentials = await ctx.getInitiatorCredentials();
        let result: DeploymentResult;
        let called = false;
        try {
          // A resumed task gets the stored result instead of applying again.
          result = await ctx.checkpoint({
            key: `deploy-${model}-${cluster}-${namespace}`,
            fn: () => {
              called = true;
              return client.deploy(model, request, credentials);
            },
          });
        } catch (e) {
          if (e instanceof DeploymentFailedError)
            logDeployment(ctx.logger, e.deployment);
          if (e instanceof PreflightRefusedError)
            throw new PreflightRefusedError(
              preflightRefusalMessage(
                `${model}@${cluster}/${namespace}`,
                e.checks,
                APPLY_ANYWAY_IN_A_TASK,
              ),
              e.checks,
            );
          throw e;
        }
        if (!called)
          ctx.logger.info(
            `resumed task: revision ${result.revision} was applied before the task was interrupted; not applying it again`,
          );
        logDeployment(ctx.logger, result);

        if (result.revision !== undefined)
          ctx.output('revision', result.revision);
        ctx.output('objects', result.objects);
        ctx.output('modelEntityRef', entityRef);
        let endpoint = result.endpoint;
        if (ctx.input.waitForReady === true && !dryRun) {
          // Not checkpointed: a resumed task skips the apply above and waits again.
          const status = await waitForReady({
            client,
            model,
            target: { cluster, namespace },
            credentials,
            revision: result.revision,
            timeoutMs: readyTimeoutMs(ctx.input.readyTimeoutSeconds),
            pollIntervalMs:
              options.readyPollIntervalMs ?? DEFAULT_READY_POLL_INTERVAL_MS,
            logger: ctx.logger,
            signal: ctx.signal,
            watch: onChange => client.watchFleet(credentials, onChange),
          });
          ctx.output('ready', true);
          // Where clients call it, as the backend selects it (KServe's URL, else the cluster's gateway).
          endpoint = status.endpoint?.baseUrl ?? endpoint;
          if (!status.endpoint?.baseUrl && status.endpoint?.message)
            ctx.logger.info(`endpoint: ${status.endpoint.message}`);
        }
        if (endpoint) ctx.output('endpoint', endpoint);
      });
    },
  });
}
