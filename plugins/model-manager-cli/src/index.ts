/**
 * The `model-manager` CLI: validate, list, resolve and render from models.yaml on disk, and deploy,
 * diff, preflight, status, fleet and rollout plans through a running portal. `runCli` is the
 * whole CLI without the process (arguments in, output through `CliIo`, exit code out).
 *
 * @packageDocumentation
 */
export { runCli, USAGE } from './runCli';
export type { CliIo } from './runCli';
export { formatExplainTable, formatLayerLegend } from './formatExplainTable';
