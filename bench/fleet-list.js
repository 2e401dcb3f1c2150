#!/usr/bin/env node
/*
 * Benchmark: what a cold GET /fleet waits for on the API server. N LLMInferenceServices (the
 * rendered object of qwen2-5-7b-instruct under N names) are applied to a real kube-apiserver
 * v1.34.9 (KUBEBUILDER_ASSETS, see scripts/envtest-assets.sh) and to the API test double, then
 * listed with the fleet's label selector across all namespaces, in pages of 500 (as the backend
 * lists) and in one answer; five rounds each, wall time per full list and its size.
 *
 *   node bench/fleet-list.js
 */
require('@backstage/cli/config/nodeTransform.cjs');
const {
  KubeEnvtest,
  KubeApiTestServer,
  ADMIN_TOKEN,
  sendTestRequest: request,
} = require('@model-manager/kube-api-test-server');
const { loadCatalog } = require('@model-manager/plugin-model-manager-node');
const {
  resolveServer,
  renderManifests,
} = require('@model-manager/plugin-model-manager-common');
const path = require('node:path');

(async () => {
  const catalog = await loadCatalog({
    modelsFile: path.join(__dirname, '..', 'models.yaml'),
  });
  const objs = renderManifests(
    catalog,
    resolveServer(catalog, 'qwen2-5-7b-instruct'),
    { namespace: 'models' },
  );
  const llm = objs.find(
    o => o.manifest.kind === 'LLMInferenceService',
  ).manifest;
  const real = await KubeEnvtest.start({ namespaces: ['models'] });
  const double = await KubeApiTestServer.start({ namespaces: ['models'] });
  const targets = [
    [
      'real',
      req => request(real.url, { token: ADMIN_TOKEN, ca: real.caPem, ...req }),
    ],
    ['double', req => request(double.url, { token: ADMIN_TOKEN, ...req })],
  ];
  const N = 1000;
  const base = `/apis/${llm.apiVersion}/namespaces/models/llminferenceservices`;
  for (const [name, send] of targets) {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < N) {
          const i = next++;
          const o = JSON.parse(JSON.stringify(llm));
          o.metadata.name = `model-${i}`;
          const r = await send({
            method: 'PATCH',
            path: `${base}/model-${i}?fieldManager=model-manager`,
            body: o,
            contentType: 'application/apply-patch+yaml',
          });
          if (r.status >= 300) throw new Error(r.text.slice(0, 300));
        }
      }),
    );
    const all = `/apis/${llm.apiVersion}/llminferenceservices?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dmodel-manager`;
    for (const limit of [500, 0]) {
      const times = [];
      let bytes = 0;
      for (let round = 0; round < 5; round++) {
        const t0 = Date.now();
        let token = '';
        bytes = 0;
        do {
          const r = await send({
            path: `${all}${limit ? `&limit=${limit}` : ''}${
              token ? `&continue=${encodeURIComponent(token)}` : ''
            }`,
          });
          bytes += r.text.length;
          token = r.json.metadata.continue ?? '';
        } while (token);
        times.push(Date.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${name} LIST ${N} limit=${limit}: median ${times[2]} ms (${times.join(
          ', ',
        )}), ${(bytes / 1e6).toFixed(2)} MB`,
      );
    }
  }
  await double.stop();
  await real.stop();
})().catch(e => {
  console.error(e);
  process.exit(1);
});
