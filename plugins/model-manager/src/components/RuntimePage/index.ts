export { RuntimeContent, RUNTIME_ANNOTATION } from './RuntimeContent';
export { RuntimeSummaryCard } from './RuntimeSummaryCard';
export { KeyValueTable } from './KeyValueTable';
