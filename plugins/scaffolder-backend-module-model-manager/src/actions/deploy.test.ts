import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  ALICE,
  actionContext,
  checkpointStore,
  exampleInput,
  LLM_ISVC,
  type DeployInput,
  startActionBackend,
} from '../__testUtils__/actionTestContext';
import type { ObjectResult } from '../client';
import { markdownText } from '@model-manager/plugin-model-manager-common';
import { APPLY_ANYWAY_IN_A_TASK, createDeployModelAction } from './deploy';
import { objectLabel } from './logDeployment';
import { examples } from './deploy.examples';

type Backend = Awaited<ReturnType<typeof startActionBackend>>;

/** The server version, env and args of a live model server object, for the keys asked about. */
function whatRuns(
  live: any,
  asked: {
    env: Record<string, unknown>;
    args: string[];
    serverVersion?: string;
  },
) {
  const [container] = containers(live);
  // A Secret-backed variable runs as its reference (valueFrom), as it was asked for.
  const env = new Map<string, unknown>(
    (container?.env ?? []).map(e => [e.name, e.valueFrom ?? e.value]),
  );
  return {
    env: Object.fromEntries(
      Object.keys(asked.env).map(k => [k, env.get(k) ?? null]),
    ),
    args: asked.args.filter(a => container?.args?.includes(a)),
    serverVersion:
      asked.serverVersion &&
      live?.metadata?.labels?.['model-manager.io/server-version'],
  };
}

/** The model server containers of a live object, wherever the kind keeps them. */
function containers(live: any): Array<{
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
  args?: string[];
}> {
  return (
    live.spec?.template?.containers ??
    (live.spec?.predictor?.model ? [live.spec.predictor.model] : [])
  );
}

describe('model-manager:deploy', () => {
  let mm: Backend;
  let action: ReturnType<typeof createDeployModelAction>;
  beforeAll(async () => {
    mm = await startActionBackend();
    action = createDeployModelAction({
      discovery: mm.discovery,
      auth: mm.auth,
    });
  }, 120_000);
  afterAll(async () => {
    await mm.stop();
  }, 120_000);
  beforeEach(() => {
    mm.kube.faults.clear();
    mm.kube.resetRequests();
    mm.events.length = 0;
    mm.discovery.getBaseUrl.mockClear();
  });
  const live = (o: Parameters<typeof mm.live>[0]) => mm.live(o);

  it.each(examples)('example: $description', async example => {
    const input = exampleInput(example) as DeployInput;
    const name = input.model.replace(/^component:default\//, '');
    const run = actionContext(input);
    await action.handler(run.ctx);

    const { revision, objects, modelEntityRef } = run.outputs();
    // A dry run takes no revision number.
    if (input.dryRun) expect(revision).toBeUndefined();
    else expect(revision).toEqual(expect.any(Number));
    expect(modelEntityRef).toBe(`component:default/${name}`);
    expect(objects.length).toBeGreaterThan(0);
    expect(objects.map((o: ObjectResult) => o.action)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/failed|not-applied/)]),
    );
    // Applied objects are live; a dry run leaves the cluster as it was.
    expect(
      (await Promise.all(objects.map((o: ObjectResult) => live(o)))).map(
        found => found !== undefined,
      ),
    ).toEqual(objects.map(() => !input.dryRun));
    // The task log says what was applied where: one line per object, then the revision (a dry
    // run says what would happen instead).
    const wouldDo: Record<string, string> = {
      created: 'would be created',
      unchanged: 'would not change',
      exists: 'exists, left as it is',
    };
    expect(run.lines()).toEqual(
      expect.arrayContaining([
        ...objects.map((o: ObjectResult) =>
          input.dryRun && o.action === 'configured'
            ? expect.stringMatching(
                new RegExp(
                  `^${objectLabel(o)}: would change \\d+ field\\(s\\)$`,
                ),
              )
            : `${objectLabel(o)}: ${
                input.dryRun ? wouldDo[o.action] : o.action
              }`,
        ),
        expect.stringMatching(
          input.dryRun
            ? new RegExp(
                `^dry run, nothing applied and no revision taken: model ${name} on cluster local, namespace models`,
              )
            : new RegExp(
                `^revision ${revision} \\(deploy\\): model ${name} on cluster local, namespace models`,
              ),
        ),
      ]),
    );
    // What the example asked for is what runs (a dry run runs nothing).
    const asked = {
      env: input.env ?? {},
      args: input.args ?? [],
      serverVersion: input.serverVersion,
    };
    const server = await live(objects[objects.length - 1]);
    expect(input.dryRun ? asked : whatRuns(server, asked)).toEqual(asked);

    // The backend saw the user who started the task, not the scaffolder.
    expect(mm.auth.getPluginRequestToken).toHaveBeenLastCalledWith({
      onBehalfOf: expect.objectContaining({
        principal: expect.objectContaining({ userEntityRef: ALICE }),
      }),
      targetPluginId: 'model-manager',
    });
    expect(mm.events).toEqual([
      expect.objectContaining({
        eventId: 'model-deploy',
        outcome: 'success',
        meta: expect.objectContaining({
          actor: ALICE,
          model: name,
          dryRun: input.dryRun ?? false,
        }),
      }),
    ]);
    expect((await mm.history(name))[0]).toMatchObject({
      ...(revision !== undefined ? { revision } : {}),
      actor: ALICE,
      action: input.dryRun ? 'dry-run' : 'deploy',
      outcome: 'succeeded',
    });
  });

  it('a scaffolder dry run asks for a server-side dry run: nothing is applied', async () => {
    const run = actionContext<DeployInput>(
      {
        model: 'component:default/bge-m3',
        cluster: 'local',
        namespace: 'models',
        dryRun: false,
      },
      { isDryRun: true },
    );
    await action.handler(run.ctx);
    expect(run.outputs().objects).toEqual([
      expect.objectContaining({
        ...LLM_ISVC,
        name: 'bge-m3',
        action: 'created',
      }),
    ]);
    expect(run.lines()).toContain(
      'LLMInferenceService models/bge-m3: would be created',
    );
    expect(
      await live({ ...LLM_ISVC, name: 'bge-m3', namespace: 'models' }),
    ).toBeUndefined();
    expect(
      mm.kube.requests
        .filter(r => r.method === 'PATCH')
        .every(r => r.query.dryRun === 'All'),
    ).toBe(true);
    expect((await mm.history('bge-m3'))[0]).toMatchObject({
      action: 'dry-run',
      actor: ALICE,
    });
  });

  it('a resumed task does not deploy again: the checkpoint returns the stored result', async () => {
    const store = checkpointStore();
    const input: DeployInput = {
      model: 'phi-3-5-mini-instruct-int4-ov',
      cluster: 'local',
      namespace: 'models',
    };
    const first = actionContext(input, { checkpoint: store.checkpoint });
    await action.handler(first.ctx);
    expect(mm.kube.requestCount).toBeGreaterThan(0);
    expect(mm.events).toHaveLength(1);
    expect([...store.values.keys()]).toEqual([
      'deploy-phi-3-5-mini-instruct-int4-ov-local-models',
    ]);

    mm.kube.resetRequests();
    const resumed = actionContext(input, { checkpoint: store.checkpoint });
    await action.handler(resumed.ctx);
    expect(mm.kube.requestCount).toBe(0);
    expect(mm.events).toHaveLength(1);
    expect(resumed.outputs()).toEqual(first.outputs());
    expect(resumed.lines()).toContain(
      'InferenceService models/phi-3-5-mini-instruct-int4-ov: created',
    );
    expect(resumed.lines()).toContain(
      `resumed task: revision ${
        first.outputs().revision
      } was applied before the task was interrupted; not applying it again`,
    );
    expect(first.lines().some(l => l.startsWith('resumed task'))).toBe(false);
  });

  const badInputs: Array<{
    rule: string;
    input: Partial<DeployInput>;
    message: RegExp;
    checkedBy: 'the action' | 'the backend';
  }> = [
    {
      rule: 'unknown model',
      input: { model: 'component:default/nope' },
      message: /^unknown model 'nope'; models in models\.yaml: /,
      checkedBy: 'the backend',
    },
    {
      rule: 'serverVersion on an OpenVINO model',
      input: { model: 'bge-reranker-base-ov', serverVersion: '2025.1' },
      message:
        /^\\<request>: serverVersion: runtime openvino is flat \(it has no versions:\), so a server version does not apply; remove --server-version/,
      checkedBy: 'the backend',
    },
    {
      rule: 'unknown server version',
      input: { serverVersion: '9.9.9' },
      message: /unknown server version '9\.9\.9'/,
      checkedBy: 'the backend',
    },
    {
      rule: 'unknown cluster',
      input: { cluster: 'prod' },
      message: /unknown cluster 'prod'; clusters: local/,
      checkedBy: 'the backend',
    },
    {
      rule: 'env name not a C identifier',
      input: { env: { 'A-B': '1' } },
      message: /^\\<request>: env\.A-B: env name 'A-B' is not a C identifier/,
      checkedBy: 'the action',
    },
    {
      rule: 'newline in an env value',
      input: { env: { X: 'a\nb' } },
      message: /^\\<request>: env\.X: env value must be a single line/,
      checkedBy: 'the action',
    },
    {
      rule: 'newline in an arg',
      input: { args: ['--a=1\n--b=2'] },
      message: /^\\<request>: args\\\[0\\\]: arg must be a single line/,
      checkedBy: 'the action',
    },
    {
      rule: 'arg not a flag',
      input: { args: ['4096'] },
      message: /^\\<request>: args\\\[0\\\]: '4096' is not a flag/,
      checkedBy: 'the action',
    },
    {
      rule: 'namespace not a DNS label',
      input: { namespace: 'Models_1' },
      message: /^namespace: namespace 'Models_1' is not a DNS-1123 label/,
      checkedBy: 'the action',
    },
    {
      rule: 'model of another kind',
      input: { model: 'api:default/qwen2-5-7b-instruct' },
      message: /is a api entity; pass the model's Component/,
      checkedBy: 'the action',
    },
  ];
  it.each(badInputs)(
    'refuses $rule (checked by $checkedBy) before anything reaches the cluster',
    async ({ input, message, checkedBy }) => {
      const run = actionContext<DeployInput>({
        model: 'component:default/qwen2-5-7b-instruct',
        cluster: 'local',
        namespace: 'models',
        ...input,
      });
      await expect(action.handler(run.ctx)).rejects.toThrow(message);
      expect(mm.kube.requestCount).toBe(0);
      expect(mm.events).toEqual([]);
      expect(mm.discovery.getBaseUrl).toHaveBeenCalledTimes(
        checkedBy === 'the backend' ? 1 : 0,
      );
      expect(run.outputs()).toEqual({});
    },
  );

  it('a preflight refusal says how to apply anyway in the form, with the fix as the task page shows it (Markdown)', async () => {
    const input: DeployInput = {
      model: 'component:default/qwen2-5-7b-instruct',
      cluster: 'local',
      namespace: 'models',
      env: {
        HF_TOKEN: { secretKeyRef: { name: 'no-such-secret', key: 'token' } },
      },
    };
    const error = await action.handler(actionContext(input).ctx).then(
      () => undefined,
      e => e as Error,
    );
    // What the task log shows (the stack) as plain text, and the banner (the message) as Markdown
    // that shows the same text: the command keeps its key, `...` in place of the value.
    expect(error?.stack).toBe(
      `ConflictError: preflight refused the deploy to qwen2-5-7b-instruct@local/models, nothing was applied: The Secrets the model references exist: Secret no-such-secret does not exist in namespace models on cluster local: the pod would not start (CreateContainerConfigError) (fix: create it there: kubectl -n models create secret generic no-such-secret --from-literal=token=...). ${APPLY_ANYWAY_IN_A_TASK}`,
    );
    expect(error?.message).toBe(
      markdownText(error!.stack!.replace(/^ConflictError: /, '')),
    );
    expect(APPLY_ANYWAY_IN_A_TASK).toMatch(
      /skipPreflight.*"Deploy even if a preflight check fails"/,
    );
    // Refused and audited; nothing was applied: the cluster was only read.
    expect(mm.events).toEqual([
      expect.objectContaining({ eventId: 'model-deploy', outcome: 'fail' }),
    ]);
    expect(mm.kube.requests.filter(r => r.method !== 'GET')).toEqual([]);
  });

  it('a conflict fails with the backend message and logs each object; force takes the fields over', async () => {
    const input: DeployInput = {
      model: 'component:default/bge-reranker-v2-m3',
      cluster: 'local',
      namespace: 'models',
    };
    await action.handler(actionContext(input).ctx);
    // Someone changes the model by hand with their own field manager.
    const kubectl = await fetch(
      `${mm.kube.url}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/bge-reranker-v2-m3?fieldManager=kubectl&force=true`,
      {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/apply-patch+yaml',
          Authorization: 'Bearer admin-token',
        },
        body: JSON.stringify({
          ...LLM_ISVC,
          metadata: { name: 'bge-reranker-v2-m3', namespace: 'models' },
          spec: {
            template: {
              containers: [
                { name: 'main', resources: { limits: { cpu: '12' } } },
              ],
            },
          },
        }),
      },
    );
    expect(kubectl.status).toBe(200);

    const store = checkpointStore();
    const refused = actionContext(input, { checkpoint: store.checkpoint });
    const error = await action.handler(refused.ctx).then(
      () => undefined,
      e => e as Error,
    );
    expect(error?.message).toMatch(
      /^LLMInferenceService models\/bge-reranker-v2-m3: fields are owned by another field manager \(kubectl\): .*resources\.limits\.cpu.*deploy with force: true/,
    );
    expect(refused.lines()).toContain(
      'LLMInferenceService models/bge-reranker-v2-m3: failed (Conflict)',
    );
    expect(refused.outputs()).toEqual({});
    expect(store.values.size).toBe(0);

    // A retry with force re-runs the failed checkpoint and takes the field over.
    const forced = actionContext(
      { ...input, force: true },
      { checkpoint: store.checkpoint },
    );
    await action.handler(forced.ctx);
    expect(forced.outputs().objects).toEqual([
      expect.objectContaining({ action: 'configured' }),
    ]);
    expect(
      (await mm.history('bge-reranker-v2-m3')).map(r => r.outcome),
    ).toEqual(['succeeded', 'failed', 'succeeded']);
  });
});

describe('model-manager:deploy for a user without model-manager.model.deploy', () => {
  it('fails with the backend message naming the user; nothing reaches the cluster', async () => {
    const mm = await startActionBackend({ permission: AuthorizeResult.DENY });
    try {
      mm.kube.resetRequests();
      const action = createDeployModelAction({
        discovery: mm.discovery,
        auth: mm.auth,
      });
      const run = actionContext<DeployInput>({
        model: 'qwen2-5-7b-instruct',
        cluster: 'local',
        namespace: 'models',
      });
      await expect(action.handler(run.ctx)).rejects.toThrow(
        /^user:default\/alice may not model-manager\.model\.deploy model qwen2-5-7b-instruct \(component:default\/qwen2-5-7b-instruct\): the permission policy denied it$/,
      );
      expect(mm.kube.requestCount).toBe(0);
      expect(mm.events).toEqual([
        expect.objectContaining({
          eventId: 'model-deploy',
          outcome: 'fail',
          meta: expect.objectContaining({ actor: ALICE }),
        }),
      ]);
      // What the task log shows: the message, no Node stack with server paths; the backend log
      // keeps the stack.
      const logger = { error: jest.fn() };
      const logged = createDeployModelAction({
        discovery: mm.discovery,
        auth: mm.auth,
        logger: logger as any,
      });
      const error = await logged.handler(run.ctx).catch(e => e);
      expect(error.stack).toBe(`${error.name}: ${error.message}`);
      expect(error.stack).not.toMatch(/\n\s+at |\/work\/|node_modules/);
      expect(logger.error).toHaveBeenCalledWith(
        `model-manager:deploy failed: ${error.message}`,
        expect.objectContaining({
          message: error.message,
          stack: expect.stringMatching(/\n\s+at /),
        }),
      );
      expect(error).toBeInstanceOf(Error);
    } finally {
      await mm.stop();
    }
  });
});
