import { within } from '@testing-library/react';
import type { Diagnosis } from '@model-manager/plugin-model-manager-common';
import type { ModelStatus } from '../../api';
import { qwenStatus, renderStatusCard } from '../../__testUtils__';

const oomDiagnosis: Diagnosis = {
  cluster: 'local',
  namespace: 'models',
  headline:
    'the KV cache (kv_cache_gb, VLLM_CPU_KVCACHE_SPACE) is too small for one request of the model\'s maximum length (log of pod qwen-0 container main (previous run): "ValueError: ...")',
  findings: [
    {
      signature: 'kv-cache-too-small',
      where: 'log',
      subject: 'log of pod qwen-0 container main (previous run)',
      text: 'ValueError: ...',
      meaning:
        "the KV cache (kv_cache_gb, VLLM_CPU_KVCACHE_SPACE) is too small for one request of the model's maximum length",
      fix: 'raise kv_cache_gb (within half the memory limit), or pass a smaller --max-model-len in args',
      source: 'runtimes/vllm/profile.yaml',
    },
    {
      signature: 'oom-killed',
      where: 'container',
      subject: 'container main of pod qwen-0 (previous run)',
      text: 'OOMKilled',
      meaning: 'the container used more memory than its limit',
      fix: 'raise the memory limit',
      source: 'kubernetes',
    },
  ],
  pods: [
    {
      name: 'qwen-0',
      role: 'server',
      phase: 'Running',
      ready: false,
      nodeName: 'node-1',
      containers: [
        {
          name: 'main',
          init: false,
          ready: false,
          state: 'waiting',
          reason: 'CrashLoopBackOff',
          restartCount: 3,
          lastTermination: { reason: 'OOMKilled', exitCode: 137 },
        },
      ],
    },
  ],
  events: [
    {
      type: 'Warning',
      reason: 'BackOff',
      message: 'Back-off restarting failed container main',
      object: 'Pod/qwen-0',
      count: 5,
    },
  ],
  logs: [
    {
      pod: 'qwen-0',
      container: 'main',
      previous: true,
      lines: ['INFO loading', 'ValueError: KV cache is needed'],
    },
  ],
  problems: [],
};

/** The status card on the page of model qwen, the status answering `items`: the card of the first target. */
const renderCard = (items: ModelStatus[]) => renderStatusCard(items, 'qwen');

const notReady = (diagnosis?: Diagnosis): ModelStatus =>
  qwenStatus(
    { ready: false, conditions: [], problems: [] },
    diagnosis ? { diagnosis } : {},
  );

describe('Why not ready', () => {
  it('a target that is not Ready: the headline, meaning and fix, pod states, Events and the log lines', async () => {
    const card = await renderCard([notReady(oomDiagnosis)]);
    const panel = within(card).getByTestId('why-not-ready-local-models');
    expect(within(panel).getByTestId('diagnosis-headline')).toHaveTextContent(
      /^the KV cache .* is too small/,
    );
    expect(within(panel).getByTestId('diagnosis-fix')).toHaveTextContent(
      'Fix: raise kv_cache_gb',
    );
    expect(
      within(panel).getByText(/Also: the container used more memory/),
    ).toBeInTheDocument();
    expect(within(panel).getByTestId('diagnosis-pods')).toHaveTextContent(
      'container main: waiting, CrashLoopBackOff, 3 restarts, last run: OOMKilled (exit code 137)',
    );
    expect(within(panel).getByTestId('diagnosis-events')).toHaveTextContent(
      'Warning BackOff on Pod/qwen-0 (×5): Back-off restarting failed container main',
    );
    const log = within(panel).getByTestId('diagnosis-log');
    expect(log.tagName).toBe('PRE');
    expect(log.textContent).toBe(
      'INFO loading\nValueError: KV cache is needed',
    );
    expect(
      within(panel).getByText(/Log of qwen-0 container main \(previous run\)/),
    ).toBeInTheDocument();
  });

  it('says what could not be read, e.g. pod logs forbidden by RBAC', async () => {
    const card = await renderCard([
      notReady({
        ...oomDiagnosis,
        findings: [],
        logs: [],
        headline: 'container main of pod qwen-0 restarted 3 times',
        problems: [
          'cannot read pod logs on cluster local: RBAC (needs get on pods/log in namespace models)',
        ],
      }),
    ]);
    expect(
      within(card).getByText(/cannot read pod logs on cluster local: RBAC/),
    ).toBeInTheDocument();
    expect(within(card).queryByTestId('diagnosis-fix')).toBeNull();
  });

  it('a known failure before KServe reports is "not ready", not "waiting for KServe"', async () => {
    const item = notReady(oomDiagnosis);
    item.summary!.ready = undefined;
    const card = await renderCard([item]);
    expect(
      within(card).getByText('local/models: not ready'),
    ).toBeInTheDocument();
  });

  it('no panel for a target without a diagnosis (Ready)', async () => {
    const card = await renderCard([notReady()]);
    expect(within(card).queryByText('Why not ready')).toBeNull();
  });
});
