/**
 * Replays every request recorded against a real kube-apiserver (v1.34 with
 * the KServe CRDs) and compares the answers: status code, content type,
 * Status reason/message/causes, and whole bodies modulo uids, timestamps and
 * resourceVersion values.
 */
import path from 'node:path';
import { ADMIN_TOKEN, KSERVE_DEV_TOKEN, KubeApiTestServer } from './index';
import { defaultCrdDir } from './registry/crdLoader';
import { TestResponse, request } from './testing/httpClient';
import {
  normalizeVolatile,
  readRequestBody,
  readResponse,
} from './testing/reference';

/** The folders of test-assets/crds installed on the recorded cluster. */
const RECORDED_CRD_SETS = [
  'kserve',
  'gateway-api',
  'gateway-api-inference-extension',
];

const ISVC =
  '/apis/serving.kserve.io/v1beta1/namespaces/demo/inferenceservices';
const APPLY = 'application/apply-patch+yaml';

interface Step {
  file: string;
  method?: string;
  path: string;
  body?: string;
  token?: string;
  headers?: Record<string, string>;
  /**
   * How the body is compared: whole (default); `subset` of the recorded list
   * entries (the recorded cluster had more groups/CRDs); `unordered` list
   * entries (CRD order in discovery is registration order on a real server).
   */
  compare?: 'whole' | 'subset' | 'unordered';
  /** The server clock for this step (the recorded session spans two seconds). */
  at?: string;
}

const apply = (
  file: string,
  urlPath: string,
  body: string,
  extra: Partial<Step> = {},
): Step => ({
  file,
  method: 'PATCH',
  path: urlPath,
  body: readRequestBody(body),
  ...extra,
});

const STEPS: Step[] = [
  { file: '00a-discovery-api.txt', path: '/api' },
  { file: '00b-discovery-apis.txt', path: '/apis', compare: 'subset' },
  { file: '00c-discovery-batch-v1.txt', path: '/apis/batch/v1' },
  { file: '01-discovery-group.txt', path: '/apis/serving.kserve.io' },
  { file: '02-discovery-v1beta1.txt', path: '/apis/serving.kserve.io/v1beta1' },
  {
    file: '03-discovery-v1alpha1.txt',
    path: '/apis/serving.kserve.io/v1alpha1',
    compare: 'subset',
  },
  {
    file: '04-discovery-v1alpha2.txt',
    path: '/apis/serving.kserve.io/v1alpha2',
    compare: 'unordered',
  },
  { file: '05-get-not-found.txt', path: `${ISVC}/bge-m3` },
  apply(
    '06-ssa-dry-run-create.txt',
    `${ISVC}/bge-m3?fieldManager=model-manager&dryRun=All`,
    'isvc.yaml',
  ),
  apply(
    '07-ssa-create.txt',
    `${ISVC}/bge-m3?fieldManager=model-manager`,
    'isvc.yaml',
  ),
  apply(
    '08-ssa-reapply-same.txt',
    `${ISVC}/bge-m3?fieldManager=model-manager`,
    'isvc.yaml',
  ),
  apply(
    '09-ssa-conflict.txt',
    `${ISVC}/bge-m3?fieldManager=someone-else`,
    'isvc2.yaml',
    { at: '2026-11-30T14:03:30Z' },
  ),
  apply(
    '10-ssa-force.txt',
    `${ISVC}/bge-m3?fieldManager=someone-else&force=true`,
    'isvc2.yaml',
  ),
  apply('11-ssa-no-fieldmanager.txt', `${ISVC}/bge-m3`, 'isvc.yaml'),
  apply(
    '12-ssa-unknown-field.txt',
    `${ISVC}/bge-m3?fieldManager=model-manager`,
    'bad-unknown.yaml',
  ),
  apply(
    '13-ssa-wrong-type.txt',
    `${ISVC}/bge-m3?fieldManager=model-manager`,
    'bad-type.yaml',
  ),
  apply(
    '14-ssa-name-mismatch.txt',
    `${ISVC}/other-name?fieldManager=model-manager`,
    'bad-name.yaml',
  ),
  apply(
    '15-ssa-invalid-name.txt',
    `${ISVC}/BGE_m3?fieldManager=model-manager`,
    'bad-name.yaml',
  ),
  {
    file: '16-forbidden.txt',
    path: '/api/v1/namespaces/demo/secrets',
    token: KSERVE_DEV_TOKEN,
  },
  apply(
    '17-forbidden-ns.txt',
    '/apis/serving.kserve.io/v1beta1/namespaces/default/inferenceservices/bge-m3?fieldManager=model-manager',
    'isvc.yaml',
    { token: KSERVE_DEV_TOKEN },
  ),
  { file: '18-unauthenticated.txt', path: `${ISVC}/bge-m3`, token: '' },
  {
    file: '19-list-by-label.txt',
    path: `${ISVC}?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dmodel-manager`,
  },
  apply(
    '20-status-subresource.txt',
    `${ISVC}/bge-m3/status?fieldManager=kserve-controller&force=true`,
    'status.yaml',
  ),
  { file: '21-get-after-status.txt', path: `${ISVC}/bge-m3` },
  apply(
    '22-ssa-namespace-missing.txt',
    '/apis/serving.kserve.io/v1beta1/namespaces/nope/inferenceservices/bge-m3?fieldManager=model-manager',
    'ns-nope.yaml',
  ),
  apply(
    '22b-ssa-namespace-mismatch.txt',
    '/apis/serving.kserve.io/v1beta1/namespaces/nope/inferenceservices/bge-m3?fieldManager=model-manager',
    'isvc.yaml',
  ),
  { file: '23-delete.txt', method: 'DELETE', path: `${ISVC}/bge-m3` },
  { file: '24-get-after-delete.txt', path: `${ISVC}/bge-m3` },
  apply(
    '25-llmisvc-cel-violation.txt',
    '/apis/serving.kserve.io/v1alpha1/namespaces/demo/llminferenceservices/qwen?fieldManager=model-manager',
    'llm-cel.yaml',
  ),
  apply(
    '26-impersonation-forbidden.txt',
    '/apis/serving.kserve.io/v1beta1/namespaces/default/inferenceservices/bge-m3?fieldManager=model-manager',
    'isvc.yaml',
    { headers: { 'Impersonate-User': 'kserve-dev' } },
  ),
];

const byName = (a: any, b: any) => (a.name < b.name ? -1 : 1);

/** The parts of our answer and of the recorded one that must be equal. */
function comparable(
  step: Step,
  actual: any,
  recorded: any,
  url: string,
): [unknown, unknown] {
  if (step.file.startsWith('00a')) {
    const expectedAddress = [
      { clientCIDR: '0.0.0.0/0', serverAddress: url.replace('http://', '') },
    ];
    return [
      actual,
      { ...recorded, serverAddressByClientCIDRs: expectedAddress },
    ];
  }
  const listKey = step.file.startsWith('00b') ? 'groups' : 'resources';
  if (step.compare === 'unordered') {
    return [
      { ...actual, [listKey]: [...actual[listKey]].sort(byName) },
      { ...recorded, [listKey]: [...recorded[listKey]].sort(byName) },
    ];
  }
  if (step.compare === 'subset') {
    // Every entry we serve must be exactly as recorded; the recorded cluster had more.
    const ours = new Set(actual[listKey].map((e: any) => e.name));
    const theirs = recorded[listKey].filter((e: any) => ours.has(e.name));
    return [
      { ...actual, [listKey]: [...actual[listKey]].sort(byName) },
      { ...recorded, [listKey]: theirs.sort(byName) },
    ];
  }
  return [normalizeVolatile(actual), normalizeVolatile(recorded)];
}

describe('replay of the recorded kube-apiserver session', () => {
  let server: KubeApiTestServer;
  const responses = new Map<string, TestResponse>();

  beforeAll(async () => {
    let now = new Date('2026-11-30T14:03:29Z');
    server = await KubeApiTestServer.start({
      // The CRD sets the recorded cluster had (its /apis lists no other group of test-assets/crds).
      crdDir: RECORDED_CRD_SETS.map(set => path.join(defaultCrdDir(), set)),
      namespaces: ['default', 'demo'],
      anonymous: 'forbidden',
      clock: () => now,
    });
    for (const step of STEPS) {
      if (step.at) now = new Date(step.at);
      const res = await request(server.url, {
        method: step.method ?? 'GET',
        path: step.path,
        token: step.token ?? ADMIN_TOKEN,
        headers: step.headers,
        body: step.body,
        contentType: step.body ? APPLY : undefined,
      });
      responses.set(step.file, res);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it.each(STEPS.map(s => [s.file, s] as const))('%s', (file, step) => {
    const recorded = readResponse(file);
    const actual = responses.get(file)!;
    const headers = (h: Record<string, unknown>) => ({
      'content-type': h['content-type'],
      'x-content-type-options': h['x-content-type-options'],
    });
    expect({ status: actual.status, headers: headers(actual.headers) }).toEqual(
      {
        status: recorded.status,
        headers: headers(recorded.headers),
      },
    );
    const [mine, theirs] = comparable(
      step,
      actual.json,
      recorded.body,
      server.url,
    );
    expect(mine).toEqual(theirs);
  });

  it('keeps resourceVersion and generation like the recorded server', () => {
    const rv = (file: string) =>
      responses.get(file)!.json.metadata.resourceVersion;
    expect(
      responses.get('06-ssa-dry-run-create.txt')!.json.metadata.resourceVersion,
    ).toBeUndefined();
    expect(rv('08-ssa-reapply-same.txt')).toBe(rv('07-ssa-create.txt'));
    expect(Number(rv('10-ssa-force.txt'))).toBeGreaterThan(
      Number(rv('08-ssa-reapply-same.txt')),
    );
    expect(Number(rv('20-status-subresource.txt'))).toBeGreaterThan(
      Number(rv('10-ssa-force.txt')),
    );
    expect(rv('21-get-after-status.txt')).toBe(rv('20-status-subresource.txt'));
    const list = responses.get('19-list-by-label.txt')!.json;
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(rv('10-ssa-force.txt')),
    );
  });

  it('records a dry run without storing it', () => {
    const create = responses.get('06-ssa-dry-run-create.txt')!.json;
    expect(create.metadata.uid).toBeDefined();
    expect(responses.get('07-ssa-create.txt')!.json.metadata.uid).not.toBe(
      create.metadata.uid,
    );
  });
});
