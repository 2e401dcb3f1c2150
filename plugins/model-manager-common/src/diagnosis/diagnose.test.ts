import { buildCatalog } from '../catalog/buildCatalog';
import { fixtureSources } from '../testUtils/catalogFixtures';
import { diagnose, type DiagnosisInput } from './diagnose';
import { logsToRead } from './podsToRead';
import { signaturesFor } from './signatures';

const catalog = buildCatalog(fixtureSources());
const vllm = signaturesFor(catalog.runtimes.vllm.profile);
const openvino = signaturesFor(catalog.runtimes.openvino.profile);

const pod = (
  name: string,
  containerStatuses: unknown[],
  phase = 'Running',
  extra: Record<string, unknown> = {},
) => ({
  metadata: { name },
  spec: { nodeName: 'node-1' },
  status: { phase, containerStatuses, ...extra },
});

const crashed = (reason: string, exitCode: number) => ({
  name: 'main',
  ready: false,
  restartCount: 4,
  state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
  lastState: { terminated: { reason, exitCode } },
});

const event = (reason: string, message: string, kind = 'Pod', name = 'p') => ({
  type: 'Warning',
  reason,
  message,
  involvedObject: { kind, name },
  count: 3,
  lastTimestamp: '2026-12-01T10:00:00Z',
});

const input = (over: Partial<DiagnosisInput>): DiagnosisInput => ({
  cluster: 'dev',
  namespace: 'models',
  serverRef: 'LLMInferenceService/qwen',
  pods: [],
  events: [],
  logs: [],
  signatures: vllm,
  problems: [],
  ...over,
});

const crashLog = (...lines: string[]) => ({
  pods: [{ role: 'server' as const, pod: pod('p', [crashed('Error', 1)]) }],
  logs: [{ pod: 'p', container: 'main', previous: true, lines }],
});

/** One row per signature of each engine: a real message, and the finding it gives. */
const signatureRows: Array<{
  signature: string;
  engine: string;
  given: Partial<DiagnosisInput>;
}> = [
  {
    signature: 'gated-repo',
    engine: 'vllm',
    given: crashLog(
      'huggingface_hub.errors.GatedRepoError: 401 Client Error.',
      'Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.',
    ),
  },
  {
    signature: 'repo-not-found',
    engine: 'vllm',
    given: crashLog(
      'huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: x)',
    ),
  },
  {
    signature: 'kv-cache-too-small',
    engine: 'vllm',
    given: crashLog(
      "ValueError: To serve at least one request with the model's max seq len (32768), (4.0 GiB KV cache is needed, which is larger than the available KV cache memory (2.0 GiB).",
    ),
  },
  {
    signature: 'out-of-memory',
    engine: 'vllm',
    given: crashLog(
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
    ),
  },
  {
    signature: 'unknown-flag',
    engine: 'vllm',
    given: crashLog('vllm serve: error: unrecognized arguments: --enable-foo'),
  },
  {
    signature: 'unsupported-architecture',
    engine: 'vllm',
    given: crashLog(
      "ValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: dict_keys([...])",
    ),
  },
  {
    signature: 'moe-flag-on-dense-model',
    engine: 'vllm',
    given: crashLog(
      'AssertionError: EPLB is only supported for MoE models, Qwen2ForCausalLM is not a MoE model',
    ),
  },
  {
    signature: 'weight-format-on-ir-repo',
    engine: 'openvino',
    given: crashLog(
      '--weight-format parameter unsupported for OpenVINO models.',
    ),
  },
  {
    signature: 'gated-repo',
    engine: 'openvino',
    given: crashLog(
      'Cannot access gated repo for url https://huggingface.co/google/gemma-2b/resolve/main/config.json.',
    ),
  },
  {
    signature: 'repo-not-found',
    engine: 'openvino',
    given: crashLog(
      'Repository Not Found for url: https://huggingface.co/api/models/x/y.',
    ),
  },
  {
    signature: 'unsupported-task',
    engine: 'openvino',
    given: crashLog(
      'ValueError: Asked to export a minicpm model for the task feature-extraction (auto-detected), but the Optimum OpenVINO exporter only supports the tasks text-generation, text-generation-with-past for minicpm.',
    ),
  },
];

/** The common list: container states, Events, conditions. */
const kubernetesRows: Array<{
  signature: string;
  given: Partial<DiagnosisInput>;
}> = [
  {
    signature: 'oom-killed',
    given: {
      pods: [{ role: 'server', pod: pod('p', [crashed('OOMKilled', 137)]) }],
    },
  },
  {
    signature: 'image-pull',
    given: {
      pods: [
        {
          role: 'server',
          pod: pod(
            'p',
            [
              {
                name: 'main',
                restartCount: 0,
                state: {
                  waiting: {
                    reason: 'ImagePullBackOff',
                    message: 'Back-off pulling image "vllm/vllm-openai:v9"',
                  },
                },
              },
            ],
            'Pending',
          ),
        },
      ],
    },
  },
  {
    signature: 'invalid-image-name',
    given: {
      pods: [
        {
          role: 'server',
          pod: pod('p', [
            {
              name: 'main',
              state: { waiting: { reason: 'InvalidImageName' } },
            },
          ]),
        },
      ],
    },
  },
  {
    signature: 'config-error',
    given: {
      pods: [
        {
          role: 'server',
          pod: pod('p', [
            {
              name: 'main',
              state: {
                waiting: {
                  reason: 'CreateContainerConfigError',
                  message: 'secret "hf-token" not found',
                },
              },
            },
          ]),
        },
      ],
    },
  },
  {
    signature: 'crash-loop',
    given: { pods: [{ role: 'server', pod: pod('p', [crashed('Error', 1)]) }] },
  },
  {
    signature: 'image-tag-not-found',
    given: {
      events: [
        event(
          'Failed',
          'Failed to pull image "vllm/vllm-openai:v9.9.9": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/vllm/vllm-openai:v9.9.9": failed to resolve reference "docker.io/vllm/vllm-openai:v9.9.9": docker.io/vllm/vllm-openai:v9.9.9: not found',
        ),
      ],
    },
  },
  {
    signature: 'image-pull-denied',
    given: {
      events: [
        event(
          'Failed',
          'Failed to pull image "registry.example/vllm:1": failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized',
        ),
      ],
    },
  },
  {
    signature: 'insufficient-resources',
    given: {
      events: [
        event(
          'FailedScheduling',
          '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
        ),
      ],
    },
  },
  {
    signature: 'unbound-claim',
    given: {
      events: [
        event(
          'FailedScheduling',
          '0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
        ),
      ],
    },
  },
  {
    signature: 'untolerated-taint',
    given: {
      events: [
        event(
          'FailedScheduling',
          '0/2 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: present}.',
        ),
      ],
    },
  },
  {
    signature: 'failed-mount',
    given: {
      events: [
        event(
          'FailedMount',
          'MountVolume.SetUp failed for volume "weights" : persistentvolumeclaim "models-weights" not found',
        ),
      ],
    },
  },
  {
    signature: 'exceeded-quota',
    given: {
      events: [
        event(
          'FailedCreate',
          'Error creating: pods "qwen-abc" is forbidden: exceeded quota: compute, requested: limits.cpu=8, used: limits.cpu=0, limited: limits.cpu=4',
          'ReplicaSet',
          'qwen-kserve-abc',
        ),
      ],
    },
  },
  {
    signature: 'serving-runtime-missing',
    given: {
      serverRef: 'InferenceService/bge',
      server: {
        status: {
          conditions: [
            {
              type: 'PredictorReady',
              status: 'False',
              message:
                'No ServingRuntimes or ClusterServingRuntimes with the name: kserve-ovms',
            },
          ],
        },
      },
    },
  },
];

describe('diagnose', () => {
  it.each([
    ['vllm', catalog.runtimes.vllm.profile.signatures],
    ['openvino', catalog.runtimes.openvino.profile.signatures],
  ])('has a row for every signature of %s', (engine, list) => {
    expect(
      signatureRows.filter(r => r.engine === engine).map(r => r.signature),
    ).toEqual(list.map(s => s.id));
  });

  it.each(signatureRows)(
    '$engine: $signature',
    ({ signature, engine, given }) => {
      const d = diagnose(
        input({ ...given, signatures: engine === 'vllm' ? vllm : openvino }),
      );
      expect(d.findings[0]).toMatchObject({
        signature,
        where: 'log',
        source: `runtimes/${engine}/profile.yaml`,
      });
      expect(d.headline).toContain(d.findings[0].meaning);
      expect(d.headline).toContain(
        'log of pod p container main (previous run)',
      );
    },
  );

  it.each(kubernetesRows)('kubernetes: $signature', ({ signature, given }) => {
    const d = diagnose(input(given));
    expect(d.findings.map(f => f.signature)).toContain(signature);
    expect(d.findings[0]).toMatchObject({ signature, source: 'kubernetes' });
  });

  it("an engine's signature does not match another engine's model", () => {
    const given = crashLog(
      '--weight-format parameter unsupported for OpenVINO models.',
    );
    expect(
      diagnose(input({ ...given, signatures: vllm })).findings.map(
        f => f.signature,
      ),
    ).toEqual(['crash-loop']);
  });

  it('ranks the engine log above the container state it explains', () => {
    const d = diagnose(
      input({
        pods: [{ role: 'server', pod: pod('p', [crashed('OOMKilled', 137)]) }],
        logs: [
          {
            pod: 'p',
            container: 'main',
            previous: true,
            lines: [
              'INFO loading',
              'torch.OutOfMemoryError: CUDA out of memory.',
            ],
          },
        ],
      }),
    );
    expect(d.findings.map(f => f.signature)).toEqual([
      'out-of-memory',
      'oom-killed',
      'crash-loop',
    ]);
    expect(d.headline).toMatch(/^the engine ran out of memory/);
  });

  it('ranks the image tag Event above ImagePullBackOff', () => {
    const d = diagnose(
      input({
        ...kubernetesRows.find(r => r.signature === 'image-pull')!.given,
        events: kubernetesRows.find(r => r.signature === 'image-tag-not-found')!
          .given.events,
      }),
    );
    expect(d.findings.map(f => f.signature)).toEqual([
      'image-tag-not-found',
      'image-pull',
    ]);
  });

  it.each([
    {
      state: 'no pods, KServe silent',
      given: {},
      headline:
        'no pods of LLMInferenceService/qwen on dev/models; KServe has not created them (yet)',
    },
    {
      state: 'no pods, KServe says why',
      given: {
        server: {
          status: {
            conditions: [
              {
                type: 'WorkloadsReady',
                status: 'False',
                message: 'waiting for Deployment',
              },
            ],
          },
        },
      },
      headline:
        'no pods of LLMInferenceService/qwen on dev/models; KServe says WorkloadsReady: waiting for Deployment',
    },
    {
      state: 'a pod Pending with no Event',
      given: {
        pods: [{ role: 'server' as const, pod: pod('p', [], 'Pending') }],
      },
      headline: 'pod p is Pending',
    },
    {
      state: 'an init container failed',
      given: {
        pods: [
          {
            role: 'server' as const,
            pod: pod('p', [], 'Pending', {
              initContainerStatuses: [
                {
                  name: 'storage-initializer',
                  restartCount: 0,
                  state: { terminated: { reason: 'Error', exitCode: 2 } },
                },
              ],
            }),
          },
        ],
      },
      headline:
        'init container storage-initializer of pod p exited with code 2 (Error)',
    },
    {
      state: 'running, not ready',
      given: {
        pods: [
          {
            role: 'server' as const,
            pod: pod('p', [
              {
                name: 'main',
                ready: false,
                restartCount: 0,
                state: { running: {} },
              },
            ]),
          },
        ],
      },
      headline:
        'pod p is Running but not ready yet (the engine is loading or its readiness probe fails)',
    },
    {
      state: 'nothing readable',
      given: {
        problems: [
          'cannot read pods on cluster dev: RBAC (needs list on pods in namespace models)',
        ],
      },
      headline:
        'cannot read pods on cluster dev: RBAC (needs list on pods in namespace models)',
    },
  ])('without a known signature: $state', ({ given, headline }) => {
    expect(diagnose(input(given)).headline).toBe(headline);
  });

  it('keeps the newest Events first, with their object', () => {
    const d = diagnose(
      input({
        events: [
          {
            ...event('Scheduled', 'assigned', 'Pod', 'a'),
            type: 'Normal',
            lastTimestamp: '2026-12-01T09:00:00Z',
          },
          event('BackOff', 'Back-off restarting failed container', 'Pod', 'a'),
        ],
      }),
    );
    expect(d.events.map(e => `${e.object} ${e.reason}`)).toEqual([
      'Pod/a BackOff',
      'Pod/a Scheduled',
    ]);
  });
});

describe('logsToRead', () => {
  it('reads the previous run of a restarted container and the log of a failed one, not a waiting one', () => {
    const d = diagnose(
      input({
        pods: [
          { role: 'server', pod: pod('a', [crashed('OOMKilled', 137)]) },
          {
            role: 'download',
            pod: pod(
              'b',
              [
                {
                  name: 'pull',
                  restartCount: 0,
                  state: { terminated: { reason: 'Error', exitCode: 1 } },
                },
              ],
              'Failed',
            ),
          },
          {
            role: 'server',
            pod: pod('c', [
              {
                name: 'main',
                state: { waiting: { reason: 'ImagePullBackOff' } },
              },
            ]),
          },
        ],
      }),
    );
    expect(logsToRead(d.pods)).toEqual([
      { pod: 'a', container: 'main', previous: true },
      { pod: 'b', container: 'pull', previous: false },
    ]);
  });
});
