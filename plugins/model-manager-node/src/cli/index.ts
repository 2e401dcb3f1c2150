export { runCli, USAGE } from './runCli';
export type { CliIo } from './runCli';
export { formatExplainTable, formatLayerLegend } from './formatExplainTable';
