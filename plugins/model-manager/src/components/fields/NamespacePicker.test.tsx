import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeApi, fieldProps, renderWithApi } from '../../__testUtils__';
import { NamespacePicker } from './NamespacePicker';

/** Clusters local (namespaces default and models) and edge (any namespace). */
const api = fakeApi();

const render = (props: {
  cluster: string;
  formData?: string;
  onChange?: jest.Mock;
}) =>
  renderWithApi(
    api,
    <NamespacePicker
      {...fieldProps('namespace', 'Namespace', {
        schema: {
          title: 'Namespace',
          description: 'The Kubernetes namespace',
        },
        required: true,
        formData: props.formData,
        onChange: props.onChange ?? jest.fn(),
        formContext: { formData: { cluster: props.cluster } },
      })}
    />,
  );

describe('NamespacePicker', () => {
  it('offers only the namespaces the chosen cluster allows', async () => {
    const onChange = jest.fn();
    await render({ cluster: 'local', formData: 'models', onChange });
    expect(
      await screen.findByText(/The namespaces cluster local allows models in/),
    ).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('button'));
    const options = await screen.findAllByRole('option');
    expect(options.map(o => o.textContent)).toEqual(['default', 'models']);
    fireEvent.click(options[0]);
    expect(onChange).toHaveBeenCalledWith('default');
  });

  it('clears a namespace the chosen cluster does not allow, so a blank picker submits nothing', async () => {
    const onChange = jest.fn();
    await render({ cluster: 'local', formData: 'kube-system', onChange });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(undefined));
    // Not silently: the field says which namespace and why.
    expect(screen.getByTestId('namespace-refused')).toHaveTextContent(
      'kube-system is not allowed on cluster local: it takes models only in default, models (set by the platform team), so it was cleared. Pick one of them.',
    );
  });

  it('does not say an unknown cluster allows any namespace', async () => {
    await render({ cluster: 'staging', formData: 'team-a' });
    await screen.findByRole('textbox');
    await waitFor(() =>
      expect(screen.getByText(/The Kubernetes namespace/)).toBeInTheDocument(),
    );
    expect(screen.queryByText(/allows any namespace/)).not.toBeInTheDocument();
  });

  it('is free text on a cluster without a list', async () => {
    const onChange = jest.fn();
    await render({ cluster: 'edge', formData: 'team-a', onChange });
    const input = await screen.findByRole('textbox');
    expect(input).toHaveValue('team-a');
    expect(
      screen.getByText(/Cluster edge allows any namespace/),
    ).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'team-b' } });
    expect(onChange).toHaveBeenCalledWith('team-b');
  });

  it.each([
    [
      'Bad_NS',
      /lowercase letters, digits and -, starting and ending with a letter or digit/,
    ],
    ['a'.repeat(64), /has 64 characters; a DNS-1123 label has at most 63/],
  ])(
    'says beside the field, in words, why %s is not a namespace name',
    async (formData, words) => {
      await render({ cluster: 'edge', formData });
      expect(await screen.findByText(words)).toBeInTheDocument();
      expect(screen.getByRole('textbox')).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(document.body.textContent).not.toMatch(/pattern|\^\[a-z0-9\]/);
    },
  );
});
