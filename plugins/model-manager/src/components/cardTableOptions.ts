import type { TableOptions } from '@backstage/core-components';

/**
 * The options of a table that shows all its rows in a card: no paging or search, dense rows, and no
 * drag handles on the headers (axe: nested-interactive, a tab stop each).
 */
export const CARD_TABLE_OPTIONS: TableOptions = {
  draggable: false,
  paging: false,
  search: false,
  padding: 'dense',
};
