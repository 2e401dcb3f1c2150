import { fireEvent, screen } from '@testing-library/react';
import { fakeApi, fieldProps, renderWithApi } from '../../__testUtils__';
import { ClusterPicker, clusterPickerValidation } from './ClusterPicker';

/** Clusters local (namespaces default and models) and edge (any namespace). */
const api = fakeApi();

const render = (formData: string | undefined, onChange = jest.fn()) =>
  renderWithApi(
    api,
    <ClusterPicker
      {...fieldProps('cluster', 'Cluster', {
        required: true,
        formData,
        onChange,
      })}
    />,
  );

describe('ClusterPicker', () => {
  it('offers the configured clusters, not free text', async () => {
    const onChange = jest.fn();
    await render('local', onChange);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    fireEvent.mouseDown(await screen.findByRole('button'));
    const options = await screen.findAllByRole('option');
    expect(options.map(o => o.textContent)).toEqual([
      'local',
      'edge (any namespace)',
    ]);
    fireEvent.click(options[1]);
    expect(onChange).toHaveBeenCalledWith('edge');
  });

  it('says beside the field that a cluster from a link is not configured, and names the ones that are', async () => {
    await render('staging');
    expect(
      await screen.findByText(
        'staging (from the link) is not a cluster the portal can deploy to; pick one of local, edge.',
      ),
    ).toBeInTheDocument();
  });

  it.each([
    ['staging', ['is not a configured cluster; the reason is shown beside it']],
    ['edge', []],
  ])('blocks the step for %s: %j', async (value, expected) => {
    const errors: string[] = [];
    await clusterPickerValidation(
      value,
      { addError: m => errors.push(m) },
      { apiHolder: { get: () => api } },
    );
    expect(errors).toEqual(expected);
  });
});
