import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ModelManagerApi } from '../../api';
import {
  fieldProps,
  loadTemplate,
  renderReviewStep,
  renderWithApi,
  withApi,
} from '../../__testUtils__';
import {
  PreflightChecks,
  preflightChecksValidation,
  preflightSummary,
  SKIP_PREFLIGHT_LABEL,
} from './PreflightChecks';

const FORM = {
  model: 'component:default/qwen',
  cluster: 'local',
  namespace: 'nowhere',
  serverVersion: '0.19.1',
  args: ['--max-model-len=4096'],
  env: {},
};

/** The errors the field's validation adds for a value. */
function errorsFor(value: string | undefined): string[] {
  const errors: string[] = [];
  preflightChecksValidation(value, { addError: m => errors.push(m) });
  return errors;
}

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
          formContext: { formData: FORM },
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
    {
      rule: 'a fail with "Deploy even if a preflight check fails" ticked: the deploy goes ahead',
      checks,
      skip: true,
      summary:
        '1 of 3 checks fail, the deploy goes ahead ("Deploy even if a preflight check fails" is ticked): The namespace exists (namespace nowhere does not exist on cluster local)',
    },
  ])('summary: $rule', ({ checks: given, skip, summary }) => {
    expect(preflightSummary(given, skip)).toBe(summary);
  });

  it('blocks the step while a check fails and the deploy would be refused; not once the box is ticked, nor while checking or when it could not check', () => {
    expect(errorsFor(preflightSummary(checks))).toEqual([
      'a preflight check fails, so the deploy (a dry run too) would be refused and nothing applied. Fix it as the check says and press Check again, or tick "Deploy even if a preflight check fails"',
    ]);
    expect(errorsFor(preflightSummary(checks, true))).toEqual([]);
    expect(errorsFor(preflightSummary([checks[0], checks[2]]))).toEqual([]);
    expect(
      errorsFor(
        'still checking; the deploy runs the checks itself and refuses a failed one',
      ),
    ).toEqual([]);
    expect(errorsFor('not checked: 503 Service Unavailable')).toEqual([]);
    expect(errorsFor(undefined)).toEqual([]);
  });

  it('names the template\u2019s checkbox as the template titles it', () => {
    const where = loadTemplate('deploy-model').spec.parameters.find(
      (p: any) => p.properties?.skipPreflight,
    );
    expect(where.properties.skipPreflight.title).toBe(SKIP_PREFLIGHT_LABEL);
  });

  it('ticking "Deploy even if a preflight check fails" changes the summary without asking again; "Check again" asks again', async () => {
    const answers = [checks, [checks[0]]];
    let asked = 0;
    const preflight = jest.fn(async () => ({
      model: 'qwen',
      cluster: 'local',
      namespace: 'nowhere',
      checks: answers[Math.min(asked++, 1)],
    }));
    const onChange = jest.fn();
    const field = (skipPreflight: boolean) => (
      <PreflightChecks
        {...fieldProps('preflight', 'Preflight', {
          onChange,
          formContext: { formData: { ...FORM, skipPreflight } },
        })}
      />
    );
    const api = { preflight } as unknown as ModelManagerApi;
    const { rerender } = await renderWithApi(api, field(false));
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith(preflightSummary(checks)),
    );
    rerender(withApi(api, field(true)));
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith(preflightSummary(checks, true)),
    );
    expect(preflight).toHaveBeenCalledTimes(1);

    // The namespace was created meanwhile: asked again, every check passes.
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith(preflightSummary([checks[0]])),
    );
    expect(preflight).toHaveBeenCalledTimes(2);
    expect(screen.queryByText('Fails')).not.toBeInTheDocument();
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
