import { renderInTestApp } from '@backstage/test-utils';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ModelManagerApi } from '../../api';
import {
  FIELD_RUNTIMES,
  fieldProps,
  onModel,
  withApi,
} from '../../__testUtils__';
import { ArgsEditor, argsEditorValidation } from './ArgsEditor';
import { EnvEditor, envEditorValidation } from './EnvEditor';
import { modelNameOf, ServerVersionPicker } from './ServerVersionPicker';

const api = {
  getModel: async (name: string) => ({
    name,
    runtime: name.endsWith('-ov') ? 'openvino' : 'vllm',
    pinnedVersion: name === 'llama' ? '0.19.1' : undefined,
  }),
  getRuntime: async (name: string) => FIELD_RUNTIMES[name],
} as unknown as ModelManagerApi;

/** The server version field, as the form mounts it, with `extra` (formData, onChange, formContext). */
const versionField = (extra: Record<string, unknown>) =>
  withApi(
    api,
    <ServerVersionPicker
      {...fieldProps('serverVersion', 'Server version', extra)}
    />,
  );

/** The flags field, as the form mounts it, with `extra`. */
const argsField = (extra: Record<string, unknown>) =>
  withApi(api, <ArgsEditor {...fieldProps('args', 'Args', extra)} />);

describe('ServerVersionPicker', () => {
  it('reads the model name from an entity ref', () => {
    expect(modelNameOf('component:default/qwen')).toBe('qwen');
    expect(modelNameOf('qwen')).toBe('qwen');
    expect(modelNameOf(undefined)).toBeUndefined();
  });

  it("lists the runtime's versions with the default marked", async () => {
    await renderInTestApp(versionField(onModel('llama')));
    expect(
      await screen.findByText(/Leave empty to use the model/),
    ).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('button'));
    expect(await screen.findByText(/0\.24\.0 \(default\)/)).toBeInTheDocument();
    expect(
      screen.getByText(/0\.19\.1 \(pinned by the model\)/),
    ).toBeInTheDocument();
  });

  it('is disabled for OpenVINO and says why', async () => {
    await renderInTestApp(versionField(onModel('bge-ov')));
    expect(
      await screen.findByText(
        'openvino is a flat runtime: it has no versions, so a server version does not apply.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button')).toHaveAttribute('aria-disabled', 'true');
  });

  it('clears a version picked for a vLLM model when the model becomes an OpenVINO one, so it is not submitted', async () => {
    const onChange = jest.fn();
    await renderInTestApp(
      versionField({
        formData: '0.19.1',
        onChange,
        ...onModel('bge-ov'),
      }),
    );
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(undefined));
    expect(screen.getByRole('button')).toHaveAttribute('aria-disabled', 'true');
  });

  it("keeps a version the new model's runtime lists, and clears one it does not list (no out-of-range value)", async () => {
    const warn = jest.spyOn(console, 'warn');
    const keep = jest.fn();
    const { unmount } = await renderInTestApp(
      versionField({
        formData: '0.19.1',
        onChange: keep,
        ...onModel('qwen'),
      }),
    );
    expect(
      await screen.findByText(/0\.19\.1 — vllm:0\.19\.1/),
    ).toBeInTheDocument();
    expect(keep).not.toHaveBeenCalled();
    unmount();
    const clear = jest.fn();
    await renderInTestApp(
      versionField({
        formData: '0.9.9',
        onChange: clear,
        ...onModel('qwen'),
      }),
    );
    await waitFor(() => expect(clear).toHaveBeenCalledWith(undefined));
    expect(
      warn.mock.calls.filter(c => String(c[0]).includes('out-of-range')),
    ).toEqual([]);
    warn.mockRestore();
  });

  it('asks for a model first', async () => {
    await renderInTestApp(versionField({ formContext: { formData: {} } }));
    expect(screen.getByText('Pick a model first.')).toBeInTheDocument();
  });
});

describe('EnvEditor and ArgsEditor validate as the engine does', () => {
  const collect = (
    validate: (errors: { addError(m: string): void }) => void,
  ) => {
    const errors: string[] = [];
    validate({ addError: (m: string) => errors.push(m) });
    return errors;
  };

  it('says beside the name that it is not a C identifier, and emits the map', async () => {
    const onChange = jest.fn();
    await renderInTestApp(
      <EnvEditor
        {...fieldProps('env', 'Env', { formData: { GOOD: '1' }, onChange })}
      />,
    );
    fireEvent.change(screen.getByTestId('env-name-0'), {
      target: { value: 'BAD-NAME' },
    });
    const message = await screen.findByText(
      "env name 'BAD-NAME' is not a C identifier (letters, digits, _; not starting with a digit)",
    );
    // Beside the name (the TextField's helper text), once, without the dotted path.
    expect(screen.getByTestId('env-name-0')).toHaveAttribute(
      'aria-describedby',
      message.id,
    );
    expect(screen.getAllByText(/is not a C identifier/)).toHaveLength(1);
    expect(document.body.textContent).not.toMatch(/env\.BAD-NAME/);
    expect(onChange).toHaveBeenLastCalledWith({ 'BAD-NAME': '1' });
  });

  it('says beside the value that it must be one line', async () => {
    await renderInTestApp(
      <EnvEditor {...fieldProps('env', 'Env', { formData: { OK: 'y\nz' } })} />,
    );
    const message = await screen.findByText(/env value must be a single line/);
    expect(screen.getByTestId('env-value-0')).toHaveAttribute(
      'aria-describedby',
      message.id,
    );
  });

  it('reads a variable from a Secret: the row emits a secretKeyRef, and checks the Secret name and key', async () => {
    const onChange = jest.fn();
    await renderInTestApp(
      <EnvEditor {...fieldProps('env', 'Env', { formData: {}, onChange })} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.change(screen.getByTestId('env-name-0'), {
      target: { value: 'HF_TOKEN' },
    });
    fireEvent.change(screen.getByTestId('env-source-0'), {
      target: { value: 'secret' },
    });
    expect(screen.queryByTestId('env-value-0')).not.toBeInTheDocument();
    fireEvent.change(screen.getByTestId('env-secret-name-0'), {
      target: { value: 'HF_Token' },
    });
    // Said beside the Secret's name, as kube-apiserver takes names.
    const message = await screen.findByText(
      /'HF_Token' is not a valid Secret name: a DNS-1123 subdomain/,
    );
    expect(screen.getByTestId('env-secret-name-0')).toHaveAttribute(
      'aria-describedby',
      message.id,
    );
    expect(
      screen.getByText(/key must be a key of the Secret/),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('env-secret-name-0'), {
      target: { value: 'hf-token' },
    });
    fireEvent.change(screen.getByTestId('env-secret-key-0'), {
      target: { value: 'token' },
    });
    expect(onChange).toHaveBeenLastCalledWith({
      HF_TOKEN: { secretKeyRef: { name: 'hf-token', key: 'token' } },
    });
    expect(screen.queryByText(/is not a valid|must be a key/)).toBeNull();
    expect(screen.queryByText(/credential/)).toBeNull();
  });

  it('opens a secretKeyRef of the form data (a "Deploy for real" link) as a Secret row', async () => {
    await renderInTestApp(
      <EnvEditor
        {...fieldProps('env', 'Env', {
          formData: {
            HF_TOKEN: { secretKeyRef: { name: 'hf-token', key: 'token' } },
          },
        })}
      />,
    );
    expect(screen.getByTestId('env-source-0')).toHaveValue('secret');
    expect(screen.getByTestId('env-secret-name-0')).toHaveValue('hf-token');
    expect(screen.getByTestId('env-secret-key-0')).toHaveValue('token');
  });

  it.each([
    ['a credential name', { HF_TOKEN: 'abc' }, /^HF_TOKEN names a credential/],
    [
      'a value shaped like a token',
      { MY_VAR: 'hf_abcdefghijklmnopqrstuvwxyz' },
      /^this value looks like a credential/,
    ],
  ])(
    'refuses %s typed in once, beside the value, pointing at "From a Secret"',
    async (_case, formData, start) => {
      await renderInTestApp(
        <EnvEditor {...fieldProps('env', 'Env', { formData })} />,
      );
      const message = screen.getByText(start);
      expect(message.textContent).toMatch(
        /a deploy never carries a secret's value .*choose "From a Secret" and give the Secret's name and key/,
      );
      expect(screen.getByTestId('env-value-0')).toHaveAttribute(
        'aria-describedby',
        message.id,
      );
      // Once, and never about a variable called VALUE.
      expect(screen.getAllByText(/credential/)).toHaveLength(1);
      expect(document.body.textContent).not.toMatch(/\bVALUE\b/);
    },
  );

  it('says that a name set again in a later row is replaced by it', async () => {
    await renderInTestApp(
      <EnvEditor {...fieldProps('env', 'Env', { formData: {} })} />,
    );
    for (const [i, value] of ['1', '2'].entries()) {
      fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
      fireEvent.change(screen.getByTestId(`env-name-${i}`), {
        target: { value: 'MY_VAR' },
      });
      fireEvent.change(screen.getByTestId(`env-value-${i}`), {
        target: { value },
      });
    }
    expect(
      await screen.findByText(
        'MY_VAR is set again in row 2, whose value is used',
      ),
    ).toBeInTheDocument();
  });

  it('blocks the step with one line naming how many variables to fix (the words are beside them)', () => {
    expect(
      collect(v =>
        envEditorValidation({ 'A-B': 'x', OK: 'y\nz' }, v as any, {} as any),
      ),
    ).toEqual(['has 2 variables to fix: the reason is shown beside each']);
    expect(
      collect(v => envEditorValidation({ '': 'auto' }, v as any, {} as any)),
    ).toEqual(['has a variable to fix: the reason is shown beside it']);
    expect(
      collect(v => envEditorValidation({ OK: '1' }, v as any, {} as any)),
    ).toEqual([]);
    expect(
      collect(v =>
        envEditorValidation(
          {
            HF_TOKEN: 'typed-in',
            OK: { secretKeyRef: { name: 'hf-token', key: '' } },
            GOOD: { secretKeyRef: { name: 'hf-token', key: 'token' } },
          },
          v as any,
          {} as any,
        ),
      ),
    ).toEqual(['has 2 variables to fix: the reason is shown beside each']);
    expect(
      collect(v => envEditorValidation(undefined, v as any, {} as any)),
    ).toEqual([]);
  });

  it('says beside a flag that it is not one', async () => {
    await renderInTestApp(argsField({ formData: ['8192'] }));
    const message = screen.getByText(
      "'8192' is not a flag; each arg is one flag such as --max-model-len=8192",
    );
    expect(screen.getByTestId('arg-0')).toHaveAttribute(
      'aria-describedby',
      message.id,
    );
    expect(document.body.textContent).not.toMatch(/args\[0\]/);
  });

  it('says an empty flag is empty once the step was tried, not while it is being added', async () => {
    const { rerender } = await renderInTestApp(argsField({ formData: [''] }));
    expect(screen.queryByText(/this flag is empty/)).not.toBeInTheDocument();
    rerender(
      argsField({
        formData: [''],
        rawErrors: ['has a flag to fix: the reason is shown beside it'],
      }),
    );
    expect(screen.getByText(/this flag is empty/)).toBeInTheDocument();
  });

  it('blocks the step with one line naming how many flags to fix', async () => {
    const collectAsync = async (
      validate: (errors: { addError(m: string): void }) => unknown,
    ) => {
      const errors: string[] = [];
      await validate({ addError: (m: string) => errors.push(m) });
      return errors;
    };
    expect(
      await collectAsync(v =>
        argsEditorValidation(
          ['--ok=1', '--bad=1\n--x', ''],
          v as any,
          {} as any,
        ),
      ),
    ).toEqual(['has 2 flags to fix: the reason is shown beside each']);
    expect(
      await collectAsync(v =>
        argsEditorValidation(['--ok=1'], v as any, {} as any),
      ),
    ).toEqual([]);
  });
});
