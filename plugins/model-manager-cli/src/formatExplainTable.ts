import {
  LAYERS,
  layerInfo,
  type ExplainRow,
} from '@model-manager/plugin-model-manager-common';

const label = (layer: string) => layerInfo(layer).label;

/**
 * What the LAYER column's names mean, lowest precedence first: the labels and descriptions of
 * `LAYERS` (common), the same words the UI's layer chips show.
 */
export function formatLayerLegend(): string {
  const width = Math.max(...LAYERS.map(l => l.label.length));
  return `LAYERS, lowest precedence first (a later layer replaces an earlier one):\n${LAYERS.map(
    l => `  ${l.label.padEnd(width)}  ${l.description}\n`,
  ).join('')}`;
}

/**
 * A plain-text table: value, layer, where it was set, and what it replaced; then a blank line and
 * the legend of the layers.
 */
export function formatExplainTable(model: string, rows: ExplainRow[]): string {
  const cells = rows.map(r => [
    r.key,
    r.value,
    label(r.layer),
    r.source,
    r.overrode
      .map(
        o =>
          `${o.removed ? 'removed' : o.value} (${label(o.layer)}, ${o.source})`,
      )
      .join('; '),
  ]);
  const header = ['KEY', 'VALUE', 'LAYER', 'SET AT', 'REPLACED'];
  const width = header.map((h, i) =>
    Math.min(60, Math.max(h.length, ...cells.map(c => c[i].length))),
  );
  const fmt = (row: string[]) =>
    `${row
      .map((c, i) => (i === row.length - 1 ? c : c.padEnd(width[i])))
      .join('  ')
      .trimEnd()}\n`;
  return `${model}\n${fmt(header)}${cells
    .map(fmt)
    .join('')}\n${formatLayerLegend()}`;
}
