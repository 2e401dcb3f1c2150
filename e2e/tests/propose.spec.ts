import { readFileSync } from 'node:fs';
import { expect, test } from '../fixtures';
import { pickModel } from '../steps';

/**
 * Propose model deployment (pull request), issue 26: with no GitHub credentials configured (the
 * browser suite's app-config has no integrations), the template says so on its Pull request step,
 * naming who can fix it, and does not go on to a run that would fail on its last step; the objects
 * the pull request would add are offered as a download all the same.
 */
const MODEL = 'qwen2-5-7b-instruct';

test('the pull request template checks the GitHub access up front and offers the objects to download', async ({
  page,
}) => {
  await page.goto('/create/templates/default/propose-model-deployment');
  await page.getByRole('button', { name: 'Enter' }).click();
  await pickModel(page, MODEL);

  // Where: the cluster is a picker of the configured clusters, as in Deploy model.
  await expect(page.getByTestId('cluster-picker')).toContainText('local');
  await page.getByRole('button', { name: 'Next' }).click();

  // Pull request: a repository on github.com, for which the portal has no credentials.
  await page.getByRole('textbox', { name: 'Owner', exact: true }).fill('acme');
  await page
    .getByRole('textbox', { name: 'Repository', exact: true })
    .fill('gitops');
  const check = page.getByTestId('pull-request-check');
  await expect(check).toContainText(
    'The portal has no GitHub credentials for github.com, so it cannot open the pull request: an administrator adds a token or a GitHub App to the github.com entry of integrations.github in app-config',
  );

  // The objects, downloaded whatever the answer.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    check
      .getByRole('button', { name: `Download ${MODEL}-local-models.yaml` })
      .click(),
  ]);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text).toContain('kind: LLMInferenceService');
  expect(text).toContain(`name: ${MODEL}`);

  // The step does not go on to Review: the run would fail on its last step.
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByText(/no GitHub credentials for github.com/),
  ).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Create' })).toHaveCount(0);
});
