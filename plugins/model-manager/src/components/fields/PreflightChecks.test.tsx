import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';
import { screen, waitFor } from '@testing-library/react';
import type { ModelManagerApi } from '../../api';
import {
  fieldProps,
  loadTemplate,
  renderReviewStep,
  renderWithApi,
} from '../../__testUtils__';
import { PreflightChecks, preflightSummary } from './PreflightChecks';

const checks: PreflightCheck[] = [
  {
    id: 'engine',
    title: "The model's settings pass the engine's rules",
    status: 'pass',
    message: 'vLLM accepts the settings of qwen',
  },
  {
    id: 'namespace',
    title: 'The namespace exists',
    status: 'fail',
    message: 'namespace nowhere does not exist on cluster local',
    fix: 'create it (kubectl create namespace nowhere)',
  },
  {
    id: 'nodes',
    title: 'A schedulable node fits the pod',
    status: 'unknown',
    message: 'cannot list nodes on cluster local: RBAC (needs list on nodes)',
    fix: 'grant list on nodes',
  },
];

describe('PreflightChecks', () => {
  it('asks preflight for the form\u2019s model, target and overrides; shows each check in words; its value is the summary', async () => {
    const preflight = jest.fn(async () => ({
      model: 'qwen',
      cluster: 'local',
      namespace: 'nowhere',
      checks,
    }));
    const onChange = jest.fn();
    await renderWithApi(
      { preflight } as unknown as ModelManagerApi,
      <PreflightChecks
        {...fieldProps('preflight', 'Preflight', {
          onChange,
          formContext: {
            formData: {
              model: 'component:default/qwen',
              cluster: 'local',
              namespace: 'nowhere',
              serverVersion: '0.19.1',
              args: ['--max-model-len=4096'],
              env: {},
            },
          },
        })}
      />,
    );
    expect(
      await screen.findByText(
        /namespace nowhere does not exist on cluster local/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Fails')).toBeInTheDocument();
    expect(screen.getByText('Unknown')).toBeInTheDocument();
    expect(preflight).toHaveBeenCalledWith(
      'qwen',
      { cluster: 'local', namespace: 'nowhere' },
      { serverVersion: '0.19.1', args: ['--max-model-len=4096'] },
    );
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith(preflightSummary(checks)),
    );
  });

  it.each([
    {
      rule: 'a fail names the refusal and each failed check',
      checks,
      summary:
        '1 of 3 checks fail, the deploy would be refused: The namespace exists (namespace nowhere does not exist on cluster local)',
    },
    {
      rule: 'no fail: what could not be told',
      checks: [checks[0], checks[2]],
      summary:
        'no check fails; unknown: A schedulable node fits the pod (cannot list nodes on cluster local: RBAC (needs list on nodes))',
    },
    { rule: 'all pass', checks: [checks[0]], summary: 'all 1 checks pass' },
  ])('summary: $rule', ({ checks: given, summary }) => {
    expect(preflightSummary(given)).toBe(summary);
  });

  it('the deploy-model template shows the summary on its Review step', async () => {
    await renderReviewStep(loadTemplate('deploy-model').spec.parameters, {
      model: 'component:default/qwen',
      cluster: 'local',
      namespace: 'nowhere',
      preflight: preflightSummary(checks),
    });
    expect(screen.getByText('Preflight')).toBeInTheDocument();
    expect(
      screen.getByText(/1 of 3 checks fail, the deploy would be refused/),
    ).toBeInTheDocument();
  });
});
