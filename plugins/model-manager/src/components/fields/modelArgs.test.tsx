import { renderInTestApp } from '@backstage/test-utils';
import { screen, waitFor } from '@testing-library/react';
import type { ModelManagerApi } from '../../api';
import {
  FIELD_RUNTIMES,
  fieldProps,
  onModel,
  withApi,
} from '../../__testUtils__';
import { ArgsEditor, argsEditorValidation } from './ArgsEditor';
import { forPortalUser } from './modelArgs';
import { ServerVersionPicker } from './ServerVersionPicker';

// What the backend answers for a MoE-only flag sent as a request override: the resolver's
// checkArg message, formatted by formatProblem with an empty file (the request layer), as the
// router's InputError body carries it.
const MOE_ONLY =
  '--enable-expert-parallel is a MoE-only flag and crashes dense models; model qwen is not marked moe: true. Remove --enable-expert-parallel from this layer, or set moe: true on the model if it is a mixture-of-experts model';

function makeApi() {
  const resolve = jest.fn(
    async (name: string, overrides: { args?: string[] }) => {
      const lines = (overrides.args ?? []).flatMap((a, i) =>
        a.startsWith('--enable-expert-parallel') && name !== 'mixtral'
          ? [`: args[${i}]: ${MOE_ONLY.replace(/qwen/, name)}`]
          : [],
      );
      if (lines.length) {
        throw Object.assign(new Error('Request failed with 400'), {
          body: { error: { name: 'InputError', message: lines.join('\n') } },
        });
      }
      return { server: {}, explain: [] };
    },
  );
  const api = {
    getModel: async (name: string) => ({
      name,
      runtime: name.endsWith('-ov') ? 'openvino' : 'vllm',
      owner: 'group:default/llm-team',
      moe: name === 'mixtral',
    }),
    getRuntime: async (name: string) => FIELD_RUNTIMES[name],
    resolve,
  } as unknown as ModelManagerApi;
  return { api, resolve };
}

/** The flags field as the Where step mounts it, with `extra` (formData, onChange, formContext). */
const flagsField = (api: ModelManagerApi, extra: Record<string, unknown>) =>
  withApi(api, <ArgsEditor {...fieldProps('args', 'Server flags', extra)} />);

/** The flags field as the Where step mounts it, for `model`, with `args` typed. */
const argsField = (
  api: ModelManagerApi,
  model: string,
  args: string[],
  onChange: jest.Mock,
) => flagsField(api, { formData: args, onChange, ...onModel(model) });

describe('the flags field knows the chosen model', () => {
  it('refuses a MoE-only flag on a dense model beside the row, naming who can change that and where', async () => {
    const { api } = makeApi();
    await renderInTestApp(
      flagsField(api, {
        formData: ['--max-model-len=4096', '--enable-expert-parallel'],
        ...onModel('qwen'),
      }),
    );
    const message = await screen.findByText(/is a MoE-only flag/);
    expect(message.textContent).toContain(
      "Only the model's owner (group:default/llm-team) can mark it a mixture-of-experts model, with moe: true on the model in models.yaml",
    );
    expect(message.textContent).not.toMatch(/or set moe: true/);
    expect(screen.getByTestId('arg-1')).toHaveAttribute(
      'aria-describedby',
      message.id,
    );
    // The first flag is fine: nothing is said beside it.
    expect(
      screen.getByTestId('arg-0').getAttribute('aria-describedby'),
    ).toBeNull();
  });

  it('accepts the same flag on a model marked moe: true', async () => {
    const { api, resolve } = makeApi();
    await renderInTestApp(
      flagsField(api, {
        formData: ['--enable-expert-parallel'],
        ...onModel('mixtral'),
      }),
    );
    await waitFor(() =>
      expect(resolve).toHaveBeenCalledWith('mixtral', {
        args: ['--enable-expert-parallel'],
      }),
    );
    expect(screen.queryByText(/MoE-only/)).not.toBeInTheDocument();
  });

  it('blocks the step when the model refuses a flag (the validator asks the backend too)', async () => {
    const { api } = makeApi();
    const errors: string[] = [];
    const context = (model: string) =>
      ({
        apiHolder: { get: () => api },
        formData: { model: `component:default/${model}` },
      } as any);
    await argsEditorValidation(
      ['--enable-expert-parallel'],
      { addError: (m: string) => errors.push(m) } as any,
      context('qwen'),
    );
    expect(errors).toEqual([
      'has a flag to fix: the reason is shown beside it',
    ]);
    errors.length = 0;
    await argsEditorValidation(
      ['--enable-expert-parallel'],
      { addError: (m: string) => errors.push(m) } as any,
      context('mixtral'),
    );
    expect(errors).toEqual([]);
  });

  it('clears flags typed for a vLLM model when the model becomes an OpenVINO one, and says so beside the field', async () => {
    const { api } = makeApi();
    const first = jest.fn();
    const { unmount } = await renderInTestApp(
      argsField(api, 'qwen', ['--max-model-len=4097'], first),
    );
    await waitFor(() => expect(api.resolve).toHaveBeenCalled());
    expect(first).not.toHaveBeenCalled();
    unmount();
    // The user goes back to the Model step and picks an OpenVINO model: the Where step mounts again.
    const second = jest.fn();
    await renderInTestApp(
      argsField(api, 'phi-ov', ['--max-model-len=4097'], second),
    );
    await waitFor(() => expect(second).toHaveBeenCalledWith(undefined));
    expect(screen.getByTestId('args-cleared')).toHaveTextContent(
      "Cleared --max-model-len=4097: typed for a vllm model, and phi-ov runs on openvino, whose server does not read vllm's flags.",
    );
  });

  it('clears them again when another field of the step writes the old flags back in the same commit', async () => {
    const { api } = makeApi();
    const { unmount } = await renderInTestApp(
      argsField(api, 'qwen', ['--max-model-len=4098'], jest.fn()),
    );
    await waitFor(() => expect(api.resolve).toHaveBeenCalled());
    unmount();
    // On the OpenVINO model our clearing is lost: the version picker's change, built by rjsf from
    // the form data it last rendered, puts the flags back, and the step renders again with them.
    const lost = jest.fn();
    const field = (onChange: jest.Mock, version?: string) =>
      flagsField(api, {
        formData: ['--max-model-len=4098'],
        onChange,
        formContext: {
          formData: { model: 'component:default/phi-ov', version },
        },
      });
    const { rerender } = await renderInTestApp(field(lost, '0.19.1'));
    await waitFor(() => expect(lost).toHaveBeenCalledWith(undefined));
    const again = jest.fn();
    rerender(field(again));
    await waitFor(() => expect(again).toHaveBeenCalledWith(undefined));
  });

  it('keeps flags when the new model runs on the same runtime, and checks them against it', async () => {
    const { api, resolve } = makeApi();
    const first = jest.fn();
    const { unmount } = await renderInTestApp(
      argsField(api, 'mixtral', ['--enable-expert-parallel'], first),
    );
    await waitFor(() => expect(resolve).toHaveBeenCalled());
    unmount();
    const second = jest.fn();
    await renderInTestApp(
      argsField(api, 'qwen', ['--enable-expert-parallel'], second),
    );
    expect(await screen.findByText(/is a MoE-only flag/)).toBeInTheDocument();
    expect(second).not.toHaveBeenCalled();
    expect(first).not.toHaveBeenCalled();
    expect(screen.queryByTestId('args-cleared')).not.toBeInTheDocument();
  });

  it('leaves messages that carry no models.yaml advice as they are', () => {
    expect(forPortalUser('--x takes a value', 'me')).toBe('--x takes a value');
  });
});

describe('the server version field says what it cleared', () => {
  it('names the version and why when the model becomes an OpenVINO one', async () => {
    const { api } = makeApi();
    const onChange = jest.fn();
    await renderInTestApp(
      withApi(
        api,
        <ServerVersionPicker
          {...fieldProps('serverVersion', 'Server version', {
            formData: '0.19.1',
            onChange,
            ...onModel('phi-ov'),
          })}
        />,
      ),
    );
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(undefined));
    expect(screen.getByTestId('server-version-cleared')).toHaveTextContent(
      'Cleared 0.19.1: phi-ov runs on openvino, a flat runtime without versions.',
    );
  });
});
