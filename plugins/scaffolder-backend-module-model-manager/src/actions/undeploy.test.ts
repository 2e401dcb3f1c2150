import {
  ALICE,
  actionContext,
  checkpointStore,
  exampleInput,
  startActionBackend,
} from '../__testUtils__/actionTestContext';
import { createDeployModelAction } from './deploy';
import { createUndeployModelAction } from './undeploy';
import { examples } from './undeploy.examples';

type Backend = Awaited<ReturnType<typeof startActionBackend>>;
type UndeployInput = Parameters<
  ReturnType<typeof createUndeployModelAction>['handler']
>[0]['input'];

describe('model-manager:undeploy', () => {
  let mm: Backend;
  let action: ReturnType<typeof createUndeployModelAction>;
  let deploy: ReturnType<typeof createDeployModelAction>;
  const deployed = (model: string) =>
    deploy.handler(
      actionContext({ model, cluster: 'local', namespace: 'models' }).ctx,
    );

  beforeAll(async () => {
    mm = await startActionBackend();
    action = createUndeployModelAction({
      discovery: mm.discovery,
      auth: mm.auth,
    });
    deploy = createDeployModelAction({
      discovery: mm.discovery,
      auth: mm.auth,
    });
  }, 120_000);
  afterAll(async () => {
    await mm.stop();
  }, 120_000);
  beforeEach(() => {
    mm.kube.resetRequests();
    mm.events.length = 0;
    mm.discovery.getBaseUrl.mockClear();
  });
  const live = (o: Parameters<typeof mm.live>[0]) => mm.live(o);

  it.each(examples)('example: $description', async example => {
    const input = exampleInput(example) as UndeployInput;
    const name = input.model.replace(/^component:default\//, '');
    await deployed(name);
    mm.events.length = 0;

    const run = actionContext(input);
    await action.handler(run.ctx);
    const { revision, objects, modelEntityRef } = run.outputs();
    expect(revision).toEqual(expect.any(Number));
    expect(modelEntityRef).toBe(`component:default/${name}`);
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) {
      expect(o).toMatchObject({ namespace: 'models', action: 'deleted' });
      expect(await live(o)).toBeUndefined();
      expect(run.lines()).toContain(`${o.kind} models/${o.name}: deleted`);
    }
    expect(run.lines()).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^revision ${revision} \\(undeploy\\): model ${name} on cluster local, namespace models`,
        ),
      ),
    );
    expect(mm.events).toEqual([
      expect.objectContaining({
        eventId: 'model-undeploy',
        outcome: 'success',
        meta: expect.objectContaining({ actor: ALICE, model: name }),
      }),
    ]);
    expect((await mm.history(name))[0]).toMatchObject({
      revision,
      action: 'undeploy',
      actor: ALICE,
    });
  });

  it('an undeploy that finds nothing takes no revision and says so', async () => {
    const run = actionContext<UndeployInput>({
      model: 'bge-m3',
      cluster: 'local',
      namespace: 'default',
    });
    await action.handler(run.ctx);
    expect(run.outputs().revision).toBeUndefined();
    expect(run.outputs().objects.map((o: any) => o.action)).toEqual(['absent']);
    expect(run.lines()).toContain(
      'undeploy, no revision taken: model bge-m3 on cluster local, namespace default',
    );
  });

  it('leaves the shared objects of OpenVINO models in place (the ClusterServingRuntime, the weights claim), also in a dry run', async () => {
    await deployed('bge-small-en-v1-5-ov');
    const dry = actionContext<UndeployInput>(
      { model: 'bge-small-en-v1-5-ov', cluster: 'local', namespace: 'models' },
      { isDryRun: true },
    );
    await action.handler(dry.ctx);
    expect(dry.lines()).toContain(
      'InferenceService models/bge-small-en-v1-5-ov: delete',
    );
    expect(dry.lines()).toContain(
      'AIGatewayRoute models/bge-small-en-v1-5-ov: delete',
    );
    expect(
      dry
        .lines()
        .filter(l => /PersistentVolumeClaim|ClusterServingRuntime/.test(l)),
    ).toEqual([]);
    await action.handler(
      actionContext<UndeployInput>({
        model: 'bge-small-en-v1-5-ov',
        cluster: 'local',
        namespace: 'models',
      }).ctx,
    );
    expect(
      await live({
        apiVersion: 'serving.kserve.io/v1alpha1',
        kind: 'ClusterServingRuntime',
        name: 'openvino-runtime',
      }),
    ).toBeDefined();
    expect(
      await live({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        name: 'model-manager-weights',
        namespace: 'models',
      }),
    ).toBeDefined();
    expect(
      await live({
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        name: 'bge-small-en-v1-5-ov',
        namespace: 'models',
      }),
    ).toBeUndefined();
  });

  it('a scaffolder dry run deletes nothing and logs what would be deleted', async () => {
    await deployed('qwen2-5-7b-instruct');
    mm.kube.resetRequests();
    mm.events.length = 0;
    const run = actionContext<UndeployInput>(
      { model: 'qwen2-5-7b-instruct', cluster: 'local', namespace: 'models' },
      { isDryRun: true },
    );
    await action.handler(run.ctx);
    expect(run.lines()).toContain(
      'LLMInferenceService models/qwen2-5-7b-instruct: delete',
    );
    expect(
      await live({
        apiVersion: 'serving.kserve.io/v1alpha2',
        kind: 'LLMInferenceService',
        name: 'qwen2-5-7b-instruct',
        namespace: 'models',
      }),
    ).toBeDefined();
    expect(mm.kube.requests.map(r => r.method)).not.toContain('DELETE');
    expect(mm.events).toEqual([]);
    expect(run.outputs()).toEqual({
      modelEntityRef: 'component:default/qwen2-5-7b-instruct',
    });
  });

  it('a resumed task does not undeploy again', async () => {
    await deployed('qwen2-5-vl-7b-instruct');
    const store = checkpointStore();
    const input: UndeployInput = {
      model: 'qwen2-5-vl-7b-instruct',
      cluster: 'local',
      namespace: 'models',
    };
    const first = actionContext(input, { checkpoint: store.checkpoint });
    await action.handler(first.ctx);
    mm.kube.resetRequests();
    mm.events.length = 0;
    const resumed = actionContext(input, { checkpoint: store.checkpoint });
    await action.handler(resumed.ctx);
    expect(mm.kube.requestCount).toBe(0);
    expect(mm.events).toEqual([]);
    expect(resumed.outputs()).toEqual(first.outputs());
  });

  const badInputs: Array<{
    rule: string;
    input: Partial<UndeployInput>;
    message: RegExp;
  }> = [
    {
      rule: 'unknown model',
      input: { model: 'nope' },
      message: /^unknown model 'nope'/,
    },
    {
      rule: 'unknown cluster',
      input: { cluster: 'prod' },
      message: /unknown cluster 'prod'/,
    },
    {
      rule: 'namespace not a DNS label',
      input: { namespace: 'Models_1' },
      message: /^namespace: namespace 'Models_1' is not a DNS-1123 label/,
    },
    {
      rule: 'missing cluster',
      input: { cluster: '' },
      message: /^cluster: cluster is required/,
    },
  ];
  it.each(badInputs)(
    'refuses $rule before anything reaches the cluster',
    async ({ input, message }) => {
      const run = actionContext<UndeployInput>({
        model: 'bge-m3',
        cluster: 'local',
        namespace: 'models',
        ...input,
      });
      await expect(action.handler(run.ctx)).rejects.toThrow(message);
      expect(mm.kube.requestCount).toBe(0);
      expect(mm.events).toEqual([]);
    },
  );
});
