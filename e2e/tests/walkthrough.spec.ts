import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';

/** Issue 15: the rough edges of a first walk-through, in a real browser. */

const VLLM_MODEL = 'qwen2-5-7b-instruct';
const OPENVINO_MODEL = 'bge-small-en-v1-5-ov';

async function shot(page: Page, name: string) {
  await page.screenshot({
    path: path.resolve(__dirname, '../test-results/steps', `${name}.png`),
    fullPage: true,
  });
}

async function signIn(page: Page, at: string) {
  await page.goto(at);
  await page.getByRole('button', { name: 'Enter' }).click();
}

test('the catalog is at /catalog, / leads there, and a runtime is found by its short name', async ({
  page,
}) => {
  await signIn(page, '/');
  await expect(page).toHaveURL(/\/catalog\/?$/);
  await expect(page.getByText('Platform Catalog')).toBeVisible();
  await expect(page.getByText('Model Manager').first()).toBeVisible(); // sidebar logo = app.title

  await page.goto('/catalog');
  await expect(page.getByText('Platform Catalog')).toBeVisible();
  await expect(page.getByText(/Page not found|404/)).toHaveCount(0);
  await shot(page, 'issue15-01-catalog');

  await page.goto('/catalog/default/resource/vllm');
  await expect(page).toHaveURL(
    /\/catalog\/default\/resource\/vllm-runtime\/?$/,
  );
  await expect(page.getByText('Runtime vllm', { exact: true })).toBeVisible(); // the Overview's summary card
  await page.getByRole('link', { name: 'Runtime', exact: true }).click();
  await expect(page).toHaveURL(/vllm-runtime\/runtime$/);
  const env = page.getByRole('table', { name: 'Common env' });
  await expect(
    env.getByText('VLLM_CPU_OMP_THREADS_BIND', { exact: true }),
  ).toBeVisible();
  await shot(page, 'issue15-02-runtime');
});

test('deploy template: a version picked for a vLLM model is not submitted for an OpenVINO model', async ({
  page,
}) => {
  await signIn(page, '/create/templates/default/deploy-model');
  const modelBox = page.getByRole('textbox', { name: /Model/ }).first();
  await modelBox.click();
  await page
    .getByRole('option', { name: new RegExp(VLLM_MODEL) })
    .first()
    .click();
  await page.getByRole('button', { name: 'Next' }).click();

  const picker = page.getByTestId('server-version-picker');
  await picker.getByRole('button').click();
  await page.getByRole('option', { name: /^0\.19\.1/ }).click();
  await expect(picker).toContainText('0.19.1');
  await shot(page, 'issue15-03-vllm-version-picked');

  await page.getByRole('button', { name: 'Back' }).click();
  await modelBox.fill(OPENVINO_MODEL);
  await page
    .getByRole('option', { name: new RegExp(OPENVINO_MODEL) })
    .first()
    .click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(/openvino is a flat runtime/)).toBeVisible();
  await expect(picker).not.toContainText('0.19.1');
  await shot(page, 'issue15-04-openvino-picker');

  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByText(OPENVINO_MODEL).first()).toBeVisible();
  await expect(page.getByText('0.19.1')).toHaveCount(0);
  await expect(page.getByText('Yes').first()).toBeVisible(); // Dry run first: Yes, not a glyph
  await shot(page, 'issue15-05-review');

  await page.getByRole('button', { name: 'Create' }).click();
  await expect(
    page
      .getByText(
        /a dry run, kept in the model's deploy history without a revision number/,
      )
      .first(),
  ).toBeVisible({ timeout: 60_000 });
  await shot(page, 'issue15-06-openvino-dry-run-done');
});

test('manifests: one tab per object, copy, and a .yaml with every object', async ({
  page,
}) => {
  // An OpenVINO model: its runtime, weights PVC and Job, InferenceService and gateway route.
  await signIn(page, `/catalog/default/component/${OPENVINO_MODEL}/serving`);
  const tabs = page
    .getByRole('tablist', { name: 'Manifests' })
    .getByRole('tab');
  await expect(tabs.first()).toBeVisible();
  const labels = await tabs.allTextContents();
  expect(labels.length).toBeGreaterThan(1);
  expect(labels).toContain(`InferenceService ${OPENVINO_MODEL}`);
  await tabs.nth(1).click();
  const panel = page.getByRole('tabpanel', { name: labels[1] });
  await expect(panel).toContainText(`kind: ${labels[1].split(' ')[0]}`);
  await expect(panel.getByRole('button', { name: /copy/i })).toBeVisible();
  await shot(page, 'issue15-07-manifest-tabs');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('button', { name: `Download ${OPENVINO_MODEL}.yaml` })
      .click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${OPENVINO_MODEL}.yaml`);
  const text = readFileSync((await download.path())!, 'utf8');
  for (const label of labels)
    expect(text).toContain(`kind: ${label.split(' ')[0]}`);
  expect(text.split(/^---$/m)).toHaveLength(labels.length);
});

test('the console fixture fails a test when the page logs an error', async ({
  page,
}) => {
  test.fail(); // expected: the fixture's check after the test fails it
  await page.goto('about:blank');
  await page.evaluate(() => console.error('an error from the portal'));
});
