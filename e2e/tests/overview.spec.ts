import { expect, test } from '../fixtures';
import { deployAsGuest, kube, shot } from '../steps';

const MODEL = 'phi-3-5-mini-instruct-int4-ov';
// e2e/app-config.e2e.yaml: modelManager.kubernetes.clusters.local.gatewayBaseUrl
const GATEWAY = 'https://ai-gateway.example.com';

/**
 * Issue 26: a model's Overview opens with a summary card (runtime, version, where it runs with its
 * state and endpoint, Deploy) above the catalog's generic cards, and shows no empty card.
 */
test("a model's Overview starts with its summary and shows no empty card", async ({
  page,
  request,
}) => {
  await deployAsGuest(request, MODEL);
  // KServe reports it Ready (as its controller writes the status).
  await kube(
    'PATCH',
    `/apis/serving.kserve.io/v1beta1/namespaces/models/inferenceservices/${MODEL}/status`,
    {
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      },
    },
  );

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/catalog/default/component/${MODEL}`);
  await page.getByRole('button', { name: 'Enter' }).click();
  const summary = page.getByTestId('model-summary');
  await expect(summary).toBeVisible();
  await expect(summary).toContainText('openvino (InferenceService)');
  await expect(summary).toContainText(
    'flat runtime, image openvino/model_server:',
  );
  const target = summary.getByTestId('model-summary-local-models');
  // The fleet's read is cached a few seconds: reload until it has KServe's Ready.
  await expect(async () => {
    await page.reload();
    await expect(target).toContainText('Ready', { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await expect(target).toContainText(`Endpoint: ${GATEWAY}/v1`);

  // Above every other card of the main column.
  const apis = page.getByRole('heading', { name: 'Provided APIs' });
  await expect(apis).toBeVisible();
  expect((await summary.boundingBox())!.y).toBeLessThan(
    (await apis.boundingBox())!.y,
  );
  // No card that only says it has nothing to show (models declare no relations of these kinds).
  for (const empty of [
    'Consumed APIs',
    'Depends on components',
    'Depends on resources',
    'Has subcomponents',
  ])
    await expect(page.getByRole('heading', { name: empty })).toHaveCount(0);
  await shot(page, 'issue26-overview');

  const deploy = page.getByRole('button', { name: `Deploy ${MODEL}` });
  await expect(deploy).toHaveAttribute(
    'href',
    /\/create\/templates\/default\/deploy-model\?formData=/,
  );
  await deploy.click();
  await expect(
    page.getByRole('textbox', { name: /Model/ }).first(),
  ).toHaveValue(new RegExp(`${MODEL}$`));
});
