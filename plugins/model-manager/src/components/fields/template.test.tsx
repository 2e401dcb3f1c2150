import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { renderInTestApp } from '@backstage/test-utils';
import { ReviewState } from '@backstage/plugin-scaffolder-react/alpha';
import { customizeValidator } from '@rjsf/validator-ajv8';
import ajvErrors from 'ajv-errors';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { EnvEditor, envEditorValidation } from './EnvEditor';

/** The deploy-model template as the catalog serves it. */
const template = parse(
  readFileSync(
    path.resolve(
      __dirname,
      '../../../../../templates/deploy-model/template.yaml',
    ),
    'utf8',
  ),
);
const steps: any[] = template.spec.parameters;
const where = steps.find(s => s.title === 'Where');

/** The form's validator as the scaffolder's Stepper builds it (ajv8 with ajv-errors). */
function formErrors(formData: Record<string, unknown>): string[] {
  const validator = customizeValidator();
  ajvErrors((validator as any).ajv);
  return validator
    .validateFormData(formData, where)
    .errors.map(e => `${e.property} ${e.message}`);
}

describe('deploy-model template', () => {
  it('the Review step shows env names as typed and booleans as Yes/No', async () => {
    await renderInTestApp(
      <ReviewState
        schemas={steps.map(step => ({
          title: step.title,
          schema: step,
          uiSchema: {},
          mergedSchema: step,
        }))}
        formState={{
          model: 'component:default/qwen',
          cluster: 'local',
          namespace: 'models',
          env: { VLLM_CPU_OMP_THREADS_BIND: 'auto' },
          dryRun: true,
          force: false,
        }}
      />,
    );
    expect(screen.getByText(/VLLM_CPU_OMP_THREADS_BIND/)).toBeInTheDocument();
    expect(screen.queryByText(/Vllm Cpu Omp/)).not.toBeInTheDocument();
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(screen.getByText('No')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/[\u2705\u274C]/);
  });

  it.each([
    [
      'namespace',
      { namespace: 'Bad_NS' },
      /must be a Kubernetes namespace name/,
    ],
    [
      'server version',
      { serverVersion: '../x' },
      /one of the versions the picker lists/,
    ],
  ])(
    'says what a valid %s is in words, not as a pattern',
    (_field, data, message) => {
      const errors = formErrors({
        cluster: 'local',
        namespace: 'models',
        ...data,
      });
      expect(errors).toEqual([expect.stringMatching(message)]);
      expect(errors.join('\n')).not.toMatch(/must match pattern/);
    },
  );

  it('env names and args are left to the fields, which say what is wrong in words', () => {
    const errors = formErrors({
      cluster: 'local',
      namespace: 'models',
      env: { 'BAD-NAME': '1' },
      args: ['8192'],
    });
    expect(errors).toEqual([]);
  });
});

describe('EnvEditor', () => {
  it('says that a row with a value but no name has no name, instead of dropping it', async () => {
    const onChange = jest.fn();
    await renderInTestApp(
      <EnvEditor
        {...({
          schema: { title: 'Env' },
          formData: undefined,
          onChange,
        } as any)}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.change(screen.getByTestId('env-value-0'), {
      target: { value: 'auto' },
    });
    await waitFor(() =>
      expect(
        screen.getByText(/the value 'auto' has no name/),
      ).toBeInTheDocument(),
    );
    expect(onChange).toHaveBeenLastCalledWith({ '': 'auto' });
    const errors: string[] = [];
    envEditorValidation(
      { '': 'auto' },
      { addError: (m: string) => errors.push(m) } as any,
      {} as any,
    );
    expect(errors).toEqual([expect.stringMatching(/has no name/)]);
  });
});
