import type { ExplainRow } from '@model-manager/plugin-model-manager-common';

const LAYER_NAMES: Record<ExplainRow['layer'], string> = {
  'runtime-env': 'runtime env',
  category: 'category',
  version: 'version delta',
  model: 'model',
  override: 'request',
  plumbing: 'plumbing',
  'runtime-default': 'runtime default',
};

/** A plain-text table: value, layer, where it was set, and what it replaced. */
export function formatExplainTable(model: string, rows: ExplainRow[]): string {
  const cells = rows.map(r => [
    r.key,
    r.value,
    LAYER_NAMES[r.layer],
    r.source,
    r.overrode
      .map(
        o =>
          `${o.removed ? 'removed' : o.value} (${LAYER_NAMES[o.layer]}, ${
            o.source
          })`,
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
  return `${model}\n${fmt(header)}${cells.map(fmt).join('')}`;
}
