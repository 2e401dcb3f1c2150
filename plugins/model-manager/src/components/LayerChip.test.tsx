import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LAYERS } from '@model-manager/plugin-model-manager-common';
import { LayerChip } from './LayerChip';

describe('LayerChip', () => {
  // The CLI's `resolve --explain` names layers with the same LAYERS labels (runCli.test.ts).
  it.each(LAYERS.map(l => ({ ...l })))(
    'names layer $id "$label", as the CLI does, with its description as tooltip',
    async layer => {
      await renderInTestApp(<LayerChip layer={layer.id} />);
      const chip = screen.getByTestId(`layer-${layer.id}`);
      expect(chip).toHaveTextContent(layer.label);
      await userEvent.hover(chip);
      expect(await screen.findByRole('tooltip')).toHaveTextContent(
        layer.description,
      );
    },
  );

  it('names a layer it does not know (a newer backend) by its id', async () => {
    await renderInTestApp(<LayerChip layer="cluster-policy" />);
    expect(screen.getByTestId('layer-cluster-policy')).toHaveTextContent(
      'cluster-policy',
    );
  });
});
