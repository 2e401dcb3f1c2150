import { expect, test } from '../fixtures';
import { deployAsGuest, kube } from '../steps';

/**
 * Issue 27: the Deployments page follows the clusters. A status change made on the cluster (here
 * the API test double, playing KServe's controller) reaches the open page through the backend's
 * watch cache and GET /fleet/events, without a reload and without the page polling.
 */
const MODEL = 'qwen2-5-vl-7b-instruct';

test('a status change on the cluster shows on the open Deployments page without reloading', async ({
  page,
  request,
}) => {
  await deployAsGuest(request, MODEL);

  await page.goto('/model-deployments?namespace=models');
  await page.getByRole('button', { name: 'Enter' }).click();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: MODEL, exact: true }) });
  // The test double runs no controller: KServe has not reported Ready.
  await expect(row.getByTestId('state-NotReady')).toBeVisible();

  let navigations = 0;
  page.on('framenavigated', frame => {
    if (frame === page.mainFrame()) navigations++;
  });
  const fleetReads: string[] = [];
  page.on('request', r => {
    if (/\/api\/model-manager\/fleet(\?|$)/.test(r.url()))
      fleetReads.push(r.url());
  });

  // KServe's controller reports the model Ready (the status subresource, as it writes it).
  await kube(
    'PATCH',
    `/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/${MODEL}/status`,
    {
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-12-02T05:00:00Z',
          },
          {
            type: 'WorkloadsReady',
            status: 'True',
            lastTransitionTime: '2026-12-02T05:00:00Z',
          },
        ],
        url: `http://${MODEL}.models.example.com`,
      },
    },
  );

  await expect(row.getByTestId('state-Ready')).toBeVisible();
  expect(navigations).toBe(0);
  // Read again once for the pushed change (not polled).
  expect(fleetReads.length).toBeGreaterThanOrEqual(1);
  expect(fleetReads.length).toBeLessThanOrEqual(2);
});
