import { expect, test } from '../fixtures';
import { deployAsGuest, kube, shot } from '../steps';

const MODEL = 'qwen2-5-7b-instruct';
const POD = `${MODEL}-kserve-7d9f-abcde`;

const podStatus = (status: object) =>
  kube('PATCH', `/api/v1/namespaces/models/pods/${POD}/status`, { status });

test('a target that fails explains itself: ImagePullBackOff, then OOMKilled, on the Serving tab and the Deployments page', async ({
  page,
  request,
}) => {
  await deployAsGuest(request, MODEL);

  // The workload pod KServe creates for the LLMInferenceService, labelled as KServe labels it;
  // the image tag does not exist.
  await kube('POST', '/api/v1/namespaces/models/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      labels: {
        'app.kubernetes.io/part-of': 'llminferenceservice',
        'app.kubernetes.io/name': MODEL,
        'app.kubernetes.io/component': 'llminferenceservice-workload',
        'kserve.io/component': 'workload',
      },
    },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'main', image: 'vllm/vllm-openai:v9.9.9' }],
    },
  });
  await podStatus({
    phase: 'Pending',
    containerStatuses: [
      {
        name: 'main',
        ready: false,
        restartCount: 0,
        image: 'vllm/vllm-openai:v9.9.9',
        state: {
          waiting: {
            reason: 'ImagePullBackOff',
            message: 'Back-off pulling image "vllm/vllm-openai:v9.9.9"',
          },
        },
      },
    ],
  });
  await kube('POST', '/api/v1/namespaces/models/events', {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${POD}.pull` },
    involvedObject: { kind: 'Pod', name: POD, namespace: 'models' },
    reason: 'Failed',
    message:
      'Failed to pull image "vllm/vllm-openai:v9.9.9": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/vllm/vllm-openai:v9.9.9": failed to resolve reference "docker.io/vllm/vllm-openai:v9.9.9": docker.io/vllm/vllm-openai:v9.9.9: not found',
    type: 'Warning',
    count: 3,
    lastTimestamp: '2026-12-01T10:00:00Z',
    source: { component: 'kubelet' },
  });

  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText('Platform Catalog')).toBeVisible();
  await page.goto(`/catalog/default/component/${MODEL}/serving`);
  const panel = page.getByTestId('why-not-ready-local-models');
  await expect(
    page
      .getByTestId('kserve-status-local-models')
      .getByText('local/models: not ready'),
  ).toBeVisible();
  await expect(panel.getByTestId('diagnosis-headline')).toContainText(
    'the image tag does not exist in the registry',
  );
  await expect(panel.getByTestId('diagnosis-fix')).toContainText(
    'set a version whose image exists',
  );
  await expect(panel.getByTestId('diagnosis-pods')).toContainText(
    'container main: waiting, ImagePullBackOff',
  );
  await expect(panel.getByTestId('diagnosis-events')).toContainText(
    'Warning Failed on Pod/',
  );
  await shot(page, 'diagnosis-image-pull');

  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: MODEL, exact: true }) })
    .filter({ hasText: 'local/models' });
  await page.goto(`/model-deployments?namespace=models`);
  await expect(row).toContainText('NotReady');
  await expect(row).toContainText('the image tag does not exist');
  await shot(page, 'diagnosis-deployments-image-pull');

  // The image is fixed; now the engine is killed for memory and restarts.
  await kube('DELETE', `/api/v1/namespaces/models/events/${POD}.pull`);
  await podStatus({
    phase: 'Running',
    containerStatuses: [
      {
        name: 'main',
        ready: false,
        restartCount: 2,
        containerID: 'containerd://b',
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: 'back-off 20s restarting failed container=main',
          },
        },
        lastState: {
          terminated: {
            reason: 'OOMKilled',
            exitCode: 137,
            containerID: 'containerd://a',
          },
        },
      },
    ],
  });
  await page.goto(`/catalog/default/component/${MODEL}/serving`);
  await expect(panel.getByTestId('diagnosis-headline')).toContainText(
    'the container used more memory than its limit and the kernel killed it',
  );
  await expect(panel.getByTestId('diagnosis-pods')).toContainText(
    'last run: OOMKilled (exit code 137)',
  );
  await shot(page, 'diagnosis-oom-killed');
  // /fleet answers from a read of the clusters kept a few seconds (FleetResponse.readAt): a
  // reload after that shows the new reason.
  await expect(async () => {
    await page.goto(`/model-deployments?namespace=models`);
    await expect(row).toContainText('the container used more memory', {
      timeout: 3_000,
    });
  }).toPass({ timeout: 60_000 });
  await shot(page, 'diagnosis-deployments-oom-killed');
});
