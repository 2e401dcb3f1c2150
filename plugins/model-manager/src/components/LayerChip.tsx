import Chip from '@material-ui/core/Chip';
import Tooltip from '@material-ui/core/Tooltip';

const LAYERS: Record<string, { label: string; help: string }> = {
  'runtime-env': {
    label: 'runtime env',
    help: "The runtime's common env, applied to every pod of the engine",
  },
  category: {
    label: 'category',
    help: "The category's defaults, env or args (e.g. llm, embed)",
  },
  version: {
    label: 'version delta',
    help: "The selected version's env/args delta",
  },
  'version-image': {
    label: "version's image",
    help: 'The image of the selected server version',
  },
  model: { label: 'model', help: "This model's own settings in models.yaml" },
  override: {
    label: 'request',
    help: 'Set by the deploy request (--server-version, --env, --arg)',
  },
  plumbing: {
    label: 'plumbing',
    help: 'runtimes/<name>/values.yaml (models.yaml wins on a clash)',
  },
  'runtime-default': {
    label: 'runtime default',
    help: "The runtime's default_version",
  },
};

/** Which layer set a value, with a tooltip explaining the layer. */
export function LayerChip(props: { layer: string }) {
  const layer = LAYERS[props.layer] ?? {
    label: props.layer,
    help: props.layer,
  };
  return (
    <Tooltip title={layer.help}>
      <Chip
        size="small"
        label={layer.label}
        data-testid={`layer-${props.layer}`}
      />
    </Tooltip>
  );
}
