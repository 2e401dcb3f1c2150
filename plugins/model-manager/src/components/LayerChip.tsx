import Chip from '@material-ui/core/Chip';
import Tooltip from '@material-ui/core/Tooltip';
import { layerInfo } from '@model-manager/plugin-model-manager-common';

/**
 * Which layer set a value, named as `model-manager resolve --explain` names it (both read
 * `LAYERS` of the common package), with the layer's description as tooltip.
 */
export function LayerChip(props: { layer: string }) {
  const layer = layerInfo(props.layer);
  return (
    <Tooltip title={layer.description}>
      <Chip
        size="small"
        label={layer.label}
        data-testid={`layer-${props.layer}`}
      />
    </Tooltip>
  );
}
