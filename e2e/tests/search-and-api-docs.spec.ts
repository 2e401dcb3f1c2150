import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { shot } from '../steps';

async function signIn(page: Page) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByRole('link', { name: 'Models' })).toBeVisible();
}

test('the stock search finds a model by name and by its Hugging Face model id', async ({
  page,
}) => {
  await signIn(page);
  // The catalog collator indexes on a schedule; the first index is built shortly after start.
  await expect(async () => {
    await page.goto('/search?query=qwen2-5-7b-instruct');
    await expect(
      page.getByRole('link', { name: /qwen2-5-7b-instruct/ }).first(),
    ).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
  await shot(page, 'search-by-name');

  await page.goto('/search?query=Qwen%2FQwen2.5-7B-Instruct');
  await expect(
    page.getByRole('link', { name: /qwen2-5-7b-instruct/ }).first(),
  ).toBeVisible();
});

test("a model's API is rendered as an OpenAPI document and links the model that provides it", async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/catalog/default/api/qwen2-5-7b-instruct-openai-api');
  // The definition on the overview (Swagger UI renders the operations, not the raw JSON).
  await expect(page.getByText('/v1/chat/completions').first()).toBeVisible();
  await expect(
    page.getByRole('heading', { name: /OpenAI-compatible/ }),
  ).toBeVisible();
  // The Providers card links the model that provides the API.
  const providers = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: 'Providers' }) });
  await expect(
    providers.getByRole('link', { name: 'qwen2-5-7b-instruct' }),
  ).toHaveAttribute('href', '/catalog/default/component/qwen2-5-7b-instruct');
  await shot(page, 'api-definition');
});

test("a model's page has one tab for its APIs, and its Overview leads to the API's definition", async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/catalog/default/component/qwen2-5-7b-instruct');
  // Backstage's api-docs tab lists the API; no second tab of ours beside it.
  const tabs = page.getByRole('navigation', { name: 'Content navigation' });
  await expect(tabs.getByRole('link', { name: 'Serving' })).toBeVisible();
  await expect(
    tabs.getByRole('link', { name: 'APIs', exact: true }),
  ).toBeVisible();
  await expect(
    tabs.getByRole('link', { name: 'API', exact: true }),
  ).toHaveCount(0);
  // The Overview's Provides APIs card.
  await page.getByRole('link', { name: 'Show the definition' }).click();
  await expect(page).toHaveURL(
    /\/catalog\/default\/api\/qwen2-5-7b-instruct-openai-api\/definition$/,
  );
  await expect(page.getByText('/v1/chat/completions').first()).toBeVisible();
});
