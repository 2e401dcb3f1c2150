import { renderInTestApp } from '@backstage/test-utils';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  fakeApi,
  FIELD_RUNTIMES,
  fieldProps,
  loadTemplate,
  renderWithApi,
  withApi,
} from '../../__testUtils__';
import { ClusterPicker } from './ClusterPicker';
import { NamespacePicker } from './NamespacePicker';
import { RuntimePicker, runtimePickerValidation } from './RuntimePicker';
import { ServerVersionPicker } from './ServerVersionPicker';

/** The rollout form's fields: runtimes vllm (two versions) and openvino (flat). */
const api = fakeApi({
  listRuntimes: async () => Object.values(FIELD_RUNTIMES),
  getRuntime: async (name: string) => FIELD_RUNTIMES[name],
});
const onRuntime = (runtime?: string) => ({
  formContext: { formData: runtime ? { runtime } : {} },
  uiSchema: { 'ui:options': { runtimeField: 'runtime' } },
});
const versionField = (extra: Record<string, unknown>) =>
  withApi(
    api,
    <ServerVersionPicker {...fieldProps('version', 'Version', extra)} />,
  );
const optional = (emptyLabel: string, extra: Record<string, unknown> = {}) => ({
  required: false,
  uiSchema: { 'ui:options': { emptyLabel } },
  ...extra,
});

describe('the rollout form: pickers, not free text', () => {
  it('the template picks the runtime, its version, the cluster and the namespace', () => {
    const what = loadTemplate('rollout-runtime-version').spec.parameters[0]
      .properties;
    expect(what.runtime['ui:field']).toBe('ModelRuntimePicker');
    expect(what.version['ui:field']).toBe('ModelServerVersionPicker');
    expect(what.version['ui:options']).toEqual({ runtimeField: 'runtime' });
    expect(what.cluster['ui:field']).toBe('ModelClusterPicker');
    expect(what.cluster['ui:options'].emptyLabel).toBe('every cluster');
    expect(what.namespace['ui:field']).toBe('ModelNamespacePicker');
    expect(what.namespace['ui:options'].emptyLabel).toBe('every namespace');
  });

  it('RuntimePicker offers the runtimes of models.yaml with their versions, or flat', async () => {
    const onChange = jest.fn();
    await renderWithApi(
      api,
      <RuntimePicker
        {...fieldProps('runtime', 'Runtime', {
          required: true,
          formData: 'vllm',
          onChange,
        })}
      />,
    );
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    const select = await screen.findByRole('button', { name: /^Runtime/ });
    await waitFor(() => expect(select).toHaveTextContent(/^vllm/));
    fireEvent.mouseDown(select);
    const options = await screen.findAllByRole('option');
    expect(options.map(o => o.textContent)).toEqual([
      'vllm — versions 0.24.0, 0.19.1 (default 0.24.0)',
      'openvino — flat (no versions)',
    ]);
    fireEvent.click(options[1]);
    expect(onChange).toHaveBeenCalledWith('openvino');
  });

  it('RuntimePicker says beside the field that a runtime from a link is not in models.yaml, and the step is blocked', async () => {
    await renderWithApi(
      api,
      <RuntimePicker
        {...fieldProps('runtime', 'Runtime', {
          required: true,
          formData: 'tgi',
        })}
      />,
    );
    expect(
      await screen.findByText(
        'tgi (from the link) is not a runtime of models.yaml; pick one of vllm, openvino.',
      ),
    ).toBeInTheDocument();
    const errors: string[] = [];
    for (const value of ['tgi', 'vllm'])
      await runtimePickerValidation(
        value,
        { addError: m => errors.push(`${value}: ${m}`) },
        { apiHolder: { get: () => api } },
      );
    expect(errors).toEqual([
      'tgi: is not a runtime of models.yaml; the reason is shown beside it',
    ]);
  });

  it("the version lists the picked runtime's versions; empty says what models.yaml resolves now", async () => {
    const onChange = jest.fn();
    await renderInTestApp(versionField({ onChange, ...onRuntime('vllm') }));
    // Empty is shown in words, not as a blank box.
    const select = await screen.findByRole('button', { name: /^Version/ });
    await waitFor(() =>
      expect(select).toHaveTextContent(
        "what models.yaml resolves now: each model's pin, else the default (0.24.0)",
      ),
    );
    fireEvent.mouseDown(select);
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map(o => o.textContent),
    ).toEqual([
      "what models.yaml resolves now: each model's pin, else the default (0.24.0)",
      '0.24.0 (default) — vllm:0.24.0',
      '0.19.1 — vllm:0.19.1',
    ]);
    fireEvent.click(within(listbox).getByText(/^0\.19\.1/));
    expect(onChange).toHaveBeenCalledWith('0.19.1');
  });

  it('the version is disabled for a flat runtime, and a version from a link it does not list is cleared, saying so', async () => {
    const onChange = jest.fn();
    await renderInTestApp(
      versionField({ formData: '0.19.1', onChange, ...onRuntime('openvino') }),
    );
    expect(
      await screen.findByText(
        'openvino is a flat runtime: it has no versions; the rollout applies what models.yaml resolves now.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(undefined));
    expect(screen.getByTestId('server-version-cleared')).toHaveTextContent(
      'Cleared 0.19.1: openvino is a flat runtime without versions.',
    );
    expect(screen.getByRole('button')).toHaveAttribute('aria-disabled', 'true');
  });

  it('the version asks for a runtime first', async () => {
    await renderInTestApp(versionField(onRuntime()));
    expect(screen.getByText('Pick a runtime first.')).toBeInTheDocument();
  });

  it('an optional cluster offers "every cluster", which submits nothing', async () => {
    const onChange = jest.fn();
    await renderWithApi(
      api,
      <ClusterPicker
        {...fieldProps(
          'cluster',
          'Only this cluster',
          optional('every cluster', { formData: 'local', onChange }),
        )}
      />,
    );
    const select = await screen.findByRole('button', {
      name: /^Only this cluster/,
    });
    await waitFor(() => expect(select).toHaveTextContent('local'));
    fireEvent.mouseDown(select);
    const options = await screen.findAllByRole('option');
    expect(options.map(o => o.textContent)).toEqual([
      'every cluster',
      'local',
      'edge (any namespace)',
    ]);
    fireEvent.click(options[0]);
    expect(onChange).toHaveBeenCalledWith(undefined);
  });

  it('an optional namespace offers "every namespace" beside the ones the cluster allows', async () => {
    const onChange = jest.fn();
    await renderWithApi(
      api,
      <NamespacePicker
        {...fieldProps(
          'namespace',
          'Only this namespace',
          optional('every namespace', {
            onChange,
            formContext: { formData: { cluster: 'local' } },
          }),
        )}
      />,
    );
    const select = await screen.findByRole('button', {
      name: /^Only this namespace/,
    });
    expect(select).toHaveTextContent('every namespace');
    fireEvent.mouseDown(select);
    const options = await screen.findAllByRole('option');
    expect(options.map(o => o.textContent)).toEqual([
      'every namespace',
      'default',
      'models',
    ]);
    fireEvent.click(options[2]);
    expect(onChange).toHaveBeenCalledWith('models');
  });
});
