import { readFileSync } from 'node:fs';
import { errors, type Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { shot } from '../steps';

/** Issue 15: the rough edges of a first walk-through, in a real browser. */

const VLLM_MODEL = 'qwen2-5-7b-instruct';
const OPENVINO_MODEL = 'bge-small-en-v1-5-ov';

async function signIn(page: Page, at: string) {
  await page.goto(at);
  await page.getByRole('button', { name: 'Enter' }).click();
}

test('the catalog is at /catalog, / leads there, and a runtime is found by its short name', async ({
  page,
}) => {
  await page.goto('/');
  // One name: the sign-in page and the sidebar logo both say app.title.
  await expect(page.getByText('Model Manager').first()).toBeVisible();
  await shot(page, 'issue15-00-sign-in');
  await page.getByRole('button', { name: 'Enter' }).click();
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
  // The picker has taken the new model before the step moves on (as a user sees it pick). A
  // click that lands while the list re-renders after the typing is lost (CI, a busy machine):
  // the user picks again, and so does the test.
  await expect(async () => {
    await modelBox.fill(OPENVINO_MODEL);
    await page
      .getByRole('option', { name: new RegExp(OPENVINO_MODEL) })
      .first()
      .click();
    await expect(modelBox).toHaveValue(new RegExp(`${OPENVINO_MODEL}$`), {
      timeout: 5_000,
    });
  }).toPass({ timeout: 60_000 });
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

test('deploy template: what is wrong is said in words beside the row, once; the Review step shows names as typed, Yes/No and no blank rows', async ({
  page,
}) => {
  await signIn(page, '/create/templates/default/deploy-model');
  await page.getByRole('textbox', { name: /Model/ }).first().click();
  await page
    .getByRole('option', { name: new RegExp(VLLM_MODEL) })
    .first()
    .click();
  await page.getByRole('button', { name: 'Next' }).click();

  // A value without a name, a name that is not a C identifier, a flag that is not one.
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByTestId('env-value-0').fill('auto');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByTestId('env-name-1').fill('BAD-NAME');
  await page.getByTestId('env-value-1').fill('1');
  await page.getByRole('button', { name: 'Add flag' }).click();
  await page.getByTestId('arg-0').fill('8192');
  await page.getByRole('button', { name: 'Review' }).click();

  // The list at the top names the fields; each reason is said once, beside its row.
  await expect(
    page.getByText(
      "'Environment variables' has 2 variables to fix: the reason is shown beside each",
    ),
  ).toBeVisible();
  await expect(
    page.getByText(
      "'Server flags' has a flag to fix: the reason is shown beside it",
    ),
  ).toBeVisible();
  for (const [testId, words] of [
    ['env-name-0', "this variable has no name (its value is 'auto')"],
    ['env-name-1', "env name 'BAD-NAME' is not a C identifier"],
    ['arg-0', "'8192' is not a flag"],
  ]) {
    const said = page.getByText(words);
    await expect(said).toHaveCount(1);
    await expect(page.getByTestId(testId)).toHaveAttribute(
      'aria-describedby',
      (await said.getAttribute('id'))!,
    );
  }
  const main = page.locator('form');
  await expect(main).not.toContainText('must match pattern');
  await expect(main).not.toContainText('env.BAD-NAME');
  await expect(main).not.toContainText('args[0]');
  await shot(page, 'issue15-08-validation-in-words');

  await page.getByTestId('env-name-0').fill('VLLM_CPU_OMP_THREADS_BIND');
  await page.getByTestId('env-name-1').fill('MY_VAR');
  await page.getByTestId('arg-0').fill('--max-model-len=8192');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('button', { name: 'Create' })).toBeVisible();

  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'Environment variables' })).toContainText(
    'VLLM_CPU_OMP_THREADS_BIND',
  );
  await expect(rows.filter({ hasText: 'Environment variables' })).toContainText(
    'MY_VAR',
  );
  await expect(page.getByText(/Vllm Cpu Omp/i)).toHaveCount(0);
  await expect(rows.filter({ hasText: 'Server flags' })).toContainText(
    '--max-model-len=8192',
  );
  await expect(rows.filter({ hasText: 'Dry run first' })).toContainText('Yes');
  await expect(rows.filter({ hasText: 'Wait until' })).toContainText('No');
  await expect(page.locator('body')).not.toContainText(/[\u2705\u274C]/);
  // No blank rows: the server version was left empty, so it has no row at all.
  await expect(rows.filter({ hasText: 'Server version' })).toHaveCount(0);
  for (const row of await rows.all()) {
    await expect(row.getByRole('cell').nth(1)).not.toHaveText('');
  }
  await shot(page, 'issue15-09-review');
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

test('a full-page capture that hangs is made again of the viewport, and the test says so', async () => {
  const captures: Array<{ fullPage?: boolean; path?: string }> = [];
  const page = {
    async screenshot(options: { fullPage?: boolean; path?: string }) {
      captures.push(options);
      if (options.fullPage) throw new errors.TimeoutError('capture hung');
      return Buffer.alloc(0);
    },
  } as unknown as Page;
  await shot(page, 'a-long-page');
  expect(captures.map(c => c.fullPage ?? false)).toEqual([true, false]);
  expect(captures[1].path).toMatch(/test-results\/steps\/a-long-page\.png$/);
  expect(test.info().annotations).toContainEqual({
    type: 'screenshot',
    description:
      'a-long-page: the full-page capture took over 30 s; the viewport alone was captured',
  });
  // Any other failure is the test's.
  const broken = {
    async screenshot() {
      throw new Error('Target closed');
    },
  } as unknown as Page;
  await expect(shot(broken, 'closed')).rejects.toThrow('Target closed');
});
