/** Each check, per state, from what was read (pure: no cluster). */
import type {
  ControllerGateway,
  RenderedObject,
  ResolvedServer,
} from '@model-manager/plugin-model-manager-common';
import {
  claimPath,
  configMapPath,
  discoveryPath,
  gatewayClassPath,
  gatewayPath,
  groupPath,
  limitRangesPath,
  namespacePath,
  NODES_PATH,
  objectPath,
  quotasPath,
  secretPath,
  STORAGE_CLASSES_PATH,
} from './paths';
import { pathsToRead } from './renderedNeeds';
import { runChecks } from './runChecks';
import type { Read, TargetFacts } from './types';
import * as yamlLibrary from 'yaml';

// The YAML parser as it is, counted (a config key is to be parsed once per preflight).
jest.mock('yaml', () => {
  const actual = jest.requireActual('yaml');
  return { ...actual, parse: jest.fn(actual.parse) };
});

const server = {
  model: 'm',
  runtime: 'openvino',
  resources: {
    cpu: { value: '2', origin: {}, overrode: [] },
    memory: { value: '8Gi', origin: {}, overrode: [] },
  },
} as unknown as ResolvedServer;

const isvc: RenderedObject = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  name: 'm',
  namespace: 'ns',
  applyPolicy: 'apply',
  source: 't',
  manifest: {
    spec: {
      predictor: {
        imagePullSecrets: [{ name: 'regcred' }],
        model: {
          env: [
            {
              name: 'HF_TOKEN',
              valueFrom: { secretKeyRef: { name: 'hf', key: 'token' } },
            },
          ],
        },
      },
    },
  },
};
const claim: RenderedObject = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  name: 'weights',
  namespace: 'ns',
  applyPolicy: 'create-if-absent',
  source: 't',
  manifest: { spec: { resources: { requests: { storage: '1Gi' } } } },
};
const route: RenderedObject = {
  apiVersion: 'aigateway.envoyproxy.io/v1beta1',
  kind: 'AIGatewayRoute',
  name: 'm',
  namespace: 'ns',
  applyPolicy: 'apply',
  source: 't',
  manifest: {
    spec: {
      parentRefs: [
        {
          name: 'gw',
          namespace: 'gw-ns',
          kind: 'Gateway',
          group: 'gateway.networking.k8s.io',
        },
      ],
    },
  },
};

const ok = (body: Record<string, any> | null): Read => ({ ok: true, body });
const forbidden: Read = { ok: false, status: 403, message: 'forbidden' };
const list = (items: unknown[]) => ok({ items });
const node = (name: string, cpu: string, memory: string, extra: any = {}) => ({
  metadata: { name },
  spec: extra.spec ?? {},
  status: {
    allocatable: { cpu, memory },
    conditions: [{ type: 'Ready', status: extra.ready ?? 'True' }],
  },
});

/** A cluster where every check passes; each row changes one read. */
function healthy(): Map<string, Read> {
  return new Map<string, Read>([
    [
      discoveryPath('serving.kserve.io/v1beta1'),
      ok({ resources: [{ kind: 'InferenceService' }] }),
    ],
    [
      discoveryPath('v1'),
      ok({ resources: [{ kind: 'PersistentVolumeClaim' }] }),
    ],
    [
      discoveryPath('aigateway.envoyproxy.io/v1beta1'),
      ok({ resources: [{ kind: 'AIGatewayRoute' }] }),
    ],
    [namespacePath('ns'), ok({ metadata: { name: 'ns' } })],
    [secretPath('ns', 'hf'), ok({ metadata: { name: 'hf' } })],
    [secretPath('ns', 'regcred'), ok({ metadata: { name: 'regcred' } })],
    [quotasPath('ns'), list([])],
    [limitRangesPath('ns'), list([])],
    [NODES_PATH, list([node('big', '8', '32Gi')])],
    [claimPath('ns', 'weights'), ok(null)],
    [
      STORAGE_CLASSES_PATH,
      list([
        {
          metadata: {
            name: 'standard',
            annotations: {
              'storageclass.kubernetes.io/is-default-class': 'true',
            },
          },
        },
      ]),
    ],
    [gatewayPath('gw-ns', 'gw'), ok({ metadata: { name: 'gw' } })],
  ]);
}

const facts = (reads: Map<string, Read>, objects = [claim, isvc, route]) =>
  ({
    cluster: 'prod',
    namespace: 'ns',
    server,
    objects,
    reads,
  } satisfies TargetFacts);

type Row = {
  rule: string;
  id: string;
  status: string;
  change: (reads: Map<string, Read>) => void;
  message?: RegExp;
  fix?: RegExp;
};

const quota = (hard: Record<string, string>, used?: Record<string, string>) =>
  list([
    {
      metadata: { name: 'q' },
      spec: { hard },
      ...(used ? { status: { hard, used } } : {}),
    },
  ]);

/** A Gateway whose one listener admits routes from the namespaces labelled gateway=shared. */
const selectingGateway = ok({
  metadata: { name: 'gw', namespace: 'gw-ns' },
  spec: {
    listeners: [
      {
        name: 'http',
        protocol: 'HTTP',
        port: 80,
        allowedRoutes: {
          namespaces: {
            from: 'Selector',
            selector: { matchLabels: { gateway: 'shared' } },
          },
        },
      },
    ],
  },
});

const rows: Row[] = [
  // 1. API versions
  {
    rule: 'kinds served: pass',
    id: 'api-versions',
    status: 'pass',
    change: () => {},
  },
  {
    rule: 'group not served: fail',
    id: 'api-versions',
    status: 'fail',
    change: r => r.set(discoveryPath('serving.kserve.io/v1beta1'), ok(null)),
    message: /InferenceService at serving.kserve.io\/v1beta1 is not served/,
  },
  {
    rule: 'group served at other versions only: fail naming them',
    id: 'api-versions',
    status: 'fail',
    change: r => {
      r.set(discoveryPath('serving.kserve.io/v1beta1'), ok(null));
      r.set(
        groupPath('serving.kserve.io'),
        ok({ versions: [{ version: 'v1alpha1' }] }),
      );
    },
    message: /serves serving.kserve.io v1alpha1 only/,
  },
  {
    rule: 'version served without the kind: fail',
    id: 'api-versions',
    status: 'fail',
    change: r =>
      r.set(discoveryPath('serving.kserve.io/v1beta1'), ok({ resources: [] })),
  },
  {
    rule: 'discovery unreadable: unknown',
    id: 'api-versions',
    status: 'unknown',
    change: r =>
      r.set(discoveryPath('serving.kserve.io/v1beta1'), {
        ok: false,
        message: 'connect ECONNREFUSED',
      }),
  },
  // 2. namespace
  {
    rule: 'namespace exists: pass',
    id: 'namespace',
    status: 'pass',
    change: () => {},
  },
  {
    rule: 'namespace missing: fail',
    id: 'namespace',
    status: 'fail',
    change: r => r.set(namespacePath('ns'), ok(null)),
    message: /namespace ns does not exist on cluster prod/,
  },
  {
    rule: 'namespace terminating: fail',
    id: 'namespace',
    status: 'fail',
    change: r =>
      r.set(namespacePath('ns'), ok({ status: { phase: 'Terminating' } })),
  },
  {
    rule: 'namespace forbidden: unknown',
    id: 'namespace',
    status: 'unknown',
    change: r => r.set(namespacePath('ns'), forbidden),
    message:
      /cannot get namespaces on cluster prod: RBAC \(needs get on namespaces\)/,
  },
  // 3. secrets
  {
    rule: 'secrets exist: pass',
    id: 'secrets',
    status: 'pass',
    change: () => {},
  },
  {
    rule: 'a secret missing: fail naming it',
    id: 'secrets',
    status: 'fail',
    change: r => r.set(secretPath('ns', 'hf'), ok(null)),
    message: /Secret hf does not exist in namespace ns/,
    // The key the pod reads (secretKeyRef.key), and no <placeholder> a Markdown view would eat.
    fix: /^create it there: kubectl -n ns create secret generic hf --from-literal=token=\.\.\.$/,
  },
  {
    rule: 'two secrets missing: a command for each (a pull secret as docker-registry)',
    id: 'secrets',
    status: 'fail',
    change: r => {
      r.set(secretPath('ns', 'hf'), ok(null));
      r.set(secretPath('ns', 'regcred'), ok(null));
    },
    message: /Secret hf, regcred does not exist/,
    fix: /^create them there: kubectl -n ns create secret generic hf --from-literal=token=\.\.\.; kubectl -n ns create secret docker-registry regcred --docker-server=\.\.\. --docker-username=\.\.\. --docker-password=\.\.\.$/,
  },
  {
    rule: 'secrets forbidden: unknown',
    id: 'secrets',
    status: 'unknown',
    change: r => r.set(secretPath('ns', 'hf'), forbidden),
    message: /RBAC \(needs get on secrets\)/,
  },
  // 4a. quota
  {
    rule: 'quota with room: pass',
    id: 'quota',
    status: 'pass',
    change: r =>
      r.set(
        quotasPath('ns'),
        quota({ 'requests.cpu': '4' }, { 'requests.cpu': '1' }),
      ),
  },
  {
    rule: 'requests.cpu over the quota: fail',
    id: 'quota',
    status: 'fail',
    change: r =>
      r.set(
        quotasPath('ns'),
        quota({ 'requests.cpu': '4' }, { 'requests.cpu': '3' }),
      ),
    message: /q: requests.cpu used 3 of 4, the pod needs 2 more/,
  },
  {
    rule: 'limits.memory over the quota: fail',
    id: 'quota',
    status: 'fail',
    change: r =>
      r.set(
        quotasPath('ns'),
        quota({ 'limits.memory': '10Gi' }, { 'limits.memory': '4Gi' }),
      ),
    message: /limits.memory used 4Gi of 10Gi, the pod needs 8Gi more/,
  },
  {
    rule: 'pods count exhausted: fail',
    id: 'quota',
    status: 'fail',
    change: r => r.set(quotasPath('ns'), quota({ pods: '2' }, { pods: '2' })),
  },
  {
    rule: 'quota without status yet: warn',
    id: 'quota',
    status: 'warn',
    change: r => r.set(quotasPath('ns'), quota({ cpu: '1' })),
  },
  {
    rule: 'quotas forbidden: unknown',
    id: 'quota',
    status: 'unknown',
    change: r => r.set(quotasPath('ns'), forbidden),
    message:
      /cannot list resourcequotas on cluster prod: RBAC \(needs list on resourcequotas\)/,
  },
  // 4b. limit range
  {
    rule: 'within the LimitRange: pass',
    id: 'limit-range',
    status: 'pass',
    change: r =>
      r.set(
        limitRangesPath('ns'),
        list([
          {
            metadata: { name: 'lr' },
            spec: { limits: [{ type: 'Container', max: { cpu: '4' } }] },
          },
        ]),
      ),
  },
  {
    rule: 'container max memory below the pod: fail',
    id: 'limit-range',
    status: 'fail',
    change: r =>
      r.set(
        limitRangesPath('ns'),
        list([
          {
            metadata: { name: 'lr' },
            spec: { limits: [{ type: 'Container', max: { memory: '4Gi' } }] },
          },
        ]),
      ),
    message: /lr: Container max memory is 4Gi, the pod sets 8Gi/,
  },
  {
    rule: 'pod min cpu above the pod: fail',
    id: 'limit-range',
    status: 'fail',
    change: r =>
      r.set(
        limitRangesPath('ns'),
        list([
          {
            metadata: { name: 'lr' },
            spec: { limits: [{ type: 'Pod', min: { cpu: '3' } }] },
          },
        ]),
      ),
  },
  {
    rule: 'limit ranges forbidden: unknown',
    id: 'limit-range',
    status: 'unknown',
    change: r => r.set(limitRangesPath('ns'), forbidden),
  },
  // 5. nodes
  { rule: 'a node fits: pass', id: 'nodes', status: 'pass', change: () => {} },
  {
    rule: 'no schedulable node fits: fail naming the largest',
    id: 'nodes',
    status: 'fail',
    change: r =>
      r.set(
        NODES_PATH,
        list([
          node('small', '1', '4Gi'),
          node('mid', '4', '6Gi'),
          node('cordoned', '16', '64Gi', { spec: { unschedulable: true } }),
        ]),
      ),
    message:
      /the largest, mid, has cpu 4 and memory 6Gi allocatable \(1 cordoned not schedulable\)/,
  },
  {
    rule: 'the only fitting node is not Ready or tainted: fail',
    id: 'nodes',
    status: 'fail',
    change: r =>
      r.set(
        NODES_PATH,
        list([
          node('a', '16', '64Gi', { ready: 'False' }),
          node('b', '16', '64Gi', {
            spec: { taints: [{ key: 'gpu', effect: 'NoSchedule' }] },
          }),
        ]),
      ),
    message:
      /no node of cluster prod can take the pod: 2 node\(s\), 1 not Ready, 1 tainted/,
  },
  {
    rule: 'no nodes listed (autoscaler from zero): warn',
    id: 'nodes',
    status: 'warn',
    change: r => r.set(NODES_PATH, list([])),
  },
  {
    rule: 'nodes forbidden: unknown with the RBAC reason',
    id: 'nodes',
    status: 'unknown',
    change: r => r.set(NODES_PATH, forbidden),
    message:
      /^cannot list nodes on cluster prod: RBAC \(needs list on nodes\)$/,
  },
  // 6. storage
  {
    rule: 'a default StorageClass: pass',
    id: 'storage',
    status: 'pass',
    change: () => {},
  },
  {
    rule: 'the claim exists: pass',
    id: 'storage',
    status: 'pass',
    change: r => {
      r.set(claimPath('ns', 'weights'), ok({ status: { phase: 'Bound' } }));
      r.set(STORAGE_CLASSES_PATH, list([]));
    },
    message: /exists in ns \(Bound\)/,
  },
  {
    rule: 'no claim and no default StorageClass: fail',
    id: 'storage',
    status: 'fail',
    change: r =>
      r.set(STORAGE_CLASSES_PATH, list([{ metadata: { name: 'slow' } }])),
    message: /has no default one \(StorageClasses: slow\)/,
  },
  {
    rule: 'claim forbidden: unknown',
    id: 'storage',
    status: 'unknown',
    change: r => r.set(claimPath('ns', 'weights'), forbidden),
  },
  // 7. gateway
  {
    rule: 'the Gateway exists: pass',
    id: 'gateway',
    status: 'pass',
    change: () => {},
  },
  {
    rule: 'the Gateway is missing: fail',
    id: 'gateway',
    status: 'fail',
    change: r => r.set(gatewayPath('gw-ns', 'gw'), ok(null)),
    message: /attaches to Gateway gw-ns\/gw/,
  },
  {
    rule: 'the Gateway forbidden: unknown',
    id: 'gateway',
    status: 'unknown',
    change: r => r.set(gatewayPath('gw-ns', 'gw'), forbidden),
  },
  {
    rule: "the Gateway's listeners admit routes from their own namespace only (Gateway API's default): fail, saying how to admit the route",
    id: 'gateway',
    status: 'fail',
    change: r =>
      r.set(
        gatewayPath('gw-ns', 'gw'),
        ok({
          metadata: { name: 'gw', namespace: 'gw-ns' },
          spec: { listeners: [{ name: 'http', protocol: 'HTTP', port: 80 }] },
        }),
      ),
    message:
      /^AIGatewayRoute m in namespace ns attaches to Gateway gw-ns\/gw, whose listeners do not admit routes from that namespace \(listener http admits routes from its own namespace gw-ns only \(allowedRoutes\.namespaces\.from: Same, the default\)\): the Gateway would not accept the route \(NotAllowedByListeners\), and clients could not reach the model$/,
    fix: /^let a listener of Gateway gw-ns\/gw admit routes from namespace ns \(allowedRoutes\.namespaces\.from: All, or a Selector matching it\), or deploy to namespace gw-ns, or set gateway_name\/gateway_namespace/,
  },
  {
    rule: "a listener's selector matches the namespace's labels: pass",
    id: 'gateway',
    status: 'pass',
    change: r => {
      r.set(
        namespacePath('ns'),
        ok({ metadata: { name: 'ns', labels: { gateway: 'shared' } } }),
      );
      r.set(gatewayPath('gw-ns', 'gw'), selectingGateway);
    },
  },
];

describe('preflight checks', () => {
  it.each(rows)('$rule', ({ id, status, change, message, fix }) => {
    const reads = healthy();
    change(reads);
    const checks = runChecks(facts(reads));
    const check = checks.find(c => c.id === id)!;
    expect(check.status).toBe(status);
    if (message) expect(check.message).toMatch(message);
    if (status !== 'pass') expect(check.fix).toBeTruthy();
    if (fix) expect(check.fix).toMatch(fix);
    // Nothing else moved: the other checks of the healthy cluster still pass.
    for (const other of checks.filter(c => c.id !== id))
      expect({ id: other.id, status: other.status }).toEqual({
        id: other.id,
        status: 'pass',
      });
  });

  it("a listener's selector with the namespace's labels not readable: no verdict on the Gateway, the namespace check says why", () => {
    const reads = healthy();
    reads.set(namespacePath('ns'), forbidden);
    reads.set(gatewayPath('gw-ns', 'gw'), selectingGateway);
    const checks = runChecks(facts(reads));
    expect(checks.find(c => c.id === 'gateway')!.status).toBe('pass');
    expect(checks.find(c => c.id === 'namespace')!.status).toBe('unknown');
  });

  it('a StorageClass named in plumbing must exist', () => {
    const named = {
      ...claim,
      manifest: { spec: { storageClassName: 'fast-ssd' } },
    };
    const reads = healthy();
    const [storage] = runChecks(facts(reads, [named])).filter(
      c => c.id === 'storage',
    );
    expect(storage.status).toBe('fail');
    expect(storage.message).toMatch(/names StorageClass fast-ssd/);
    reads.set(STORAGE_CLASSES_PATH, list([{ metadata: { name: 'fast-ssd' } }]));
    expect(
      runChecks(facts(reads, [named])).find(c => c.id === 'storage')!.status,
    ).toBe('pass');
  });

  it('leaves out storage and gateway for a model that renders no claim and no route', () => {
    const ids = runChecks(facts(healthy(), [isvc])).map(c => c.id);
    expect(ids).toEqual([
      'api-versions',
      'namespace',
      'secrets',
      'quota',
      'limit-range',
      'nodes',
    ]);
  });

  describe("the class of the routes' Gateway is served by the routing's controller (profile gateway_class)", () => {
    const envoyGateway = {
      controller: 'Envoy Gateway',
      controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
      configMap: {
        namespace: 'envoy-gateway-system',
        name: 'envoy-gateway-config',
        key: 'envoy-gateway.yaml',
        field: 'gateway.controllerName',
      },
      format: 'yaml' as const,
      routing: 'aigateway',
    };
    const GATEWAY = gatewayPath('gw-ns', 'gw');
    const CLASS = gatewayClassPath('eg');
    const EG_CONFIG = configMapPath(
      'envoy-gateway-system',
      'envoy-gateway-config',
    );
    const gateway = ok({
      metadata: { name: 'gw', namespace: 'gw-ns' },
      spec: {
        gatewayClassName: 'eg',
        listeners: [
          { name: 'http', allowedRoutes: { namespaces: { from: 'All' } } },
        ],
      },
    });
    const gatewayClass = (controllerName: string) =>
      ok({ metadata: { name: 'eg' }, spec: { controllerName } });
    const classCheck = (reads: Array<[string, Read]>) => {
      const all = healthy();
      all.set(GATEWAY, gateway);
      for (const [path, read] of reads) all.set(path, read);
      return runChecks({ ...facts(all), gatewayClass: envoyGateway }).find(
        c => c.id === 'gateway',
      )!;
    };

    it.each([
      {
        rule: "Envoy Gateway's class: pass, saying so",
        reads: [
          [
            CLASS,
            gatewayClass('gateway.envoyproxy.io/gatewayclass-controller'),
          ],
        ] as Array<[string, Read]>,
        status: 'pass',
        message:
          /^Gateway gw-ns\/gw \(of a class Envoy Gateway serves\) exists$/,
      },
      {
        rule: "another implementation's class: fail, naming both controllers and the fix",
        reads: [[CLASS, gatewayClass('istio.io/gateway-controller')]] as Array<
          [string, Read]
        >,
        status: 'fail',
        message:
          /^Gateway gw-ns\/gw is of GatewayClass eg, served by controller istio\.io\/gateway-controller, not by Envoy Gateway \(gateway\.envoyproxy\.io\/gatewayclass-controller\): routing aigateway's AIGatewayRoute m needs Envoy Gateway/,
        fix: /set gateway_name\/gateway_namespace in the runtime's plumbing to a Gateway of a class Envoy Gateway serves \(controllerName gateway\.envoyproxy\.io\/gatewayclass-controller\)/,
      },
      {
        rule: "Envoy Gateway's config names its own controllerName: that one is expected",
        reads: [
          [
            EG_CONFIG,
            ok({
              data: {
                'envoy-gateway.yaml':
                  'gateway:\n  controllerName: example.com/ai-gateway\n',
              },
            }),
          ],
          [
            CLASS,
            gatewayClass('gateway.envoyproxy.io/gatewayclass-controller'),
          ],
        ] as Array<[string, Read]>,
        status: 'fail',
        message:
          /not by Envoy Gateway \(example\.com\/ai-gateway, as gateway\.controllerName in envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config names it\)/,
      },
      {
        rule: 'a class the cluster does not have: fail (no controller serves the Gateway)',
        reads: [[CLASS, ok(null)]] as Array<[string, Read]>,
        status: 'fail',
        message:
          /^Gateway gw-ns\/gw is of GatewayClass eg, which cluster prod does not have: no controller serves the Gateway/,
        fix: /^create GatewayClass eg with controllerName gateway\.envoyproxy\.io\/gatewayclass-controller \(Envoy Gateway\)/,
      },
      {
        rule: 'the class may not be read: unknown, with the RBAC it needs',
        reads: [[CLASS, forbidden]] as Array<[string, Read]>,
        status: 'unknown',
        message:
          /^cannot get gatewayclasses\.gateway\.networking\.k8s\.io on cluster prod: RBAC \(needs get on gatewayclasses\.gateway\.networking\.k8s\.io\), so whether Envoy Gateway serves Gateway gw-ns\/gw \(class eg\) is not known$/,
      },
    ])('$rule', ({ reads, status, message, fix }) => {
      const check = classCheck(reads);
      expect(check.status).toBe(status);
      expect(check.message).toMatch(message);
      if (fix) expect(check.fix).toMatch(fix);
    });

    it("Envoy Gateway's config is parsed once for both checks that read it", () => {
      const all = healthy();
      all.set(GATEWAY, gateway);
      all.set(
        EG_CONFIG,
        ok({
          data: {
            'envoy-gateway.yaml': `gateway:\n  controllerName: example.com/${Math.random()}\nextensionApis: {enableBackend: true}\n`,
          },
        }),
      );
      all.set(CLASS, gatewayClass('example.com/x'));
      const parse = jest.mocked(yamlLibrary.parse);
      parse.mockClear();
      const checks = runChecks({
        ...facts(all),
        gatewayClass: envoyGateway,
        gatewayConfig: [
          {
            controller: 'Envoy Gateway',
            configMap: {
              ...envoyGateway.configMap,
              field: 'extensionApis.enableBackend',
            },
            format: 'yaml',
            mustBe: true,
            unset: false,
            neededFor: "the model's Backend",
            routing: 'aigateway',
          },
        ],
      });
      // Both read it: the class's expected controllerName came from the config.
      expect(checks.find(c => c.id === 'gateway-config')!.status).toBe('pass');
      expect(checks.find(c => c.id === 'gateway')!.message).toMatch(
        /as gateway\.controllerName in envoy-gateway\.yaml/,
      );
      expect(parse).toHaveBeenCalledTimes(1);
    });

    it('no gateway_class for the routing: the class is not looked at', () => {
      const all = healthy();
      all.set(GATEWAY, gateway);
      all.set(CLASS, gatewayClass('istio.io/gateway-controller'));
      expect(runChecks(facts(all)).find(c => c.id === 'gateway')!.status).toBe(
        'pass',
      );
    });
  });

  describe("the Gateway the engine's controller attaches its own route to (profile controller_gateway)", () => {
    const spec: ControllerGateway = {
      configMap: {
        namespace: 'kserve',
        name: 'inferenceservice-config',
        key: 'ingress',
        field: 'kserveIngressGateway',
      },
      default: { namespace: 'kserve', name: 'kserve-ingress-gateway' },
    };
    const llmisvc: RenderedObject = {
      apiVersion: 'serving.kserve.io/v1alpha2',
      kind: 'LLMInferenceService',
      name: 'm',
      namespace: 'ns',
      applyPolicy: 'apply',
      source: 't',
      manifest: { spec: { router: { route: {}, gateway: {} } } },
    };
    const CONFIG = configMapPath('kserve', 'inferenceservice-config');
    const DEFAULT = gatewayPath('kserve', 'kserve-ingress-gateway');
    const exists = ok({ metadata: { name: 'g' } });
    const config = (ingress: unknown) =>
      ok({ data: { ingress: JSON.stringify(ingress) } });
    const gatewayCheck = (reads: Array<[string, Read]>) => {
      const all = healthy();
      for (const [path, read] of reads) all.set(path, read);
      return runChecks({
        ...facts(all, [llmisvc]),
        controllerGateway: spec,
      }).find(c => c.id === 'gateway');
    };

    it.each([
      {
        rule: 'the config names an existing Gateway: pass',
        reads: [
          [CONFIG, config({ kserveIngressGateway: 'gw-sys/edge' })],
          [gatewayPath('gw-sys', 'edge'), exists],
        ] as Array<[string, Read]>,
        status: 'pass',
        message: /^Gateway gw-sys\/edge exists$/,
      },
      {
        rule: "a name alone is in the ConfigMap's namespace",
        reads: [
          [CONFIG, config({ kserveIngressGateway: 'edge' })],
          [gatewayPath('kserve', 'edge'), exists],
        ] as Array<[string, Read]>,
        status: 'pass',
        message: /^Gateway kserve\/edge exists$/,
      },
      {
        rule: 'the config names a Gateway the cluster does not have: fail, naming the config',
        reads: [
          [CONFIG, config({ kserveIngressGateway: 'gw-sys/edge' })],
          [gatewayPath('gw-sys', 'edge'), ok(null)],
          [DEFAULT, exists],
        ] as Array<[string, Read]>,
        status: 'fail',
        message:
          /^LLMInferenceService m's managed route attaches to Gateway gw-sys\/edge \(ingress\.kserveIngressGateway of ConfigMap kserve\/inferenceservice-config\), which cluster prod does not have \(gateway\.networking\.k8s\.io\/v1\): the route would never be accepted, and the model would never be Ready$/,
      },
      {
        rule: "the controller's Gateway admits routes from its own namespace only: fail, naming the managed route",
        reads: [
          [CONFIG, config({ kserveIngressGateway: 'gw-sys/edge' })],
          [
            gatewayPath('gw-sys', 'edge'),
            ok({
              metadata: { name: 'edge', namespace: 'gw-sys' },
              spec: {
                listeners: [
                  {
                    name: 'http',
                    protocol: 'HTTP',
                    port: 80,
                    allowedRoutes: { namespaces: { from: 'Same' } },
                  },
                ],
              },
            }),
          ],
        ] as Array<[string, Read]>,
        status: 'fail',
        message:
          /^LLMInferenceService m's managed route in namespace ns attaches to Gateway gw-sys\/edge, whose listeners do not admit routes from that namespace \(listener http admits routes from its own namespace gw-sys only \(allowedRoutes\.namespaces\.from: Same\)\)/,
      },
      {
        rule: 'the config names none: the default, and it is missing: fail',
        reads: [
          [CONFIG, config({ urlScheme: 'http' })],
          [DEFAULT, ok(null)],
        ] as Array<[string, Read]>,
        status: 'fail',
        message:
          /Gateway kserve\/kserve-ingress-gateway \(the default: ingress\.kserveIngressGateway of ConfigMap kserve\/inferenceservice-config names none\)/,
      },
      {
        rule: 'no config on the cluster and no default Gateway: warn (the controller may run with another config)',
        reads: [
          [CONFIG, ok(null)],
          [DEFAULT, ok(null)],
        ] as Array<[string, Read]>,
        status: 'warn',
        message:
          /ConfigMap kserve\/inferenceservice-config is not on cluster prod, and its default Gateway kserve\/kserve-ingress-gateway is not either/,
      },
      {
        rule: 'no config on the cluster, the default Gateway exists: pass',
        reads: [
          [CONFIG, ok(null)],
          [DEFAULT, exists],
        ] as Array<[string, Read]>,
        status: 'pass',
        message: /^Gateway kserve\/kserve-ingress-gateway exists$/,
      },
      {
        rule: 'the config may not be read and the default Gateway is missing: unknown, with the RBAC it needs',
        reads: [
          [CONFIG, forbidden],
          [DEFAULT, ok(null)],
        ] as Array<[string, Read]>,
        status: 'unknown',
        message:
          /^cannot get configmaps on cluster prod: RBAC \(needs get on configmaps\), so which Gateway/,
      },
      {
        rule: 'the config may not be read, the default Gateway exists: pass',
        reads: [
          [CONFIG, forbidden],
          [DEFAULT, exists],
        ] as Array<[string, Read]>,
        status: 'pass',
      },
      {
        rule: 'the Gateway may not be read: unknown',
        reads: [
          [CONFIG, config({ kserveIngressGateway: 'gw-sys/edge' })],
          [gatewayPath('gw-sys', 'edge'), forbidden],
        ] as Array<[string, Read]>,
        status: 'unknown',
        message: /needs get on gateways\.gateway\.networking\.k8s\.io/,
      },
    ])('$rule', ({ reads, status, message }) => {
      const check = gatewayCheck(reads)!;
      expect(check.status).toBe(status);
      if (message) expect(check.message).toMatch(message);
      if (status !== 'pass') expect(check.fix).toBeTruthy();
    });

    it('a broken ingress JSON counts as naming none', () => {
      const check = gatewayCheck([
        [CONFIG, ok({ data: { ingress: '{not json' } })],
        [DEFAULT, ok(null)],
      ])!;
      expect(check.status).toBe('fail');
      expect(check.message).toMatch(/the default: .* names none/);
    });

    it('without controller_gateway (a model whose routes are rendered, or none) nothing is read of it', () => {
      expect(
        runChecks(facts(healthy(), [llmisvc])).find(c => c.id === 'gateway'),
      ).toBeUndefined();
    });
  });

  describe("the routes speak the workload's protocol (profile controller_tls)", () => {
    const tls = {
      configMap: {
        namespace: 'kserve',
        name: 'inferenceservice-config',
        key: 'ingress',
        field: 'enableLLMInferenceServiceTLS',
      },
      routing: 'aigateway',
    };
    const CONFIG = configMapPath('kserve', 'inferenceservice-config');
    const protocolCheck = (config: Read | undefined) => {
      const reads = healthy();
      if (config) reads.set(CONFIG, config);
      return runChecks({ ...facts(reads), controllerTls: tls }).find(
        c => c.id === 'protocol',
      );
    };
    const ingress = (json: string) => ok({ data: { ingress: json } });

    it.each([
      {
        rule: 'the switch is on: fail, naming the config and the routing',
        config: ingress('{"enableLLMInferenceServiceTLS": true}'),
        status: 'fail',
        message:
          /^cluster prod serves m's workload over HTTPS \(ingress\.enableLLMInferenceServiceTLS of ConfigMap kserve\/inferenceservice-config is true\), and routing aigateway's routes send it plain HTTP: every request through them would fail$/,
        fix: /set enableLLMInferenceServiceTLS to false in ConfigMap kserve\/inferenceservice-config/,
      },
      {
        rule: 'the switch is off: pass',
        config: ingress('{"enableLLMInferenceServiceTLS": false}'),
        status: 'pass',
        message: /is not true\)$/,
      },
      {
        rule: "the config does not say (KServe's default, off): pass",
        config: ingress('{"kserveIngressGateway": "kserve/gw"}'),
        status: 'pass',
      },
      {
        rule: 'a string "true" is not the JSON boolean KServe reads (its config would not load): pass',
        config: ingress('{"enableLLMInferenceServiceTLS": "true"}'),
        status: 'pass',
      },
      {
        rule: 'a broken ingress JSON: pass (KServe could not read it either)',
        config: ingress('{not json'),
        status: 'pass',
      },
      {
        rule: 'no config on the cluster: pass, saying so',
        config: ok(null),
        status: 'pass',
        message:
          /ConfigMap kserve\/inferenceservice-config is not on cluster prod/,
      },
      {
        rule: 'the config may not be read: unknown, with the RBAC it needs',
        config: forbidden,
        status: 'unknown',
        message:
          /^cannot get configmaps on cluster prod: RBAC \(needs get on configmaps\), so whether m's workload is served over HTTPS/,
      },
      {
        rule: 'the config was not read: unknown',
        config: undefined,
        status: 'unknown',
      },
    ])('$rule', ({ config, status, message, fix }) => {
      const check = protocolCheck(config)!;
      expect(check.status).toBe(status);
      if (message) expect(check.message).toMatch(message);
      if (fix) expect(check.fix).toMatch(fix);
      if (status !== 'pass') expect(check.fix).toBeTruthy();
    });

    it('is listed last, and only for a routing that declares it', () => {
      const reads = healthy();
      reads.set(CONFIG, ingress('{}'));
      const ids = runChecks({ ...facts(reads), controllerTls: tls }).map(
        c => c.id,
      );
      expect(ids[ids.length - 1]).toBe('protocol');
      expect(
        runChecks(facts(reads)).find(c => c.id === 'protocol'),
      ).toBeUndefined();
    });
  });

  describe("the gateway's controller accepts the routes' objects (profile gateway_config)", () => {
    const backendApi = {
      controller: 'Envoy Gateway',
      configMap: {
        namespace: 'envoy-gateway-system',
        name: 'envoy-gateway-config',
        key: 'envoy-gateway.yaml',
        field: 'extensionApis.enableBackend',
      },
      format: 'yaml' as const,
      mustBe: true,
      unset: false,
      neededFor: "the model's Backend",
      how: 'Helm: config.envoyGateway.extensionApis.enableBackend=true',
      routing: 'aigateway',
    };
    const CONFIG = configMapPath(
      'envoy-gateway-system',
      'envoy-gateway-config',
    );
    const configCheck = (
      config: Read | undefined,
      needs: TargetFacts['gatewayConfig'] = [backendApi],
    ) => {
      const reads = healthy();
      if (config) reads.set(CONFIG, config);
      return runChecks({ ...facts(reads), gatewayConfig: needs }).find(
        c => c.id === 'gateway-config',
      );
    };
    const egConfig = (yaml: string) =>
      ok({ data: { 'envoy-gateway.yaml': yaml } });
    const HEAD =
      'apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyGateway\n';

    it.each([
      {
        rule: 'on: pass, naming the field and the ConfigMap',
        config: egConfig(`${HEAD}extensionApis:\n  enableBackend: true\n`),
        status: 'pass',
        message:
          /^Envoy Gateway accepts the model's Backend: envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config has extensionApis\.enableBackend: true$/,
      },
      {
        rule: 'YAML 1.1 "yes", which go-yaml v2 (sigs.k8s.io/yaml) reads as true: pass',
        config: egConfig(`${HEAD}extensionApis: {enableBackend: yes}\n`),
        status: 'pass',
      },
      {
        rule: "not set (Envoy Gateway's default, off): fail, saying so",
        config: egConfig(
          `${HEAD}extensionApis:\n  enableEnvoyPatchPolicy: true\n`,
        ),
        status: 'fail',
        message:
          /^Envoy Gateway on cluster prod would not accept the model's Backend, which routing aigateway renders: extensionApis\.enableBackend in envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config is not set \(Envoy Gateway's default: false\), not true; clients could not reach the model through the gateway$/,
        fix: /^set extensionApis\.enableBackend: true in envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config \(Helm: config\.envoyGateway\.extensionApis\.enableBackend=true\); or set routing to another/,
      },
      {
        rule: 'off: fail',
        config: egConfig(`${HEAD}extensionApis:\n  enableBackend: false\n`),
        status: 'fail',
        message: /enableBackend in .* is false, not true;/,
      },
      {
        rule: 'a quoted "true" is a string, not the boolean Envoy Gateway reads: fail, saying so',
        config: egConfig(`${HEAD}extensionApis:\n  enableBackend: "true"\n`),
        status: 'fail',
        message: /is "true" \(a string\), not true;/,
      },
      {
        rule: 'the ConfigMap has no such key: not set, fail',
        config: ok({ data: { other: 'x' } }),
        status: 'fail',
        message: /is not set \(Envoy Gateway's default: false\)/,
      },
      {
        rule: "YAML that does not parse: warn, with the parser's words",
        config: egConfig('extensionApis: [enableBackend: true\n'),
        status: 'warn',
        message:
          /^envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config on cluster prod could not be read as YAML \(.+\), so whether Envoy Gateway accepts/,
      },
      {
        rule: 'no ConfigMap there: warn (Envoy Gateway may run in another namespace)',
        config: ok(null),
        status: 'warn',
        message:
          /^ConfigMap envoy-gateway-system\/envoy-gateway-config is not on cluster prod, .*runs in another namespace$/,
      },
      {
        rule: 'the ConfigMap may not be read: unknown, with the RBAC it needs',
        config: forbidden,
        status: 'unknown',
        message:
          /^cannot get configmaps on cluster prod: RBAC \(needs get on configmaps\), so whether Envoy Gateway accepts the model's Backend/,
      },
    ])('$rule', ({ config, status, message, fix }) => {
      const check = configCheck(config)!;
      expect(check.status).toBe(status);
      if (message) expect(check.message).toMatch(message);
      if (fix) expect(check.fix).toMatch(fix);
      if (status !== 'pass') expect(check.fix).toBeTruthy();
    });

    it('a JSON config is read as JSON, at a nested dot path', () => {
      const json = {
        ...backendApi,
        configMap: { ...backendApi.configMap, key: 'cfg.json', field: 'a.b' },
        format: 'json' as const,
        mustBe: 'on',
        unset: undefined,
      };
      const check = (text: string) =>
        configCheck(ok({ data: { 'cfg.json': text } }), [json])!;
      expect(check('{"a": {"b": "on"}}').status).toBe('pass');
      expect(check('{"a": {"b": "off"}}').message).toMatch(
        /a\.b in cfg\.json .* is "off" \(a string\), not "on";/,
      );
      expect(check('{"a": "b"}').message).toMatch(
        /a\.b in .* is not set, not "on"/,
      );
    });

    describe('a field that must be set, to any value (must_be_set: Envoy Gateway calls the AI gateway)', () => {
      const extensionManager = {
        controller: 'Envoy Gateway',
        configMap: { ...backendApi.configMap, field: 'extensionManager' },
        format: 'yaml' as const,
        mustBeSet: true as const,
        neededFor: "Envoy AI Gateway's filters",
        how: 'Helm: config.envoyGateway.extensionManager',
        routing: 'aigateway',
      };
      const ON = 'extensionApis:\n  enableBackend: true\n';
      it.each([
        {
          rule: 'set (a mapping naming the extension server): pass, not dumping the mapping',
          yaml: `${HEAD}${ON}extensionManager:\n  hooks: {xdsTranslator: {post: [Route]}}\n  service:\n    fqdn: {hostname: ai-gateway-controller.envoy-ai-gateway-system.svc.cluster.local, port: 1063}\n`,
          status: 'pass',
          message:
            /^Envoy Gateway accepts the model's Backend: .*; Envoy Gateway is set up for Envoy AI Gateway's filters: envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config sets extensionManager$/,
        },
        {
          rule: 'not set: fail, naming the field, the ConfigMap and the Helm value',
          yaml: `${HEAD}${ON}`,
          status: 'fail',
          message:
            /^Envoy Gateway on cluster prod is not set up for Envoy AI Gateway's filters, which routing aigateway needs: extensionManager in envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config is not set; clients could not reach the model through the gateway$/,
          fix: /^set extensionManager in envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config \(Helm: config\.envoyGateway\.extensionManager\); or set routing to another/,
        },
        {
          rule: 'null (YAML ~): not set, fail',
          yaml: `${HEAD}${ON}extensionManager: ~\n`,
          status: 'fail',
          message: /extensionManager in .* is null;/,
        },
        {
          rule: 'an empty mapping names no extension server: fail',
          yaml: `${HEAD}${ON}extensionManager: {}\n`,
          status: 'fail',
          message: /extensionManager in .* is empty;/,
        },
        {
          rule: 'an empty string: fail',
          yaml: `${HEAD}${ON}extensionManager: ""\n`,
          status: 'fail',
          message: /extensionManager in .* is empty;/,
        },
      ])('$rule', ({ yaml, status, message, fix }) => {
        const check = configCheck(egConfig(yaml), [
          backendApi,
          extensionManager,
        ])!;
        expect(check.status).toBe(status);
        expect(check.message).toMatch(message);
        if (fix) expect(check.fix).toMatch(fix);
        // The Backend API is on in every case: only the extension manager's outcome fails.
        if (status === 'fail')
          expect(check.message).not.toMatch(/enableBackend/);
      });

      it('a scalar value is shown', () => {
        const hostname = {
          ...extensionManager,
          configMap: {
            ...extensionManager.configMap,
            field: 'extensionManager.service.fqdn.hostname',
          },
        };
        const check = configCheck(
          egConfig(
            `${HEAD}extensionManager: {service: {fqdn: {hostname: aigw.example}}}\n`,
          ),
          [hostname],
        )!;
        expect(check.status).toBe('pass');
        expect(check.message).toMatch(
          /sets extensionManager\.service\.fqdn\.hostname: "aigw\.example"$/,
        );
      });
    });

    it('several requirements: the worst one speaks', () => {
      const other = {
        ...backendApi,
        configMap: { ...backendApi.configMap, field: 'extensionApis.other' },
      };
      const check = configCheck(
        egConfig(`${HEAD}extensionApis:\n  enableBackend: true\n`),
        [backendApi, other],
      )!;
      expect(check.status).toBe('fail');
      expect(check.message).toMatch(
        /^Envoy Gateway on cluster prod would not accept .*extensionApis\.other in/,
      );
      expect(check.message).not.toMatch(/enableBackend/);
    });

    it('is listed last, and only for a routing that declares it', () => {
      const reads = healthy();
      reads.set(
        CONFIG,
        egConfig(`${HEAD}extensionApis: {enableBackend: true}\n`),
      );
      const ids = runChecks({
        ...facts(reads),
        gatewayConfig: [backendApi],
      }).map(c => c.id);
      expect(ids[ids.length - 1]).toBe('gateway-config');
      expect(
        runChecks(facts(reads)).find(c => c.id === 'gateway-config'),
      ).toBeUndefined();
    });
  });

  describe("the kinds the engine's controller creates by itself (profile controller_kinds)", () => {
    const kinds = [
      {
        apiVersion: 'inference.networking.k8s.io/v1',
        kind: 'InferencePool',
        routing: 'epp',
      },
    ];
    const POOLS = discoveryPath('inference.networking.k8s.io/v1');
    const apiCheck = (changes: Array<[string, Read]>) => {
      const reads = healthy();
      for (const [path, read] of changes) reads.set(path, read);
      return runChecks({ ...facts(reads), controllerKinds: kinds }).find(
        c => c.id === 'api-versions',
      )!;
    };

    it('served: pass, listing them with what the model renders', () => {
      const check = apiCheck([
        [POOLS, ok({ resources: [{ kind: 'InferencePool' }] })],
      ]);
      expect(check.status).toBe('pass');
      expect(check.message).toMatch(
        /InferencePool \(inference\.networking\.k8s\.io\/v1\)/,
      );
    });

    it("the group not served: fail, saying the engine's controller creates it for the routing", () => {
      const check = apiCheck([[POOLS, ok(null)]]);
      expect(check.status).toBe('fail');
      expect(check.message).toBe(
        "cluster prod: InferencePool at inference.networking.k8s.io/v1, which the engine's controller creates for the model's routing epp, is not served (no inference.networking.k8s.io API group: its CRDs are not installed)",
      );
      expect(check.fix).toMatch(/install or upgrade the CRDs/);
    });

    it('served at another version only: fail, naming the versions', () => {
      const check = apiCheck([
        [POOLS, ok(null)],
        [
          groupPath('inference.networking.k8s.io'),
          ok({ versions: [{ version: 'v1alpha2' }] }),
        ],
      ]);
      expect(check.status).toBe('fail');
      expect(check.message).toMatch(
        /is not served \(the cluster serves inference\.networking\.k8s\.io v1alpha2 only\)$/,
      );
    });

    it('discovery may not be read: unknown', () => {
      expect(apiCheck([[POOLS, forbidden]]).status).toBe('unknown');
    });
  });

  describe("KServe keeps an InferenceService's deployment mode (its webhook's validateDeploymentMode)", () => {
    const standard: RenderedObject = {
      ...isvc,
      manifest: {
        ...isvc.manifest,
        metadata: {
          annotations: { 'serving.kserve.io/deploymentMode': 'Standard' },
        },
      },
    };
    const ISVC = objectPath(
      'serving.kserve.io/v1beta1',
      'inferenceservices',
      'ns',
      'm',
    );
    const live = (deploymentMode?: string) =>
      ok({
        metadata: { name: 'm', namespace: 'ns' },
        status: deploymentMode === undefined ? {} : { deploymentMode },
      });
    const modeCheck = (read: Read | undefined, objects = [standard]) => {
      const reads = healthy();
      if (read) reads.set(ISVC, read);
      return runChecks(facts(reads, objects)).find(
        c => c.id === 'deployment-mode',
      );
    };

    it('reads the rendered InferenceService where the deploy would apply it', () => {
      expect(pathsToRead([standard], 'ns')).toContain(
        '/apis/serving.kserve.io/v1beta1/namespaces/ns/inferenceservices/m',
      );
    });

    it.each([
      {
        rule: 'not on the cluster: pass (KServe creates it in the mode rendered)',
        read: ok(null),
        status: 'pass',
        message:
          /^InferenceService ns\/m is new on cluster prod: KServe creates it in Standard mode$/,
      },
      {
        rule: 'no mode in its status yet (not reconciled): pass, as the webhook allows any',
        read: live(),
        status: 'pass',
      },
      {
        rule: 'the same mode: pass',
        read: live('Standard'),
        status: 'pass',
        message:
          /^InferenceService ns\/m runs in Standard mode on cluster prod, as the model renders it$/,
      },
      {
        rule: 'RawDeployment in the status (KServe before v0.16), Standard rendered: warn (the same mode; KServe v0.16 would refuse the new name)',
        read: live('RawDeployment'),
        status: 'warn',
        message:
          /^InferenceService ns\/m runs in RawDeployment mode on cluster prod and the model renders Standard, the same mode by its other name: KServe v0\.17 and later take it, KServe v0\.16 refuses the change/,
        fix: /^set deployment_mode in the runtime's plumbing to RawDeployment/,
      },
      {
        rule: "Knative mode (KServe's install default): fail, saying KServe refuses the change and what to do",
        read: live('Knative'),
        status: 'fail',
        message:
          /^InferenceService ns\/m runs in Knative mode on cluster prod \(its status\.deploymentMode\), and the model renders Standard \(annotation serving\.kserve\.io\/deploymentMode\): KServe's webhook refuses to change/,
        fix: /^undeploy the model from this target first \(the Serving tab's Undeploy, or model-manager undeploy m --cluster prod --namespace ns\), then deploy it: KServe creates it anew in Standard mode/,
      },
      {
        rule: 'Serverless (the old name of Knative): fail',
        read: live('Serverless'),
        status: 'fail',
      },
      {
        rule: 'not readable: unknown, with the RBAC it needs',
        read: forbidden,
        status: 'unknown',
        message:
          /^cannot get inferenceservices\.serving\.kserve\.io on cluster prod: RBAC \(needs get on inferenceservices\.serving\.kserve\.io\), so whether KServe would take InferenceService ns\/m in Standard mode is not known$/,
      },
    ])('$rule', ({ read, status, message, fix }) => {
      const check = modeCheck(read)!;
      expect(check.status).toBe(status);
      if (message) expect(check.message).toMatch(message);
      if (fix) expect(check.fix).toMatch(fix);
    });

    it('a rendered RawDeployment: pass on a RawDeployment one, warn on a Standard one (KServe v0.16 compared the names as written)', () => {
      const raw: RenderedObject = {
        ...standard,
        manifest: {
          ...standard.manifest,
          metadata: {
            annotations: {
              'serving.kserve.io/deploymentMode': 'RawDeployment',
            },
          },
        },
      };
      expect(modeCheck(live('RawDeployment'), [raw])!.status).toBe('pass');
      expect(modeCheck(live('Standard'), [raw])!.status).toBe('warn');
      expect(modeCheck(live('Knative'), [raw])!.status).toBe('fail');
    });

    it('no InferenceService with the annotation rendered: no check', () => {
      expect(modeCheck(live('Knative'), [isvc])).toBeUndefined();
    });
  });
});
