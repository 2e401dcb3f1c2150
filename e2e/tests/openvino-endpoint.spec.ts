import path from 'node:path';
import { expect, test } from '../fixtures';
import { deployAsGuest, guestToken, kube, shot } from '../steps';

const MODEL = 'phi-3-5-mini-instruct-int4-ov';
const JOB = `${MODEL}-download`;
// e2e/app-config.e2e.yaml: modelManager.kubernetes.clusters.local.gatewayBaseUrl
const GATEWAY = 'https://ai-gateway.example.com';

const jobStatus = (status: object) =>
  kube('PATCH', `/apis/batch/v1/namespaces/models/jobs/${JOB}/status`, {
    status,
  });
const podStatus = (status: object) =>
  kube('PATCH', `/api/v1/namespaces/models/pods/${JOB}-abcde/status`, {
    status,
  });

test('an OpenVINO model page shows the endpoint to call and the weights download progress', async ({
  page,
  request,
}) => {
  // Deploy through the backend's API as the guest (what the Deploy button's template does).
  const deployed = await deployAsGuest(request, MODEL);
  const token = await guestToken(request);
  expect((await deployed.json()).endpoint).toBe(`${GATEWAY}/v1`);
  // The model's API entity lists the same gateway as its server (paths carry /v1); the catalog
  // processes entities in the background, so ask until it is there.
  await expect
    .poll(async () => {
      const res = await request.get(
        `/api/catalog/entities/by-name/api/default/${MODEL}-openai-api`,
        {
          headers: { Authorization: `Bearer ${token}` },
        },
      );
      return res.ok()
        ? JSON.parse((await res.json()).spec.definition).servers
        : res.status();
    })
    .toEqual([
      { url: GATEWAY, description: 'the AI gateway of cluster local' },
    ]);

  // The Job controller starts a pod that cannot be scheduled yet.
  await jobStatus({ active: 1, ready: 0, startTime: '2026-12-01T10:00:00Z' });
  await kube('POST', '/api/v1/namespaces/models/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${JOB}-abcde`,
      labels: {
        'batch.kubernetes.io/job-name': JOB,
        'job-name': JOB,
        'backstage.io/kubernetes-id': MODEL,
      },
    },
    spec: {
      restartPolicy: 'OnFailure',
      containers: [
        { name: 'ovms-pull', image: 'openvino/model_server:latest-py' },
      ],
    },
  });
  await podStatus({
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message:
          '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.',
      },
    ],
  });

  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  // Signed in before going on (a navigation during sign-in lands on the sign-in page again).
  await expect(page.getByText('Platform Catalog')).toBeVisible();
  await page.goto(`/catalog/default/component/${MODEL}/serving`);
  await expect(page.getByText('Resolved configuration')).toBeVisible();
  const status = page.getByTestId('kserve-status-local-models');
  await expect(
    status.getByText('local/models: waiting for the weights download'),
  ).toBeVisible();
  await expect(status.getByTestId('weights-download')).toContainText(
    `Weights download (Job models/${JOB}): pending (Unschedulable)`,
  );
  await expect(status.getByTestId('weights-download')).toContainText(
    'unbound immediate PersistentVolumeClaims',
  );
  await expect(status.getByTestId('kserve-ready')).toHaveText(
    'Ready: not reported yet',
  );

  // The endpoint: clients call /v1 on the cluster's AI gateway, sending the served model name.
  await expect(status.getByTestId('kserve-endpoint')).toContainText(
    `Endpoint: ${GATEWAY}/v1`,
  );
  const call = page.getByTestId('endpoint-local-models');
  await expect(call).toContainText(`curl ${GATEWAY}/v1/chat/completions`);
  await expect(call).toContainText(`"model": "${MODEL}"`);
  await expect(call).toContainText(`base_url="${GATEWAY}/v1"`);
  await expect(page.getByText('<gateway>')).toHaveCount(0);
  await shot(page, 'ov-01-serving-download-pending');
  // The two cards up close: the status with the download progress, and the calls to the endpoint.
  await status.screenshot({
    path: path.resolve(
      __dirname,
      '../test-results/steps',
      'ov-01b-status-card.png',
    ),
  });
  await call.screenshot({
    path: path.resolve(
      __dirname,
      '../test-results/steps',
      'ov-01c-call-it.png',
    ),
  });

  // The pod runs ovms --pull.
  await podStatus({
    phase: 'Running',
    conditions: [{ type: 'PodScheduled', status: 'True' }],
    containerStatuses: [
      {
        name: 'ovms-pull',
        ready: true,
        restartCount: 0,
        image: 'openvino/model_server:latest-py',
        imageID: '',
        state: { running: { startedAt: '2026-12-01T10:01:00Z' } },
      },
    ],
  });
  await jobStatus({ active: 1, ready: 1, startTime: '2026-12-01T10:00:00Z' });
  await page.reload();
  await expect(status.getByTestId('weights-download')).toContainText(
    'running Downloading.',
  );
  await shot(page, 'ov-02-serving-download-running');
  await status.screenshot({
    path: path.resolve(
      __dirname,
      '../test-results/steps',
      'ov-02b-status-card-running.png',
    ),
  });

  // The Kubernetes tab shows the same card above the stock content.
  await page.goto(`/catalog/default/component/${MODEL}/kubernetes`);
  await expect(
    page
      .getByTestId('kserve-status-local-models')
      .getByTestId('weights-download'),
  ).toContainText('running Downloading.');
  await expect(page.getByText('Your Clusters')).toBeVisible();
  await shot(page, 'ov-03-kubernetes-tab');

  // The download completes; KServe reports the InferenceService Ready.
  await podStatus({
    phase: 'Succeeded',
    containerStatuses: [
      {
        name: 'ovms-pull',
        ready: false,
        restartCount: 0,
        image: 'openvino/model_server:latest-py',
        imageID: '',
        state: { terminated: { exitCode: 0, reason: 'Completed' } },
      },
    ],
  });
  await jobStatus({
    succeeded: 1,
    startTime: '2026-12-01T10:00:00Z',
    completionTime: '2026-12-01T10:20:00Z',
    conditions: [
      {
        type: 'SuccessCriteriaMet',
        status: 'True',
        lastTransitionTime: '2026-12-01T10:20:00Z',
      },
      {
        type: 'Complete',
        status: 'True',
        lastTransitionTime: '2026-12-01T10:20:00Z',
      },
    ],
  });
  await kube(
    'PATCH',
    `/apis/serving.kserve.io/v1beta1/namespaces/models/inferenceservices/${MODEL}/status`,
    {
      status: {
        url: `http://${MODEL}-models.example.com`,
        conditions: [
          {
            type: 'IngressReady',
            status: 'True',
            lastTransitionTime: '2026-12-01T10:21:00Z',
          },
          {
            type: 'PredictorReady',
            status: 'True',
            lastTransitionTime: '2026-12-01T10:21:00Z',
          },
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-12-01T10:21:00Z',
          },
        ],
      },
    },
  );
  await page.goto(`/catalog/default/component/${MODEL}/serving`);
  await expect(status.getByText('local/models: Ready')).toBeVisible();
  await expect(status.getByTestId('weights-download')).toContainText(
    'complete Download complete at 2026-12-01T10:20:00Z.',
  );
  // Still the gateway: the predictor's own URL would answer OVMS's /v3, not /v1.
  await expect(status.getByTestId('kserve-endpoint')).toContainText(
    `Endpoint: ${GATEWAY}/v1`,
  );
  await expect(call).toContainText(`curl ${GATEWAY}/v1/chat/completions`);
  await shot(page, 'ov-04-serving-ready');
});
