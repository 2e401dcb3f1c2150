import { randomUUID } from 'node:crypto';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import type {
  ActionContext,
  TemplateExample,
} from '@backstage/plugin-scaffolder-node';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import modelManagerPlugin from '@model-manager/plugin-model-manager-backend';
// The repository's test harness (dev only): the real plugin on startTestBackend, deploying to a
// Kubernetes API test server.
import {
  startModelManager,
  type StartModelManagerOptions,
} from '@model-manager/test-harness';
import yaml from 'yaml';
import type { createDeployModelAction } from '../actions/deploy';

export const ALICE = 'user:default/alice';

/** The kind of a vLLM model's object, as in an action's `objects` output and the test double. */
export const LLM_ISVC = {
  apiVersion: 'serving.kserve.io/v1alpha2',
  kind: 'LLMInferenceService',
};

/** The deploy action's input, as a template step hands it over. */
export type DeployInput = Parameters<
  ReturnType<typeof createDeployModelAction>['handler']
>[0]['input'];

/** An action's input, as the scaffolder hands it over (a JSON object). */
type ActionInput = Record<string, any>;

/**
 * A real model-manager backend plus what an action needs to reach it: discovery pointing at the
 * test backend and the standard mock AuthService of the scaffolder plugin, which issues tokens on
 * behalf of the initiator that the backend's mock auth accepts as that user.
 */
export async function startActionBackend(
  options: Omit<StartModelManagerOptions, 'plugin'> = {},
) {
  const mm = await startModelManager({
    plugin: modelManagerPlugin,
    ...options,
  });
  const port = mm.server.port();
  const discovery = mockServices.discovery.mock({
    getBaseUrl: async pluginId => `http://localhost:${port}/api/${pluginId}`,
  });
  const auth = mockServices.auth({ pluginId: 'scaffolder' });
  jest.spyOn(auth, 'getPluginRequestToken');
  return {
    ...mm,
    discovery,
    auth,
    /** Reads the backend's history of a model, as alice. */
    async history(model: string): Promise<
      Array<{
        revision: number;
        action: string;
        outcome: string;
        actor: string;
      }>
    > {
      const res = await fetch(
        `http://localhost:${port}/api/model-manager/models/${model}/deployments`,
        {
          headers: { Authorization: mockCredentials.user.header(ALICE) },
        },
      );
      return (await res.json()).items;
    },
    /** An object as the Kubernetes API stores it (undefined when absent), on either target. */
    live(o: {
      apiVersion: string;
      kind: string;
      name: string;
      namespace?: string;
    }) {
      return mm.kube.objects.get({
        apiVersion: o.apiVersion,
        kind: o.kind,
        name: o.name,
        namespace: o.namespace,
      });
    },
  };
}

/**
 * Checkpoints as the scaffolder's workflow runner keeps them: a successful checkpoint's value is
 * stored and returned on a resumed run without calling fn again; a failed one is not stored.
 */
export function checkpointStore() {
  const values = new Map<string, unknown>();
  const checkpoint: ActionContext<{}>['checkpoint'] = async ({ key, fn }) => {
    if (values.has(key)) return values.get(key) as any;
    const value = await fn();
    // Stored as JSON, as the task state is.
    values.set(key, JSON.parse(JSON.stringify(value ?? {})));
    return value;
  };
  return { values, checkpoint };
}

/**
 * A mock action context started by alice. `createMockActionContext` takes only some options, so
 * `isDryRun`, the initiator's credentials and the checkpoint implementation are set on top.
 */
export function actionContext<TInput extends ActionInput>(
  input: TInput,
  options: {
    isDryRun?: boolean;
    checkpoint?: ActionContext<TInput>['checkpoint'];
    /** The scaffolder task's id (default: a new one per context, as each task has its own). */
    taskId?: string;
  } = {},
) {
  const logger = mockServices.logger.mock();
  const base = createMockActionContext<TInput, any>({
    input,
    logger,
    task: { id: options.taskId ?? randomUUID() },
  });
  const ctx: ActionContext<TInput, any> = {
    ...base,
    isDryRun: options.isDryRun ?? false,
    getInitiatorCredentials: async () => mockCredentials.user(ALICE),
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
  };
  const outputs = () =>
    Object.fromEntries((base.output as jest.Mock).mock.calls) as Record<
      string,
      any
    >;
  /** Every line written to the task log (info and error), in order; a message of several lines gives each. */
  const lines = () =>
    [logger.info.mock, logger.error.mock]
      .flatMap(mock =>
        mock.calls.map((call, i) => ({
          order: mock.invocationCallOrder[i],
          line: call[0] as string,
        })),
      )
      .sort((a, b) => a.order - b.order)
      .flatMap(({ line }) => line.split('\n'));
  /** The messages written to the task log (info and error), in order, as the scaffolder stores them. */
  const messages = () =>
    [logger.info.mock, logger.error.mock]
      .flatMap(mock =>
        mock.calls.map((call, i) => ({
          order: mock.invocationCallOrder[i],
          message: call[0] as string,
        })),
      )
      .sort((a, b) => a.order - b.order)
      .map(({ message }) => message);
  return { ctx, outputs, lines, messages, logger };
}

/** The input of the single step of a scaffolder example. */
export function exampleInput(example: TemplateExample): ActionInput {
  const parsed = yaml.parse(example.example) as {
    steps: Array<{ input: ActionInput }>;
  };
  expect(parsed.steps).toHaveLength(1);
  return parsed.steps[0].input;
}
