import path from 'node:path';
import {
  errors,
  expect,
  test,
  type APIRequestContext,
  type Page,
} from '@playwright/test';

/** How long one capture may take before it counts as hung. */
const CAPTURE_TIMEOUT_MS = 30_000;

/**
 * A full-page screenshot of a step, for the person reading the run (e2e/test-results/DIR/NAME.png).
 * It is a record, not an assertion: Chromium has now and then hung on a full-page capture of a
 * long page (CI of a0640d1: two minutes after "fonts loaded", until the test's timeout). A capture
 * that takes longer than 30 s is made again of the viewport alone, and the test is annotated so.
 */
export async function shot(page: Page, name: string, dir = 'steps') {
  const file = path.resolve(__dirname, 'test-results', dir, `${name}.png`);
  try {
    await page.screenshot({
      path: file,
      fullPage: true,
      timeout: CAPTURE_TIMEOUT_MS,
    });
  } catch (e) {
    if (!(e instanceof errors.TimeoutError)) throw e;
    test.info().annotations.push({
      type: 'screenshot',
      description: `${name}: the full-page capture took over ${
        CAPTURE_TIMEOUT_MS / 1000
      } s; the viewport alone was captured`,
    });
    await page.screenshot({ path: file, timeout: CAPTURE_TIMEOUT_MS });
  }
}

/** On a template's Model step: picks `model` in the entity picker and goes to the next step. */
export async function pickModel(page: Page, model: string) {
  const field = page.getByRole('textbox', { name: /Model/ }).first();
  await field.click();
  await field.fill(model);
  await page
    .getByRole('option', { name: new RegExp(model) })
    .first()
    .click();
  await page.getByRole('button', { name: 'Next' }).click();
}

/** The browser suite's API test double (e2e/app-config.e2e.yaml's cluster `local`). */
export const KUBE = 'http://127.0.0.1:16443';

/**
 * Writes to the API test double as its admin, as a controller or the kubelet would (status
 * subresources, pods, Events); fails the test on an error answer.
 */
export async function kube(
  method: 'POST' | 'PATCH' | 'DELETE',
  apiPath: string,
  body?: unknown,
) {
  const res = await fetch(`${KUBE}${apiPath}`, {
    method,
    headers: {
      Authorization: 'Bearer admin-token',
      'Content-Type':
        method === 'PATCH'
          ? 'application/merge-patch+json'
          : 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(
    res.status,
    `${method} ${apiPath}: ${await res.clone().text()}`,
  ).toBeLessThan(300);
  return res;
}

/** Deploys `model` to local/models through the backend's REST API as the guest; fails on an error. */
export async function deployAsGuest(request: APIRequestContext, model: string) {
  const token = await guestToken(request);
  const deployed = await request.post(
    `/api/model-manager/models/${model}/deploy`,
    {
      headers: { Authorization: `Bearer ${token}` },
      data: { cluster: 'local', namespace: 'models' },
    },
  );
  expect(deployed.status(), await deployed.text()).toBe(200);
  return deployed;
}

/** A Backstage token of the guest (`/api/auth/guest/refresh`). */
export async function guestToken(request: APIRequestContext): Promise<string> {
  return (await (await request.get('/api/auth/guest/refresh')).json())
    .backstageIdentity.token;
}
