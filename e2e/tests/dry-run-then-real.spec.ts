import { expect, test } from '../fixtures';
import { shot } from '../steps';

const MODEL = 'qwen2-5-7b-instruct';

/**
 * Issue 26: after a dry run, one click runs the same request for real. The task's output links to
 * the Deploy model form filled with the same values and "Dry run first" off.
 */
test('a dry run of Deploy model links to the same request with the dry run off', async ({
  page,
  request,
}) => {
  const token = (await (await request.get('/api/auth/guest/refresh')).json())
    .backstageIdentity.token as string;
  const values = {
    model: `component:default/${MODEL}`,
    cluster: 'local',
    namespace: 'models',
    serverVersion: '0.19.1',
    env: { VLLM_LOGGING_LEVEL: 'DEBUG' },
    args: ['--max-model-len=4096'],
    dryRun: true,
    force: false,
    skipPreflight: false,
    waitForReady: false,
  };
  // The catalog reads the templates folder at start-up: wait until it has the template.
  await expect
    .poll(
      async () =>
        (
          await request.get(
            '/api/catalog/entities/by-name/template/default/deploy-model',
            { headers: { Authorization: `Bearer ${token}` } },
          )
        ).status(),
      { timeout: 60_000 },
    )
    .toBe(200);
  const created = await request.post('/api/scaffolder/v2/tasks', {
    headers: { Authorization: `Bearer ${token}` },
    data: { templateRef: 'template:default/deploy-model', values },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json();

  await page.goto(`/create/tasks/${id}`);
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(
    page.getByRole('heading', { name: 'Dry run, nothing applied' }),
  ).toBeVisible({
    timeout: 60_000,
  });
  const link = page.getByRole('link', { name: /Deploy for real/ });
  await expect(link).toBeVisible();
  await shot(page, 'issue26-dry-run-output-link');

  // The link carries the same request, dry run off.
  const href = (await link.getAttribute('href'))!;
  const url = new URL(href, 'http://localhost');
  expect(url.pathname).toBe('/create/templates/default/deploy-model');
  expect(JSON.parse(url.searchParams.get('formData')!)).toEqual({
    ...values,
    dryRun: false,
  });

  // One click: the form opens filled; its Review step says the dry run is off.
  await link.click();
  await expect(page).toHaveURL(/\/create\/templates\/default\/deploy-model/);
  await expect(
    page.getByRole('textbox', { name: /Model/ }).first(),
  ).toHaveValue(new RegExp(`${MODEL}$`));
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('server-version-picker')).toContainText(
    '0.19.1',
  );
  await expect(page.getByTestId('arg-0')).toHaveValue('--max-model-len=4096');
  await page.getByRole('button', { name: 'Review' }).click();
  const dryRunRow = page.getByRole('row').filter({ hasText: 'Dry run first' });
  await expect(dryRunRow).toContainText('No');
  await expect(page.getByRole('button', { name: 'Create' })).toBeVisible();
  await shot(page, 'issue26-real-run-review');
});
