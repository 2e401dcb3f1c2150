import { expect, test } from '../fixtures';

/**
 * Issue 26: a full reload shows a progress bar, not a blank body, until the app has loaded (the
 * page's HTML carries it; React replaces it). The app's scripts are held back until the bar has
 * been seen, then let through: the page then renders and the bar is gone.
 */
test('a full reload shows a progress indicator until the app has loaded', async ({
  page,
}) => {
  let release!: () => void;
  const held = new Promise<void>(resolve => {
    release = resolve;
  });
  await page.route(/\/static\/[^/]+\.js$/, async route => {
    await held;
    await route.continue();
  });
  await page.goto('/models', { waitUntil: 'commit' });
  const bar = page.getByRole('progressbar', { name: 'Loading the portal' });
  await expect(bar).toBeVisible();
  await expect(page.getByText('Loading Model Manager…')).toBeVisible();
  release();
  await page.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByText(/^Models \(\d+\)$/)).toBeVisible();
  await expect(bar).toHaveCount(0);
});
