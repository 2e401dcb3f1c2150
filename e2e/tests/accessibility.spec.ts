import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';

/**
 * Issue 26: every page of ours passes axe-core (WCAG 2.1 A/AA rules) without a serious or critical
 * violation, and the keyboard reaches content quickly: a skip link first, and the first model of
 * the Models table without tabbing through a dozen header controls.
 */
const PAGES: Array<{ url: string; ready: (p: Page) => Promise<void> }> = [
  {
    url: '/models',
    ready: p => expect(p.getByText(/^Models \(\d+\)$/)).toBeVisible(),
  },
  {
    url: '/model-deployments',
    ready: p => expect(p.getByRole('table').first()).toBeVisible(),
  },
  {
    url: '/catalog/default/component/qwen2-5-7b-instruct',
    ready: p => expect(p.getByTestId('model-summary')).toBeVisible(),
  },
  {
    url: '/catalog/default/component/qwen2-5-7b-instruct/serving',
    ready: p => expect(p.getByText('Resolved configuration')).toBeVisible(),
  },
  {
    url: '/catalog/default/resource/openvino-runtime/runtime',
    ready: p =>
      expect(p.getByRole('table', { name: 'Image' })).toContainText(
        'openvino/model_server:',
      ),
  },
  {
    url: '/create/templates/default/deploy-model',
    ready: p =>
      expect(p.getByRole('textbox', { name: /Model/ }).first()).toBeVisible(),
  },
];

async function signIn(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText('Platform Catalog')).toBeVisible();
}

test('no serious or critical axe-core violation on our pages', async ({
  page,
}) => {
  await signIn(page);
  const found: string[] = [];
  for (const { url, ready } of PAGES) {
    await page.goto(url);
    await ready(page);
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      // Not ours: the header tabs of Backstage's scaffolder page (react-aria ids), around our
      // Deploy form. Code is checked too: ours is highlighted in the a11y themes (CodeBlock).
      .exclude('[id^="react-aria"][id$="-tab-templates"]')
      .analyze();
    for (const v of violations.filter(
      x => x.impact === 'serious' || x.impact === 'critical',
    ))
      found.push(
        `${url}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes
          .slice(0, 3)
          .map(n => n.target.join(' '))
          .join(', ')}`,
      );
  }
  expect(found).toEqual([]);
});

test('the keyboard: a skip link first, and the first model within a few tab stops of the table', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/models');
  await expect(page.getByText(/^Models \(\d+\)$/)).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.locator(':focus');
  await expect(skip).toHaveText(/skip to content/i);
  await page.keyboard.press('Enter');

  // From the content, tab until the first model's link: count the stops on the way.
  const firstModel = page
    .getByRole('table')
    .getByRole('row')
    .nth(1)
    .getByRole('link')
    .first();
  const name = await firstModel.textContent();
  let stops = 0;
  const visited: string[] = [];
  for (; stops < 40; stops++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      return {
        text: e?.textContent ?? '',
        inTable: !!e?.closest('tbody'),
        what: `${e?.tagName.toLowerCase()} ${
          e?.getAttribute('aria-label') ?? e?.id ?? ''
        } ${(e?.textContent ?? '').slice(0, 30)}`,
      };
    });
    visited.push(focused.what);
    if (focused.inTable && focused.text === name) break;
  }
  // The filters (search box, a few selects) come before the table; header cells are not stops.
  expect(
    stops,
    `tab stops from the content to ${name}:\n${visited.join('\n')}`,
  ).toBeLessThan(12);
});
