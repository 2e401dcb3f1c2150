import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { kube, shot } from '../steps';

/**
 * No page of ours scrolls sideways at 1440 or 1280 px (issue 26): the page's scrollWidth is at
 * most the window's width on the Models and Deployments pages, a model's Overview and Serving
 * tab, the Deploy model form and a runtime's tab (the flat OpenVINO runtime, which shows its
 * image). A screenshot of each page at each width lands in test-results/layout/.
 */
const PAGES: Array<{
  name: string;
  url: string;
  ready: (p: Page) => Promise<void>;
}> = [
  {
    name: 'models',
    url: '/models',
    ready: p => expect(p.getByText(/^Models \(\d+\)$/)).toBeVisible(),
  },
  {
    name: 'deployments',
    url: '/model-deployments',
    ready: p => expect(p.getByRole('table').first()).toContainText('NotReady'),
  },
  {
    name: 'serving',
    url: '/catalog/default/component/qwen2-5-7b-instruct/serving',
    ready: async p => {
      await expect(p.getByText('Resolved configuration')).toBeVisible();
      await expect(
        p
          .getByTestId('why-not-ready-local-models')
          .getByTestId('diagnosis-headline'),
      ).toBeVisible();
    },
  },
  {
    name: 'overview',
    url: '/catalog/default/component/qwen2-5-7b-instruct',
    ready: p => expect(p.getByTestId('model-summary')).toBeVisible(),
  },
  {
    name: 'deploy-form',
    url: '/create/templates/default/deploy-model',
    ready: p =>
      expect(p.getByRole('textbox', { name: /Model/ }).first()).toBeVisible(),
  },
  {
    name: 'runtime-openvino',
    url: '/catalog/default/resource/openvino-runtime/runtime',
    ready: async p => {
      const image = p.getByRole('table', { name: 'Image' });
      await expect(image).toContainText('openvino/model_server:');
    },
  },
];

test.describe.configure({ mode: 'serial' });

const VLLM_MODEL = 'qwen2-5-7b-instruct';
// Its own pod (the diagnosis spec plays another one of the same model).
const POD = `${VLLM_MODEL}-kserve-layout-abcde`;

/**
 * The pages at their widest: a vLLM and an OpenVINO model deployed (the Deployments table's image
 * and revision columns filled), the vLLM one failing to pull its image with the kubelet's event
 * (the Serving tab's diagnosis panel shown), as the diagnosis spec plays them.
 */
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({
    baseURL: 'http://localhost:7007',
  });
  const token = (await (await request.get('/api/auth/guest/refresh')).json())
    .backstageIdentity.token as string;
  for (const model of [VLLM_MODEL, 'phi-3-5-mini-instruct-int4-ov']) {
    const deployed = await request.post(
      `/api/model-manager/models/${model}/deploy`,
      {
        headers: { Authorization: `Bearer ${token}` },
        data: { cluster: 'local', namespace: 'models' },
      },
    );
    expect(deployed.status(), await deployed.text()).toBe(200);
  }
  await request.dispose();
  const image = 'vllm/vllm-openai:v9.9.9';
  await kube('POST', '/api/v1/namespaces/models/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      labels: {
        'app.kubernetes.io/part-of': 'llminferenceservice',
        'app.kubernetes.io/name': VLLM_MODEL,
        'app.kubernetes.io/component': 'llminferenceservice-workload',
        'kserve.io/component': 'workload',
      },
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'main', image }] },
  });
  // The kubelet writes the status (a create's status is not kept).
  await kube('PATCH', `/api/v1/namespaces/models/pods/${POD}/status`, {
    status: {
      phase: 'Pending',
      containerStatuses: [
        {
          name: 'main',
          ready: false,
          restartCount: 0,
          image,
          state: {
            waiting: {
              reason: 'ImagePullBackOff',
              message: `Back-off pulling image "${image}"`,
            },
          },
        },
      ],
    },
  });
  await kube('POST', '/api/v1/namespaces/models/events', {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${POD}.pull` },
    involvedObject: { kind: 'Pod', name: POD, namespace: 'models' },
    reason: 'Failed',
    message: `Failed to pull image "${image}": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/${image}": failed to resolve reference "docker.io/${image}": docker.io/${image}: not found`,
    type: 'Warning',
    count: 3,
    lastTimestamp: '2026-12-01T10:00:00Z',
    source: { component: 'kubelet' },
  });
});

for (const width of [1440, 1280]) {
  test(`no page of ours scrolls sideways at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page.getByText('Platform Catalog')).toBeVisible();
    for (const { name, url, ready } of PAGES) {
      await page.goto(url);
      await ready(page);
      // Nothing still loading changes the width afterwards.
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await shot(page, `${name}-${width}`, 'layout');
      const { scrollWidth, innerWidth, sticking } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        // The innermost elements past the right edge: what to narrow.
        sticking: [...document.querySelectorAll('body *')]
          .filter(
            e =>
              e.getBoundingClientRect().right > window.innerWidth + 1 &&
              ![...e.children].some(
                c => c.getBoundingClientRect().right > window.innerWidth + 1,
              ),
          )
          .slice(0, 8)
          .map(
            e =>
              `<${e.tagName.toLowerCase()} class="${e.className}"> ${Math.round(
                e.getBoundingClientRect().right,
              )} px: ${(e.textContent ?? '').slice(0, 60)}`,
          ),
      }));
      expect(
        scrollWidth,
        `${url} at ${width} px is ${scrollWidth} px wide; past the edge:\n${sticking.join(
          '\n',
        )}`,
      ).toBeLessThanOrEqual(innerWidth);
      // Nor does a table scroll sideways inside its own box (material-table wraps each table in
      // one with overflow-x: auto): its last columns would be off-screen just the same.
      const scrolled = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter(e => {
            const overflow = getComputedStyle(e).overflowX;
            return (
              (overflow === 'auto' || overflow === 'scroll') &&
              e.querySelector('table') !== null &&
              e.scrollWidth > e.clientWidth + 1
            );
          })
          .map(
            e =>
              `${
                e.querySelector('table')?.getAttribute('aria-label') ??
                e.tagName
              }: ${e.scrollWidth} > ${e.clientWidth}`,
          ),
      );
      expect(scrolled, `tables that scroll sideways on ${url}`).toEqual([]);
    }
  });
}
