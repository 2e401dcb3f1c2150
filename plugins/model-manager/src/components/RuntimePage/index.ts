export { RuntimeContent } from './RuntimeContent';
export { RuntimeSummaryCard } from './RuntimeSummaryCard';
export { KeyValueTable } from './KeyValueTable';
