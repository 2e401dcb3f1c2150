import { expect, test } from '@playwright/test';

const KUBE = 'http://127.0.0.1:16443';

/** Deploys through the running backend's scaffolder REST API with a guest token, as a script would. */
test('the Deploy model template deploys an OpenVINO and a vLLM model through the scaffolder API', async ({
  request,
}) => {
  const refresh = await request.get('/api/auth/guest/refresh');
  expect(refresh.ok()).toBe(true);
  const token = (await refresh.json()).backstageIdentity.token as string;
  const headers = { Authorization: `Bearer ${token}` };

  const cases = [
    {
      model: 'bge-reranker-base-ov',
      objects: [
        [
          'serving.kserve.io/v1beta1',
          'inferenceservices',
          'bge-reranker-base-ov',
        ],
        ['batch/v1', 'jobs', 'bge-reranker-base-ov-download'],
        [
          'aigateway.envoyproxy.io/v1beta1',
          'aigatewayroutes',
          'bge-reranker-base-ov',
        ],
      ],
    },
    {
      model: 'bge-reranker-v2-m3',
      objects: [
        [
          'serving.kserve.io/v1alpha2',
          'llminferenceservices',
          'bge-reranker-v2-m3',
        ],
      ],
    },
  ];
  for (const { model, objects } of cases) {
    const created = await request.post('/api/scaffolder/v2/tasks', {
      headers,
      data: {
        templateRef: 'template:default/deploy-model',
        values: {
          model: `component:default/${model}`,
          cluster: 'local',
          namespace: 'models',
          dryRun: false,
          force: false,
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = await created.json();

    // Poll the task until it ends (each poll is a request; no fixed sleeps).
    let task: any;
    await expect
      .poll(
        async () => {
          task = await (
            await request.get(`/api/scaffolder/v2/tasks/${id}`, { headers })
          ).json();
          return task.status;
        },
        { timeout: 60_000 },
      )
      .toMatch(/completed|failed/);
    const events = await (
      await request.get(`/api/scaffolder/v2/tasks/${id}/events`, { headers })
    ).json();
    const log = events
      .filter((e: any) => e.type === 'log')
      .map((e: any) => e.body.message)
      .join('\n');
    expect(task.status, log).toBe('completed');
    expect(log).toMatch(new RegExp(`${model}: (created|configured|unchanged)`));

    for (const [apiVersion, plural, name] of objects) {
      const prefix = apiVersion.includes('/')
        ? `/apis/${apiVersion}`
        : `/api/${apiVersion}`;
      const res = await fetch(
        `${KUBE}${prefix}/namespaces/models/${plural}/${name}`,
        { headers: { Authorization: 'Bearer admin-token' } },
      );
      expect(res.status, `${plural}/${name}`).toBe(200);
      const body = await res.json();
      expect(body.metadata.labels['backstage.io/kubernetes-id']).toBe(model);
    }

    // The history names the guest.
    const history = await (
      await request.get(`/api/model-manager/models/${model}/deployments`, {
        headers,
      })
    ).json();
    expect(history.items[0]).toMatchObject({
      action: 'deploy',
      outcome: 'succeeded',
      actor: 'user:default/guest',
    });
  }
});
