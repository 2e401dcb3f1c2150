import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { pickModel, shot } from '../steps';

const KUBE = 'http://127.0.0.1:16443';
const MODEL = 'qwen2-5-7b-instruct';

async function kube(
  method: string,
  apiPath: string,
  body: unknown,
  type = 'application/json',
) {
  const res = await fetch(`${KUBE}${apiPath}`, {
    method,
    headers: { Authorization: 'Bearer admin-token', 'Content-Type': type },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
}

/** On the Where step: picks `namespace` (the form starts on the first the cluster allows). */
async function pickNamespace(page: Page, namespace: string) {
  await page
    .getByRole('button', { name: /models/ })
    .first()
    .click();
  await page.getByRole('option', { name: namespace }).click();
}

/** Signs in as the guest and opens the Deploy model template on its second step, with `model` picked. */
async function openDeployForm(page: Page, model = MODEL) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText('Platform Catalog')).toBeVisible();
  await page.goto('/create/templates/default/deploy-model');
  await pickModel(page, model);
}

test('the Deploy model template shows a failing preflight check before anything is applied, and does not go on unless "Deploy even if a preflight check fails" is ticked', async ({
  page,
}) => {
  const quotas = '/api/v1/namespaces/default/resourcequotas';
  await kube('POST', quotas, {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'team-quota' },
    spec: { hard: { 'requests.cpu': '8' } },
  });
  await kube(
    'PATCH',
    `${quotas}/team-quota/status`,
    {
      status: { hard: { 'requests.cpu': '8' }, used: { 'requests.cpu': '8' } },
    },
    'application/merge-patch+json',
  );
  await openDeployForm(page);

  // Namespace `default` is full: its ResourceQuota (as kube's quota controller reports it) has no
  // CPU left. The check says so, in words, with its fix.
  await pickNamespace(page, 'default');
  const checks = page.getByTestId('preflight-checks');
  await expect(checks).toContainText(
    "Fails: The namespace's ResourceQuota has room for the pod: ResourceQuota in default would refuse the pod",
  );
  await expect(checks).toContainText('team-quota: requests.cpu used 8 of 8');
  await expect(checks).toContainText('Pass: A schedulable node fits the pod');
  await shot(page, 'preflight-where');

  // The form does not go on: the deploy (a dry run too) would be refused and apply nothing.
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByText(
      /^a preflight check fails, so the deploy \(a dry run too\) would be refused and nothing applied\. Fix it as the check says and press Check again, or tick "Deploy even if a preflight check fails"/,
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create' })).toHaveCount(0);

  // Ticked, it goes on; the Review step says the deploy goes ahead despite the failed check.
  await page
    .getByRole('checkbox', { name: /Deploy even if a preflight check fails/ })
    .click();
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByText(
      /checks fail, the deploy goes ahead \("Deploy even if a preflight check fails" is ticked\): The namespace's ResourceQuota has room for the pod \(ResourceQuota in default would refuse the pod/,
    ),
  ).toBeVisible();
  await shot(page, 'preflight-review');

  // A dry run (as the form defaults to): the API server validates, nothing is applied.
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(
    page.getByRole('heading', { name: 'Dry run, nothing applied' }),
  ).toBeVisible({ timeout: 60_000 });
  const object = await fetch(
    `${KUBE}/apis/serving.kserve.io/v1alpha2/namespaces/default/llminferenceservices/${MODEL}`,
    { headers: { Authorization: 'Bearer admin-token' } },
  );
  expect(object.status).toBe(404);
});

test('a variable read from a Secret that is missing: the check gives the command with its key and holds the form until the Secret exists; one deleted before Create is refused by the deploy, with the command', async ({
  page,
}) => {
  const secret = 'hf-token-e2e-missing';
  await openDeployForm(page);

  // HF_TOKEN typed in is refused beside the value, pointing at the row's own "From a Secret".
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByTestId('env-name-0').fill('HF_TOKEN');
  await page.getByTestId('env-value-0').fill('typed-in');
  await expect(
    page.getByText(/^HF_TOKEN names a credential, .*choose "From a Secret"/),
  ).toHaveCount(1);
  await page.getByTestId('env-source-0').selectOption('secret');
  await page.getByTestId('env-secret-name-0').fill(secret);
  await page.getByTestId('env-secret-key-0').fill('token');
  await expect(page.getByText(/names a credential/)).toHaveCount(0);

  const fix = `kubectl -n models create secret generic ${secret} --from-literal=token=...`;
  const checks = page.getByTestId('preflight-checks');
  await expect(checks).toContainText(
    `Fails: The Secrets the model references exist: Secret ${secret} does not exist in namespace models`,
  );
  await expect(checks).toContainText(fix);

  // The form does not go on until the Secret exists; once it does, "Check again" says so.
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByText(/^a preflight check fails, so the deploy/),
  ).toBeVisible();
  const secrets = '/api/v1/namespaces/models/secrets';
  await kube('POST', secrets, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secret },
    data: { token: Buffer.from('e2e').toString('base64') },
  });
  await checks.getByRole('button', { name: 'Check again' }).click();
  await expect(checks).toContainText(
    'Pass: The Secrets the model references exist',
  );
  await page.getByRole('button', { name: 'Review' }).click();
  const rows = page.getByRole('row');
  await expect(rows.filter({ hasText: 'Environment variables' })).toContainText(
    secret,
  );
  await expect(page.getByRole('row', { name: /^Preflight / })).toContainText(
    /no check fails|checks pass/,
  );

  // Deleted before Create (someone else's cleanup): the deploy runs the checks itself, refuses.
  await kube('DELETE', `${secrets}/${secret}`, undefined);
  await page.getByRole('button', { name: 'Create' }).click();

  // The task page's banner (Markdown) shows the command as written, key and all.
  const banner = page.getByRole('heading', {
    name: /^Error: preflight refused the deploy to /,
  });
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toContainText(`(fix: create it there: ${fix})`);
  await expect(banner).toContainText(
    'To apply anyway, run it again with skipPreflight (in the Deploy model form: tick "Deploy even if a preflight check fails")',
  );
  // Expanded, the same message is plain text (and what its copy button copies): no Markdown
  // backslash in it, so the command copied runs as it is.
  await banner.click();
  const message = page
    .getByRole('listitem')
    .filter({ hasText: /^Message/ })
    .first();
  await expect(message).toContainText(`(fix: create it there: ${fix})`);
  await expect(message).not.toContainText('\\');
  await shot(page, 'preflight-secret-banner');
});

test('an InferenceService KServe made in Knative mode: the Deploy form says KServe would refuse the change and how to undeploy first; once it is gone, the check passes', async ({
  page,
}) => {
  const model = 'bge-reranker-base-ov';
  const isvcs =
    '/apis/serving.kserve.io/v1beta1/namespaces/rollouts/inferenceservices';
  // As KServe's controller leaves one on a Knative-mode install (its own default).
  await kube('POST', isvcs, {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: model },
    spec: { predictor: { model: { modelFormat: { name: 'openvino' } } } },
  });
  try {
    await kube(
      'PATCH',
      `${isvcs}/${model}/status`,
      { status: { deploymentMode: 'Knative' } },
      'application/merge-patch+json',
    );
    await openDeployForm(page, model);
    await pickNamespace(page, 'rollouts');
    const checks = page.getByTestId('preflight-checks');
    await expect(checks).toContainText(
      `Fails: KServe keeps the InferenceService's deployment mode: InferenceService rollouts/${model} runs in Knative mode on cluster local`,
    );
    await expect(checks).toContainText(
      `fix: undeploy the model from this target first (the Serving tab's Undeploy, or model-manager undeploy ${model} --cluster local --namespace rollouts)`,
    );
    await shot(page, 'preflight-deployment-mode');
  } finally {
    await kube('DELETE', `${isvcs}/${model}`, undefined);
  }
  // Undeployed (here: deleted by hand): checked again, KServe would create it in Standard mode.
  await page
    .getByTestId('preflight-checks')
    .getByRole('button', { name: 'Check again' })
    .click();
  await expect(page.getByTestId('preflight-checks')).toContainText(
    `Pass: KServe keeps the InferenceService's deployment mode: InferenceService rollouts/${model} is new on cluster local: KServe creates it in Standard mode`,
  );
});
