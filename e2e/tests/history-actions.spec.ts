import { expect, test } from '../fixtures';
import { shot } from '../steps';

const MODEL = 'bge-small-en-v1-5-ov';

/**
 * Issue 26: opening the rollback dialog (and cancelling it) leaves the history as it was; the
 * revision that runs is not offered a rollback; Undeploy lists what it deletes and what it keeps
 * (the shared objects), and the history shows the undeploy at once.
 */
test('rollback and undeploy from the Serving tab say what they will do and the history follows', async ({
  page,
  request,
}) => {
  const token = (await (await request.get('/api/auth/guest/refresh')).json())
    .backstageIdentity.token as string;
  const headers = { Authorization: `Bearer ${token}` };
  // Two revisions on local/models: the log level INFO, then DEBUG.
  for (const env of [{ OV_LOG_LEVEL: 'INFO' }, { OV_LOG_LEVEL: 'DEBUG' }]) {
    const deployed = await request.post(
      `/api/model-manager/models/${MODEL}/deploy`,
      { headers, data: { cluster: 'local', namespace: 'models', env } },
    );
    expect(deployed.status(), await deployed.text()).toBe(200);
    expect((await deployed.json()).ok, await deployed.text()).toBe(true);
  }
  const historyRows = async () =>
    (
      await (
        await request.get(`/api/model-manager/models/${MODEL}/deployments`, {
          headers,
        })
      ).json()
    ).items.length;
  expect(await historyRows()).toBe(2);

  await page.goto(`/catalog/default/component/${MODEL}/serving`);
  await page.getByRole('button', { name: 'Enter' }).click();
  const history = page.getByTestId('deploy-history');
  const revision = (n: number) =>
    history.getByRole('row').filter({
      has: page.getByRole('cell', { name: String(n), exact: true }),
    });
  // Rev 2 runs: marked live, nothing to roll back to; rev 1 can be rolled back to.
  await expect(revision(2).getByText('live', { exact: true })).toBeVisible();
  await expect(
    revision(2).getByRole('button', { name: 'Roll back' }),
  ).toHaveCount(0);
  await revision(1).getByRole('button', { name: 'Roll back' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Roll back');
  await expect(dialog.getByTestId('rollback-plan')).toContainText(
    /live DEBUG → after INFO/,
  );
  await shot(page, 'issue26-rollback-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  // Asking wrote nothing: no dry-run row.
  expect(await historyRows()).toBe(2);
  await page.reload();
  await expect(revision(2)).toBeVisible();
  await expect(history.getByText('dry run')).toHaveCount(0);

  // Undeploy: the confirmation lists what goes and what stays.
  await page
    .getByTestId('declared-vs-live')
    .getByRole('button', { name: 'Undeploy' })
    .click();
  const undeploy = page.getByRole('dialog');
  const deletes = undeploy.getByTestId('undeploy-deletes');
  await expect(deletes).toContainText(`InferenceService ${MODEL}`);
  await expect(deletes).toContainText(`Job ${MODEL}-download`);
  const keeps = undeploy.getByTestId('undeploy-keeps');
  await expect(keeps).toContainText('ClusterServingRuntime openvino-runtime');
  await expect(keeps).toContainText('PersistentVolumeClaim');
  await shot(page, 'issue26-undeploy-confirm');
  await undeploy
    .getByRole('button', { name: 'Undeploy from local/models' })
    .click();
  await expect(undeploy).toHaveCount(0);
  // The history shows it without a reload.
  await expect(history.getByText('undeploy', { exact: true })).toBeVisible();
  await expect(history.getByText('live', { exact: true })).toHaveCount(0);
  await shot(page, 'issue26-undeploy-history');
});
