import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { guestToken, kube, shot } from '../steps';

/**
 * A rollout with a canary on the task page (issue 26): the Roll out runtime version template runs
 * one step per phase, so while the canary waits for Ready the page shows the plan and the canary's
 * apply done and the wait running, and the rest not started, without opening the logs; once KServe
 * reports the canary Ready the rest moves and the output says what each step did. Everything here
 * is in namespace `rollouts` (its own: a rollout moves every target of the runtime there).
 */
const NAMESPACE = 'rollouts';
const CANARY = 'bge-m3'; // first in the plan (targets in model order); follows vllm's default_version
const OTHER = 'bge-reranker-v2-m3';

/**
 * What the task page's stepper shows for a step (@backstage/plugin-scaffolder-react 2.1
 * TaskSteps/StepIcon): a spinner while it runs, then a check, an error or a skipped icon (the
 * Material icons CheckCircleOutline, ErrorOutline, RemoveCircleOutline), an empty circle before.
 */
async function stepState(step: Locator): Promise<string> {
  if ((await step.getByRole('progressbar').count()) > 0) return 'running';
  const icon = (await step.locator('svg path').first().getAttribute('d')) ?? '';
  if (icon.startsWith('M16.59 7.58')) return 'done';
  if (icon.startsWith('M11 15h2v2h-2z')) return 'failed';
  if (icon.startsWith('M7 11v2h10v-2H7z')) return 'skipped';
  return 'not started';
}

/**
 * Opens the Roll out runtime version template for vllm `version` in {@link NAMESPACE}, on its
 * second page; `includeHeld` ticks "Move held targets too".
 */
async function openTemplate(
  page: Page,
  version = '0.19.1',
  includeHeld = false,
) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText('Platform Catalog')).toBeVisible();
  await page.goto('/create/templates/default/rollout-runtime-version');
  // Pickers, not free text: the runtime (vllm by default) and one of its versions.
  await expect(page.getByTestId('runtime-picker')).toContainText(
    'vllm — versions',
  );
  await page.getByTestId('server-version-picker').getByRole('button').click();
  await page
    .getByRole('option', {
      name: new RegExp(`^${version.replace(/\./g, '\\.')} `),
    })
    .click();
  await expect(page.getByTestId('server-version-picker')).toContainText(
    version,
  );
  await page
    .getByRole('textbox', { name: /Only this namespace/ })
    .fill(NAMESPACE);
  if (includeHeld)
    await page.getByRole('checkbox', { name: /Move held targets too/ }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(
    page.getByRole('spinbutton', { name: /Canary targets/ }),
  ).toHaveValue('1');
}

/** What KServe's controller reports on the canary (its status subresource, as it writes it). */
async function reportCanary(condition: { status: string; reason?: string }) {
  await kube(
    'PATCH',
    `/apis/serving.kserve.io/v1alpha2/namespaces/${NAMESPACE}/llminferenceservices/${CANARY}/status`,
    {
      status: {
        conditions: [
          {
            type: 'Ready',
            ...condition,
            lastTransitionTime: '2026-12-02T07:00:00Z',
          },
        ],
      },
    },
  );
}

test.describe.configure({ mode: 'serial' });

test('a dry run of the rollout runs only the plan step, and says "would move N" by target', async ({
  page,
  request,
}) => {
  const token = await guestToken(request);
  for (const model of [CANARY, OTHER]) {
    const res = await request.post(
      `/api/model-manager/models/${model}/deploy`,
      {
        headers: { Authorization: `Bearer ${token}` },
        data: { cluster: 'local', namespace: NAMESPACE },
      },
    );
    expect(res.status(), await res.text()).toBe(200);
  }
  await openTemplate(page);
  await expect(
    page.getByRole('checkbox', { name: /Dry run first/ }),
  ).toBeChecked();
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Create' }).click();

  const output = page.getByTestId('text-output-box');
  await expect(output).toBeVisible({ timeout: 60_000 });
  await expect(
    page.getByText('Dry run: the plan, nothing applied'),
  ).toBeVisible();
  await expect(output).toContainText(
    `Runtime vllm toward 0.19.1: would move 2 target(s): ${CANARY}@local/${NAMESPACE}, ${OTHER}@local/${NAMESPACE}; 0 stay as they are. Nothing applied.`,
  );
  const steps = page.getByTestId('step-label');
  expect(await Promise.all((await steps.all()).map(s => stepState(s)))).toEqual(
    ['done', 'skipped', 'skipped', 'skipped', 'skipped'],
  );
  await shot(page, 'rollout-progress-00-dry-run');

  // One click rolls the same plan out for real: the form opens filled, "Dry run first" off.
  await expect(output).toContainText('follow the Roll out for real link');
  const link = page.getByRole('link', { name: /Roll out for real/ });
  const url = new URL((await link.getAttribute('href'))!, 'http://localhost');
  expect(url.pathname).toBe(
    '/create/templates/default/rollout-runtime-version',
  );
  expect(JSON.parse(url.searchParams.get('formData')!)).toMatchObject({
    runtime: 'vllm',
    version: '0.19.1',
    namespace: NAMESPACE,
    canary: 1,
    dryRun: false,
  });
  await link.click();
  await expect(page.getByTestId('server-version-picker')).toContainText(
    '0.19.1 — ',
  );
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(
    page.getByRole('checkbox', { name: /Dry run first/ }),
  ).not.toBeChecked();
});

test('a rollout with a canary shows each phase on the task page: the wait for Ready while it waits, then what each step did', async ({
  page,
  request,
}) => {
  const token = await guestToken(request);
  // The targets the dry run above planned; nothing moved since.
  await openTemplate(page);
  await page.getByRole('checkbox', { name: /Dry run first/ }).click();
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Create' }).click();

  // The stepper names each phase; while the canary waits (the test double runs no pod, so it
  // waits until this test reports it Ready) the wait is the running step.
  const steps = page.getByTestId('step-label');
  const step = (name: string) => steps.filter({ hasText: name });
  await expect(steps).toHaveText([
    /^Plan: which targets move/,
    /^Canary: apply/,
    /^Canary: wait until Ready/,
    /^The rest, a batch at a time/,
    /^Which moved targets are Ready/,
  ]);
  await expect(
    step('Canary: wait until Ready').getByRole('progressbar'),
  ).toBeVisible({ timeout: 60_000 });
  const states = async () =>
    Promise.all((await steps.all()).map(s => stepState(s)));
  expect(await states()).toEqual([
    'done',
    'done',
    'running',
    'not started',
    'not started',
  ]);
  // Each started step shows how long it has taken; the rest has not started.
  await expect(step('Canary: wait until Ready')).toContainText(/\d+ seconds?/);
  await expect(step('The rest, a batch at a time')).not.toContainText(/second/);
  // The rest was not applied while the canary waits.
  const rolled = await request.get(
    `/api/model-manager/fleet?runtime=vllm&namespace=${NAMESPACE}`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  const versions = Object.fromEntries(
    (await rolled.json()).items.map((t: any) => [t.model, t.liveVersion]),
  );
  expect(versions).toEqual({ [CANARY]: '0.19.1', [OTHER]: '0.24.0' });
  await shot(page, 'rollout-progress-01-canary-waits');

  // KServe's controller reports the canary Ready.
  await reportCanary({ status: 'True' });
  const output = page.getByTestId('text-output-box');
  await expect(output).toBeVisible({ timeout: 60_000 });
  expect(await states()).toEqual(['done', 'done', 'done', 'done', 'done']);
  await expect(page.getByText('Rolled out')).toBeVisible();
  // What each step did, by target.
  await expect(output).toContainText(
    `Runtime vllm toward 0.19.1: moved 2 target(s) of 2; 0 stay as they are`,
  );
  await expect(output).toContainText(
    `Plan: 2 target(s) to move: canary ${CANARY}@local/${NAMESPACE}, then 1 more;`,
  );
  await expect(output).toContainText(
    new RegExp(
      `Canary: moved ${CANARY}@local/${NAMESPACE} 0\\.24\\.0 -> 0\\.19\\.1 \\(revision \\d+\\)\\. Ready: ${CANARY}@local/${NAMESPACE}\\.`,
    ),
  );
  await expect(output).toContainText(
    new RegExp(
      `The rest: moved 1 target\\(s\\) after the canary: ${OTHER}@local/${NAMESPACE} 0\\.24\\.0 -> 0\\.19\\.1 \\(revision \\d+\\)\\.`,
    ),
  );
  await expect(output).toContainText(
    new RegExp(
      `Ready now: 1 of 2 moved \\(${CANARY}@local/${NAMESPACE}\\); not Ready yet: ${OTHER}@local/${NAMESPACE} \\(NotReady`,
    ),
  );
  await shot(page, 'rollout-progress-02-done');
});

test('a rollout cancelled while the canary waits stops there: the wait stops spinning and the page says what moved', async ({
  page,
}) => {
  // Back toward 0.24.0 (the test above moved both to 0.19.1, and holds them there), with the
  // canary not Ready.
  await reportCanary({ status: 'False', reason: 'ImagePullBackOff' });
  await openTemplate(page, '0.24.0', true);
  await page.getByRole('checkbox', { name: /Dry run first/ }).click();
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Create' }).click();

  const steps = page.getByTestId('step-label');
  const wait = steps.filter({ hasText: 'Canary: wait until Ready' });
  await expect(wait.getByRole('progressbar')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Show logs' }).click();
  // The wait says how long it lasts at most.
  await expect(page.getByText(/\(it waits up to 15 min\)/)).toBeVisible();

  await page.getByRole('button', { name: 'Cancel' }).click();
  // The wait stops at once: no spinner on any step, the wait marked stopped, the rest skipped,
  // and the page says what the rollout did. (Backstage 1.55 records a cancelled task as failed.)
  await expect(steps.getByRole('progressbar')).toHaveCount(0, {
    timeout: 30_000,
  });
  expect(await Promise.all((await steps.all()).map(s => stepState(s)))).toEqual(
    ['done', 'done', 'failed', 'skipped', 'skipped'],
  );
  await expect(
    page.getByRole('heading', {
      name: /rollout of vllm 0\.24\.0 cancelled: no target was started after the cancel\. canary Ready: 0 of 1/,
    }),
  ).toBeVisible();
  await shot(page, 'rollout-progress-03-cancelled');
});
