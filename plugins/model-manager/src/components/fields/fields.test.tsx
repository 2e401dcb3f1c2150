import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { modelManagerApiRef, type ModelManagerApi } from '../../api';
import { ArgsEditor, argsEditorValidation } from './ArgsEditor';
import { EnvEditor, envEditorValidation } from './EnvEditor';
import { modelNameOf, ServerVersionPicker } from './ServerVersionPicker';

const runtimes: Record<string, any> = {
  vllm: {
    name: 'vllm',
    versioned: true,
    defaultVersion: '0.24.0',
    versions: [
      { version: '0.24.0', image: 'vllm:0.24.0', default: true },
      { version: '0.19.1', image: 'vllm:0.19.1', default: false },
    ],
  },
  openvino: { name: 'openvino', versioned: false, versions: [] },
};
const api = {
  getModel: async (name: string) => ({
    name,
    runtime: name.endsWith('-ov') ? 'openvino' : 'vllm',
    pinnedVersion: name === 'llama' ? '0.19.1' : undefined,
  }),
  getRuntime: async (name: string) => runtimes[name],
} as unknown as ModelManagerApi;

const fieldProps = (extra: Record<string, unknown>) =>
  ({
    schema: { title: 'Server version' },
    idSchema: { $id: 'root_serverVersion' },
    uiSchema: {},
    rawErrors: [],
    onChange: jest.fn(),
    ...extra,
  } as any);

describe('ServerVersionPicker', () => {
  it('reads the model name from an entity ref', () => {
    expect(modelNameOf('component:default/qwen')).toBe('qwen');
    expect(modelNameOf('qwen')).toBe('qwen');
    expect(modelNameOf(undefined)).toBeUndefined();
  });

  it("lists the runtime's versions with the default marked", async () => {
    await renderInTestApp(
      <TestApiProvider apis={[[modelManagerApiRef, api]]}>
        <ServerVersionPicker
          {...fieldProps({
            formContext: { formData: { model: 'component:default/llama' } },
          })}
        />
      </TestApiProvider>,
    );
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
    await renderInTestApp(
      <TestApiProvider apis={[[modelManagerApiRef, api]]}>
        <ServerVersionPicker
          {...fieldProps({
            formContext: { formData: { model: 'component:default/bge-ov' } },
          })}
        />
      </TestApiProvider>,
    );
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
      <TestApiProvider apis={[[modelManagerApiRef, api]]}>
        <ServerVersionPicker
          {...fieldProps({
            formData: '0.19.1',
            onChange,
            formContext: { formData: { model: 'component:default/bge-ov' } },
          })}
        />
      </TestApiProvider>,
    );
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(undefined));
    expect(screen.getByRole('button')).toHaveAttribute('aria-disabled', 'true');
  });

  it("keeps a version the new model's runtime lists, and clears one it does not list (no out-of-range value)", async () => {
    const warn = jest.spyOn(console, 'warn');
    const keep = jest.fn();
    const { unmount } = await renderInTestApp(
      <TestApiProvider apis={[[modelManagerApiRef, api]]}>
        <ServerVersionPicker
          {...fieldProps({
            formData: '0.19.1',
            onChange: keep,
            formContext: { formData: { model: 'component:default/qwen' } },
          })}
        />
      </TestApiProvider>,
    );
    expect(
      await screen.findByText(/0\.19\.1 — vllm:0\.19\.1/),
    ).toBeInTheDocument();
    expect(keep).not.toHaveBeenCalled();
    unmount();
    const clear = jest.fn();
    await renderInTestApp(
      <TestApiProvider apis={[[modelManagerApiRef, api]]}>
        <ServerVersionPicker
          {...fieldProps({
            formData: '0.9.9',
            onChange: clear,
            formContext: { formData: { model: 'component:default/qwen' } },
          })}
        />
      </TestApiProvider>,
    );
    await waitFor(() => expect(clear).toHaveBeenCalledWith(undefined));
    expect(
      warn.mock.calls.filter(c => String(c[0]).includes('out-of-range')),
    ).toEqual([]);
    warn.mockRestore();
  });

  it('asks for a model first', async () => {
    await renderInTestApp(
      <TestApiProvider apis={[[modelManagerApiRef, api]]}>
        <ServerVersionPicker
          {...fieldProps({ formContext: { formData: {} } })}
        />
      </TestApiProvider>,
    );
    expect(screen.getByText('Pick a model first.')).toBeInTheDocument();
  });
});

describe('EnvEditor and ArgsEditor validate as the engine does', () => {
  it('flags an env name that is not a C identifier and emits the map', async () => {
    const onChange = jest.fn();
    await renderInTestApp(
      <EnvEditor
        {...fieldProps({
          schema: { title: 'Env' },
          formData: { GOOD: '1' },
          onChange,
        })}
      />,
    );
    fireEvent.change(screen.getByTestId('env-name-0'), {
      target: { value: 'BAD-NAME' },
    });
    await waitFor(() =>
      expect(
        screen.getByText(/env name 'BAD-NAME' is not a C identifier/),
      ).toBeInTheDocument(),
    );
    expect(onChange).toHaveBeenLastCalledWith({ 'BAD-NAME': '1' });
    const errors: string[] = [];
    envEditorValidation(
      { 'A-B': 'x', OK: 'y\nz' },
      { addError: (m: string) => errors.push(m) } as any,
      {} as any,
    );
    expect(errors).toEqual([
      expect.stringMatching(/A-B.*not a C identifier/),
      expect.stringMatching(/env value must be a single line/),
    ]);
  });

  it('flags an arg that is not a flag', async () => {
    await renderInTestApp(
      <ArgsEditor
        {...fieldProps({ schema: { title: 'Args' }, formData: ['8192'] })}
      />,
    );
    expect(screen.getByText(/'8192' is not a flag/)).toBeInTheDocument();
    const errors: string[] = [];
    argsEditorValidation(
      ['--ok=1', '--bad=1\n--x'],
      { addError: (m: string) => errors.push(m) } as any,
      {} as any,
    );
    expect(errors).toEqual([
      expect.stringMatching(/args\[1\]: arg must be a single line/),
    ]);
  });
});
