import type { Page } from '@playwright/test';

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
