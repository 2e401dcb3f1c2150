import type { Entity } from '@backstage/catalog-model';
import type { ExplainRow } from '@model-manager/plugin-model-manager-common';

/**
 * The rows the Serving tab shows: `plumbing.<key>` is dropped when the top-level `<key>` row
 * already shows the same value from the same place (OpenVINO's `image` comes from
 * `plumbing.image`: one row, not two). Each row gets the `id` the table keeps its state by.
 */
export function explainRows(
  explain: ExplainRow[],
): Array<ExplainRow & { id: string }> {
  const byKey = new Map(explain.map(r => [r.key, r]));
  return explain
    .filter(r => {
      if (!r.key.startsWith('plumbing.')) return true;
      const top = byKey.get(r.key.slice('plumbing.'.length));
      return !(top && top.value === r.value && top.source === r.source);
    })
    .map((r, i) => ({ ...r, id: `${i}:${r.key}` }));
}

const SOURCE_LOCATION = 'backstage.io/source-location';

/**
 * A link to `file:line` of a row's source (`models.yaml:42:7 models.qwen...`) in the repository
 * the catalog read the entity from (`backstage.io/source-location` of kind `url:`, e.g.
 * `url:https://github.com/org/repo/tree/main/`); undefined when the catalog reads local files.
 */
export function sourceLink(entity: Entity, source: string): string | undefined {
  const location = entity.metadata.annotations?.[SOURCE_LOCATION];
  if (!location?.startsWith('url:')) return undefined;
  const match = /^([^\s:]+):(\d+)(?::\d+)?(?:\s|$)/.exec(source);
  if (!match) return undefined;
  const base = location.slice('url:'.length).replace(/\/?$/, '/');
  return `${base}${match[1]}#L${match[2]}`;
}
