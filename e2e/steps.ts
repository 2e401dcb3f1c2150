import { expect, type APIRequestContext, type Page } from '@playwright/test';

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
