import { renderInTestApp } from '@backstage/test-utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import ajvErrors from 'ajv-errors';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  fieldProps,
  loadTemplate,
  renderReviewStep,
} from '../../__testUtils__';
import { EnvEditor, envEditorValidation } from './EnvEditor';

/** The steps of the deploy-model template as the catalog serves it. */
const steps: any[] = loadTemplate('deploy-model').spec.parameters;
const where = steps.find(s => s.title === 'Where');

/** The errors of `formData` on the form step `step`, by the validator the scaffolder's Stepper builds (ajv8 with ajv-errors). */
function formErrors(step: any, formData: Record<string, unknown>): string[] {
  const validator = customizeValidator();
  ajvErrors((validator as any).ajv);
  return validator
    .validateFormData(formData, step)
    .errors.map(e => `${e.property} ${e.message}`);
}

describe('deploy-model template', () => {
  it('the Review step shows env names as typed and booleans as Yes/No', async () => {
    await renderReviewStep(steps, {
      model: 'component:default/qwen',
      cluster: 'local',
      namespace: 'models',
      env: { VLLM_CPU_OMP_THREADS_BIND: 'auto' },
      dryRun: true,
      force: false,
    });
    expect(screen.getByText(/VLLM_CPU_OMP_THREADS_BIND/)).toBeInTheDocument();
    expect(screen.queryByText(/Vllm Cpu Omp/)).not.toBeInTheDocument();
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(screen.getByText('No')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/[\u2705\u274C]/);
  });

  const reviewWhere = (formState: Record<string, unknown>) =>
    renderReviewStep(steps, {
      model: 'component:default/qwen',
      cluster: 'local',
      namespace: 'models',
      dryRun: true,
      ...formState,
    });

  it.each([
    [
      'undefined',
      { serverVersion: undefined, env: undefined, args: undefined },
    ],
    ['empty', { serverVersion: '', env: {}, args: [] }],
  ])(
    'the Review step has no row for a server version, env or flags that are %s',
    async (_case, formState) => {
      await reviewWhere(formState);
      expect(screen.getByText('Namespace')).toBeInTheDocument();
      for (const title of [
        'Server version',
        'Environment variables',
        'Server flags',
      ])
        expect(screen.queryByText(title)).not.toBeInTheDocument();
    },
  );

  it('the Review step shows a server version, env and flags that are set', async () => {
    await reviewWhere({
      serverVersion: '0.19.1',
      env: { MY_VAR: '1' },
      args: ['--max-model-len=8192'],
    });
    expect(screen.getByText('Server version')).toBeInTheDocument();
    expect(screen.getByText('0.19.1')).toBeInTheDocument();
    expect(screen.getByText('Environment variables')).toBeInTheDocument();
    expect(screen.getByText(/MY_VAR/)).toBeInTheDocument();
    expect(screen.getByText('Server flags')).toBeInTheDocument();
    expect(screen.getByText('--max-model-len=8192')).toBeInTheDocument();
  });

  it.each([
    [
      'namespace',
      { namespace: 'Bad_NS' },
      /^\.namespace is not a Kubernetes namespace name; the reason is shown beside it$/,
    ],
    [
      'server version',
      { serverVersion: '../x' },
      /one of the versions the picker lists/,
    ],
  ])(
    'says what a valid %s is in words, not as a pattern',
    (_field, data, message) => {
      const errors = formErrors(where, {
        cluster: 'local',
        namespace: 'models',
        ...data,
      });
      expect(errors).toEqual([expect.stringMatching(message)]);
      expect(errors.join('\n')).not.toMatch(/must match pattern/);
    },
  );

  it('an env value read from a Secret passes the form, and the Review step names the Secret and key', async () => {
    const env = {
      HF_TOKEN: { secretKeyRef: { name: 'hf-token', key: 'token' } },
      MY_VAR: '1',
    };
    expect(
      formErrors(where, { cluster: 'local', namespace: 'models', env }),
    ).toEqual([]);
    // Anything else as a value is not an env value.
    expect(
      formErrors(where, {
        cluster: 'local',
        namespace: 'models',
        env: { X: { secretKeyRef: { name: 'hf-token' } } },
      }),
    ).not.toEqual([]);
    await reviewWhere({ env });
    expect(screen.getByText('hf-token')).toBeInTheDocument();
    expect(screen.getByText('token')).toBeInTheDocument();
  });

  it('env names and args are left to the fields, which say what is wrong in words', () => {
    const errors = formErrors(where, {
      cluster: 'local',
      namespace: 'models',
      env: { 'BAD-NAME': '1' },
      args: ['8192'],
    });
    expect(errors).toEqual([]);
  });
});

describe('rollout-runtime-version template', () => {
  const what = loadTemplate('rollout-runtime-version').spec.parameters[0];

  it.each([
    ['version', { version: '../x' }, /must be a version key of the runtime/],
    [
      'namespace',
      { namespace: 'Bad_NS' },
      /must be a Kubernetes namespace name/,
    ],
  ])(
    'says what a valid %s is in words, not as a pattern',
    (_field, data, message) => {
      const errors = formErrors(what, { runtime: 'vllm', ...data });
      expect(errors).toEqual([expect.stringMatching(message)]);
      expect(errors.join('\n')).not.toMatch(/must match pattern/);
    },
  );
});

describe('EnvEditor', () => {
  it('says that a row with a value but no name has no name, instead of dropping it', async () => {
    const onChange = jest.fn();
    await renderInTestApp(
      <EnvEditor
        {...fieldProps('env', 'Env', { formData: undefined, onChange })}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.change(screen.getByTestId('env-value-0'), {
      target: { value: 'auto' },
    });
    await waitFor(() =>
      expect(
        screen.getByText(/this variable has no name \(its value is 'auto'\)/),
      ).toBeInTheDocument(),
    );
    expect(onChange).toHaveBeenLastCalledWith({ '': 'auto' });
    const errors: string[] = [];
    envEditorValidation(
      { '': 'auto' },
      { addError: (m: string) => errors.push(m) } as any,
      {} as any,
    );
    expect(errors).toEqual([
      'has a variable to fix: the reason is shown beside it',
    ]);
  });
});

describe('templates say Yes/No without the deprecated enumNames warning', () => {
  const booleans = (t: any) =>
    (t.spec.parameters as any[]).flatMap(step =>
      Object.entries<any>(step.properties ?? {})
        .filter(([, p]) => p.type === 'boolean')
        .map(([key, p]) => [t.metadata.name, key, p] as const),
    );
  const all = [
    ...booleans(loadTemplate('deploy-model')),
    ...booleans(loadTemplate('rollout-runtime-version')),
  ];

  // rjsf's optionsList (@rjsf/utils 5.24) warns "enumNames ... is deprecated" unless the uiSchema
  // has ui:enumNames; scaffolder-react 2.1's ReviewState (Backstage 1.55) reads only enumNames.
  it.each(all.map(([t, key, p]) => [`${t} ${key}`, p]))(
    '%s has ui:enumNames for the form and enumNames for the Review step, both Yes/No',
    (_, p: any) => {
      expect(p.enum).toEqual([true, false]);
      expect(p['ui:enumNames']).toEqual(['Yes', 'No']);
      expect(p.enumNames).toEqual(['Yes', 'No']);
    },
  );

  it('the rollout Review step says Yes/No, not a glyph', async () => {
    const rollout = loadTemplate('rollout-runtime-version');
    await renderReviewStep(rollout.spec.parameters, {
      runtime: 'vllm',
      includeHeld: false,
      force: false,
      dryRun: true,
    });
    expect(screen.getAllByText('No')).toHaveLength(2);
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/[\u2705\u274C]/);
  });

  it('the deploy Cluster is a picker of the configured clusters, not free text', () => {
    expect(where.properties.cluster['ui:field']).toBe('ModelClusterPicker');
  });
});
