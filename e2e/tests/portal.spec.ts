import { expect, test } from '../fixtures';
import { shot } from '../steps';

const KUBE = 'http://127.0.0.1:16443';
const MODEL = 'qwen2-5-7b-instruct';

test.describe.configure({ mode: 'serial' });

test('a guest finds a model, sees where its values come from, deploys it and sees its status', async ({
  page,
}) => {
  // 1. Guest sign-in.
  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText('Platform Catalog')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Models' })).toBeVisible();
  await shot(page, '01-signed-in');

  // 2. The Models page lists every model of models.yaml.
  await page.getByRole('link', { name: 'Models' }).click();
  await expect(page.getByText('Models (9)')).toBeVisible();
  await expect(page.getByRole('link', { name: MODEL })).toBeVisible();
  await shot(page, '02-models-page');

  // 3. The model page shows a value with the layer that set it.
  await page.goto(`/catalog/default/component/${MODEL}/serving`);
  await expect(page.getByText('Resolved configuration')).toBeVisible();
  const kvRow = page
    .getByRole('row')
    .filter({ hasText: 'env.VLLM_CPU_KVCACHE_SPACE' });
  await expect(kvRow.getByTestId('layer-category')).toBeVisible();
  await expect(kvRow).toContainText(
    'runtimes.vllm.categories.llm.defaults.kv_cache_gb',
  );
  await shot(page, '03-serving-tab');

  // 4. Deploy model template: a dry run first, then the real deploy.
  for (const dryRun of [true, false]) {
    await page.goto('/create/templates/default/deploy-model');
    await page.getByRole('textbox', { name: /Model/ }).first().click();
    await page
      .getByRole('option', { name: new RegExp(MODEL) })
      .first()
      .click();
    await page.getByRole('button', { name: 'Next' }).click();
    const dryRunBox = page.getByRole('checkbox', { name: /Dry run/ });
    if ((await dryRunBox.isChecked()) !== dryRun) await dryRunBox.click();
    await shot(page, dryRun ? '04a-template-dry-run' : '05a-template-deploy');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    // Dry runs take no revision number (issue 12); deploys take the model's next one.
    await expect(
      page
        .getByText(
          dryRun
            ? /a dry run, kept in the model's deploy history without a revision number/
            : /revision \d+ in the model's deploy history/,
        )
        .first(),
    ).toBeVisible({ timeout: 60_000 });
    await shot(page, dryRun ? '04b-dry-run-done' : '05b-deploy-done');
  }

  // The object exists on the (test) cluster.
  const object = await fetch(
    `${KUBE}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/${MODEL}`,
    { headers: { Authorization: 'Bearer admin-token' } },
  );
  expect(object.status).toBe(200);

  // 5. The history shows the dry run and the deploy by the guest.
  await page.goto(`/catalog/default/component/${MODEL}/serving`);
  const history = page
    .getByRole('table')
    .filter({ hasText: 'Deploy history' })
    .or(page.locator('table').filter({ hasText: 'user:default/guest' }));
  await expect(page.getByText('user:default/guest').first()).toBeVisible();
  await expect(
    page.getByRole('row').filter({ hasText: 'dry-run' }).first(),
  ).toBeVisible();
  await expect(history.first()).toBeVisible();
  await shot(page, '06-history');

  // 6. KServe reports Ready through the status subresource; our card and the Kubernetes tab show it.
  const status = await fetch(
    `${KUBE}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/${MODEL}/status`,
    {
      method: 'PATCH',
      headers: {
        Authorization: 'Bearer admin-token',
        'Content-Type': 'application/merge-patch+json',
      },
      body: JSON.stringify({
        status: {
          url: `http://${MODEL}.models.svc.cluster.local`,
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              lastTransitionTime: '2026-11-30T12:00:00Z',
            },
            {
              type: 'WorkloadsReady',
              status: 'True',
              lastTransitionTime: '2026-11-30T12:00:00Z',
            },
            {
              type: 'RouterReady',
              status: 'True',
              lastTransitionTime: '2026-11-30T12:00:00Z',
            },
          ],
        },
      }),
    },
  );
  expect(status.status).toBe(200);
  await page.reload();
  await expect(page.getByText('local/models: Ready')).toBeVisible();
  // exact: the endpoint and the client snippet also contain the URL (with /v1).
  await expect(
    page.getByText(`http://${MODEL}.models.svc.cluster.local`, { exact: true }),
  ).toBeVisible();
  await expect(page.getByText(/WorkloadsReady=True/)).toBeVisible();
  await shot(page, '07-kserve-status');

  await page.goto(`/catalog/default/component/${MODEL}/kubernetes`);
  await expect(page.getByText('Your Clusters')).toBeVisible();
  await expect(
    page.getByText(/problem retrieving Kubernetes objects/),
  ).toHaveCount(0);
  await page.getByRole('button', { name: /local/ }).first().click();
  await expect(page.getByText(MODEL).first()).toBeVisible();
  await shot(page, '08-kubernetes-tab');
});
