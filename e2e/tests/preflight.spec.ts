import path from 'node:path';
import { expect, test } from '../fixtures';

const KUBE = 'http://127.0.0.1:16443';
const MODEL = 'qwen2-5-7b-instruct';

test('the Deploy model template shows a failing preflight check before anything is applied, and the deploy is refused', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText('Platform Catalog')).toBeVisible();

  await page.goto('/create/templates/default/deploy-model');
  await page.getByRole('textbox', { name: /Model/ }).first().click();
  await page
    .getByRole('option', { name: new RegExp(MODEL) })
    .first()
    .click();
  await page.getByRole('button', { name: 'Next' }).click();

  // A namespace the cluster does not have: the check says so, in words, with its fix.
  const namespace = page.getByRole('textbox', { name: /Namespace/ });
  await namespace.fill('nowhere');
  const checks = page.getByTestId('preflight-checks');
  await expect(checks).toContainText(
    'Fails: The namespace exists: namespace nowhere does not exist on cluster local (fix: create it (kubectl create namespace nowhere)',
  );
  await expect(checks).toContainText('Pass: A schedulable node fits the pod');
  await page.screenshot({
    path: path.resolve(
      __dirname,
      '../test-results/steps',
      'preflight-where.png',
    ),
    fullPage: true,
  });

  // The Review step, before anything is applied.
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByText(
      /checks fail, the deploy would be refused: The namespace exists \(namespace nowhere does not exist on cluster local\)/,
    ),
  ).toBeVisible();
  await page.screenshot({
    path: path.resolve(
      __dirname,
      '../test-results/steps',
      'preflight-review.png',
    ),
    fullPage: true,
  });

  // Run anyway (a dry run, as the form defaults to): the portal refuses it, nothing is applied.
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(
    page
      .getByText(
        /preflight refused the deploy to qwen2-5-7b-instruct@local\/nowhere, nothing was applied/,
      )
      .first(),
  ).toBeVisible({ timeout: 60_000 });
  const object = await fetch(
    `${KUBE}/apis/serving.kserve.io/v1alpha2/namespaces/nowhere/llminferenceservices/${MODEL}`,
    { headers: { Authorization: 'Bearer admin-token' } },
  );
  expect(object.status).toBe(404);
});
