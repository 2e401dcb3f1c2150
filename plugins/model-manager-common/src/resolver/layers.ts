/**
 * The layers a resolved value can come from, declared once: the resolver's origins, the CLI's
 * `resolve --explain` table and legend, the UI's layer chips and the tests all read this list.
 */

/** One layer: its id (an {@link Origin}'s `layer`), the name people see, and what it is. */
export interface LayerInfo {
  id: string;
  /** How the CLI and the UI name the layer (the same words in both). */
  label: string;
  /** What the layer is, in one line (the UI's chip tooltip, the CLI's legend). */
  description: string;
}

/**
 * Every layer, lowest precedence first (see {@link resolveServer} and runtimes.md): where two
 * layers set the same value, the later one in this list wins.
 *
 * - version: request > model `server_version` > runtime `default_version`;
 * - image: model > version (flat runtimes: model > plumbing `image`);
 * - env: request > model > version delta > category > runtime env; args the same without runtime env;
 * - cpu, memory, kv_cache_gb, weight_format: model > category.
 */
export const LAYERS = [
  {
    id: 'runtime-default',
    label: 'runtime default',
    description: "The runtime's default_version",
  },
  {
    id: 'plumbing',
    label: 'plumbing',
    description:
      'runtimes/<runtime>/values.yaml under the runtime entry of models.yaml (models.yaml wins on a clash)',
  },
  {
    id: 'runtime-env',
    label: 'runtime env',
    description:
      "The runtime's common env and image_pull_secrets, applied to every pod of the engine",
  },
  {
    id: 'category',
    label: 'category',
    description: "The category's defaults, env or args (e.g. llm, embed)",
  },
  {
    id: 'version',
    label: 'version',
    description:
      'The selected server version: its image, and its env and args delta',
  },
  {
    id: 'model',
    label: 'model',
    description: "This model's own settings in models.yaml",
  },
  {
    id: 'override',
    label: 'request',
    description:
      'The deploy request: --server-version, --env, --env-secret and --arg in the CLI, the deploy form or API',
  },
] as const satisfies readonly LayerInfo[];

/** The layer that set a value. */
export type Layer = (typeof LAYERS)[number]['id'];

const BY_ID: ReadonlyMap<string, LayerInfo> = new Map(
  LAYERS.map(l => [l.id, l]),
);

/** The layer of an id; an unknown id (a newer backend's) is named by itself. */
export function layerInfo(id: string): LayerInfo {
  return BY_ID.get(id) ?? { id, label: id, description: id };
}
