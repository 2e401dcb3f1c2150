import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { shot } from '../steps';

/**
 * The Deployments page and a runtime version rollout through the Roll out runtime version
 * template, in the browser. Everything here deploys to local/default, so the other suites'
 * targets (local/models) neither show up in the filtered views nor move in the rollout.
 */
const NAMESPACE = 'default';
const UNPINNED = 'bge-m3'; // follows the vllm default_version (0.24.0)
const PINNED = 'llama-3-1-8b-instruct'; // server_version: "0.19.1" in models.yaml

async function guestHeaders(request: APIRequestContext) {
  const refresh = await request.get('/api/auth/guest/refresh');
  expect(refresh.ok()).toBe(true);
  return {
    Authorization: `Bearer ${(await refresh.json()).backstageIdentity.token}`,
  };
}

async function signIn(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText('Platform Catalog')).toBeVisible();
}

/** The Deployments table row of a model on local/default. */
const rowOf = (page: Page, model: string) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: model, exact: true }) })
    .filter({ hasText: `local/${NAMESPACE}` });

test.describe.configure({ mode: 'serial' });

test('the Deployments page lists every target, filters by the URL and links to the model', async ({
  page,
  request,
}) => {
  const headers = await guestHeaders(request);
  for (const model of [UNPINNED, PINNED]) {
    const res = await request.post(
      `/api/model-manager/models/${model}/deploy`,
      { headers, data: { cluster: 'local', namespace: NAMESPACE } },
    );
    expect(res.status(), await res.text()).toBe(200);
  }

  await signIn(page);
  await page.getByRole('link', { name: 'Deployments' }).click();
  await expect(page).toHaveURL(/\/model-deployments$/);
  await expect(page.getByText(/^Deployments \(\d+ of \d+\)$/)).toBeVisible();
  const unpinned = rowOf(page, UNPINNED);
  await expect(unpinned).toContainText('0.24.0');
  await expect(unpinned).toContainText(
    'docker.io/vllm/vllm-openai-cpu:v0.24.0',
  );
  // The test double runs no pods: KServe never reports Ready.
  await expect(unpinned.getByTestId('state-NotReady')).toBeVisible();
  await expect(unpinned).toContainText(/rev 1 deploy by user:default\/guest/);
  await expect(unpinned.getByTestId('chip-in-sync')).toBeVisible();
  await expect(rowOf(page, PINNED)).toContainText('0.19.1');
  await shot(page, 'deployments-01-all');

  // Filter: the namespace and a live version; the filters go into the URL.
  await page.getByLabel('Namespace').selectOption(NAMESPACE);
  await page.getByLabel('Live version').selectOption('0.19.1');
  await expect(page).toHaveURL(
    new RegExp(`namespace=${NAMESPACE}&version=0\\.19\\.1`),
  );
  await expect(page.getByText(/^Deployments \(1 of \d+\)$/)).toBeVisible();
  await expect(rowOf(page, PINNED)).toBeVisible();
  await expect(rowOf(page, UNPINNED)).toHaveCount(0);
  await shot(page, 'deployments-02-filtered');

  // A shared link opens the same view.
  await page.goto(`/model-deployments?namespace=${NAMESPACE}&version=0.24.0`);
  await expect(page.getByText(/^Deployments \(1 of \d+\)$/)).toBeVisible();
  await expect(page.getByLabel('Live version')).toHaveValue('0.24.0');
  await expect(rowOf(page, UNPINNED)).toBeVisible();

  // Each target links to its model's Serving tab, whose header shows declared vs live.
  await rowOf(page, UNPINNED)
    .getByRole('link', { name: UNPINNED, exact: true })
    .click();
  await expect(page).toHaveURL(
    new RegExp(`/catalog/default/component/${UNPINNED}/serving`),
  );
  await expect(page.getByText('Declared vs live')).toBeVisible();
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: `local/${NAMESPACE}` })
      .first(),
  ).toContainText('0.24.0');
  await shot(page, 'deployments-03-serving-declared-vs-live');
});

test('a runtime version rolls out through the template, and the Deployments page shows the new version', async ({
  page,
  request,
}) => {
  await signIn(page);

  // The runtime page counts targets per version and links the template pre-filled.
  await page.goto('/catalog/default/resource/vllm-runtime/runtime');
  await expect(page.getByText('Fleet by version')).toBeVisible();
  await shot(page, 'rollout-01-runtime-matrix');
  await page.getByRole('button', { name: 'Roll out 0.19.1' }).click();

  // Roll out runtime version, pre-filled with the runtime and the version.
  await expect(page.getByTestId('runtime-picker')).toContainText(
    'vllm — versions',
  );
  await expect(page.getByTestId('server-version-picker')).toContainText(
    '0.19.1 — ',
  );
  await page
    .getByRole('textbox', { name: /Only this namespace/ })
    .fill(NAMESPACE);
  await page.getByRole('button', { name: 'Next' }).click();
  // No pod ever becomes Ready on the test double: no canary to wait for.
  await page.getByRole('spinbutton', { name: /Canary targets/ }).fill('0');
  const dryRun = page.getByRole('checkbox', { name: /Dry run first/ });
  await expect(dryRun).toBeChecked();
  await dryRun.click();
  await expect(dryRun).not.toBeChecked();
  await shot(page, 'rollout-02-template');
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Create' }).click();

  await expect(page.getByText('Rolled out')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/moved 1 target\(s\) of 1/)).toBeVisible();
  // Moved is not Ready (nothing becomes Ready on the test double): the task says so, by target.
  await expect(page.getByTestId('text-output-box')).toContainText(
    new RegExp(`Ready now: 0 of 1 moved; not Ready yet: ${UNPINNED}@local/`),
  );
  await shot(page, 'rollout-03-task-done');

  // The task's link opens the Deployments page of the runtime: the unpinned model moved, the pinned one stayed.
  await page.getByRole('link', { name: 'Deployments' }).last().click();
  await expect(page).toHaveURL(/\/model-deployments\?runtime=vllm/);
  const moved = rowOf(page, UNPINNED);
  await expect(moved).toContainText('0.19.1');
  await expect(moved).toContainText('docker.io/vllm/vllm-openai-cpu:v0.19.1');
  await expect(moved).toContainText(/rev 2 rollout by user:default\/guest/);
  await expect(rowOf(page, PINNED)).toContainText(/rev 1 deploy/);
  await shot(page, 'rollout-04-deployments-after');

  // The history records it as a rollout with a revision of its own.
  const history = await (
    await request.get(`/api/model-manager/models/${UNPINNED}/deployments`, {
      headers: await guestHeaders(request),
    })
  ).json();
  expect(history.items[0]).toMatchObject({
    action: 'rollout',
    revision: 2,
    serverVersion: '0.19.1',
    namespace: NAMESPACE,
    outcome: 'succeeded',
  });
});

test('a rollback asks first, showing the diff it will apply, and the new row says which revision it went back to', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`/catalog/default/component/${UNPINNED}/serving`);
  const history = page.getByTestId('deploy-history');
  const revision = (n: number) =>
    history.getByRole('row').filter({
      has: page.getByRole('cell', { name: String(n), exact: true }),
    });
  await expect(revision(2)).toContainText('rollout');
  await expect(revision(2)).toContainText(/\d+ change\(s\) since rev 1/);

  // What runs there is the rolled-out version, held by the rollout, apart from what a new deploy
  // would apply (models.yaml's default); the difference is listed with its reason.
  const runs = page.getByTestId(`sync-local/${NAMESPACE}`);
  await expect(runs.getByTestId('hold')).toContainText(
    /^Held at 0\.19\.1 by rollout of \d{4}-\d\d-\d\d by user:default\/guest \(revision 2\); models\.yaml default 0\.24\.0$/,
  );
  await expect(runs).toContainText(
    'Image: docker.io/vllm/vllm-openai-cpu:v0.19.1',
  );
  await expect(runs).toContainText(
    'What a new deploy would apply (models.yaml now, no overrides)Version: 0.24.0',
  );
  await expect(runs.getByTestId('reason-rollout').first()).toBeVisible();
  await shot(page, 'rollback-00-what-runs');

  // The row's Diff opens a dialog beside it: what the rollout changed, and live against it.
  await revision(2).getByRole('button', { name: 'Diff' }).click();
  const diff = page.getByRole('dialog');
  await expect(diff).toContainText(
    'What this deploy changed (since revision 1)',
  );
  await expect(diff).toContainText(
    'rev 1 docker.io/vllm/vllm-openai-cpu:v0.24.0 → rev 2 docker.io/vllm/vllm-openai-cpu:v0.19.1',
  );
  await expect(diff).toContainText('Live is what revision 2 applied.');
  await diff.getByRole('button', { name: 'Close' }).click();
  await expect(diff).toHaveCount(0);
  await revision(1).getByRole('button', { name: 'Roll back' }).click();

  // The confirmation shows what a rollback dry run says it would change on the live objects.
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(
    `Roll back ${UNPINNED} on local/${NAMESPACE} to rev 1?`,
  );
  await expect(dialog).toContainText(
    'live docker.io/vllm/vllm-openai-cpu:v0.19.1 → after docker.io/vllm/vllm-openai-cpu:v0.24.0',
  );
  await shot(page, 'rollback-01-confirm');
  await dialog.getByRole('button', { name: 'Roll back to rev 1' }).click();
  await expect(dialog).toHaveCount(0);

  // The history reloads: rev 3 is the rollback, its changes compared with rev 2.
  await expect(revision(3)).toContainText('rollback to rev 1');
  await expect(revision(3)).toContainText(/\d+ change\(s\) since rev 2/);
  await shot(page, 'rollback-02-history');
});
