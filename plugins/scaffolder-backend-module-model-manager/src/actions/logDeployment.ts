import type { LoggerService } from '@backstage/backend-plugin-api';
import type { DeploymentResult, ObjectResult } from '../client';

/** `LLMInferenceService models/qwen2-5-7b-instruct`, `ClusterServingRuntime openvino-runtime`. */
export function objectLabel(
  o: Pick<ObjectResult, 'kind' | 'name' | 'namespace'>,
): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
}

/**
 * Writes to the task log what happened where: one line per object
 * (`LLMInferenceService models/qwen2-5-7b-instruct: created`), then the revision and the
 * endpoint when known.
 */
export function logDeployment(
  logger: Pick<LoggerService, 'info' | 'error'>,
  result: DeploymentResult,
): void {
  const dryRun = result.action === 'dry-run';
  for (const o of result.objects) {
    const line = `${objectLabel(o)}: ${dryRun ? wouldDo(o) : o.action}${
      o.action === 'replaced' && o.message ? ` (${o.message})` : ''
    }`;
    if (o.action === 'failed')
      logger.error(`${line}${o.reason ? ` (${o.reason})` : ''}`);
    else logger.info(line);
    if (dryRun) {
      for (const c of o.changes ?? []) {
        logger.info(
          `  ${c.path}: ${formatValue(c.live)} -> ${formatValue(c.rendered)}`,
        );
      }
    }
  }
  const version = result.serverVersion
    ? `, server version ${result.serverVersion}`
    : '';
  const where = `model ${result.model} on cluster ${result.cluster}, namespace ${result.namespace}${version}`;
  if (dryRun) {
    logger.info(
      `dry run, nothing applied and no revision taken${
        result.ok ? '' : ', failed'
      }: ${where}`,
    );
  } else if (result.revision === undefined) {
    // Failures and undeploys that found nothing take no revision.
    logger.info(
      `${result.action}${
        result.ok ? '' : ' failed'
      }, no revision taken: ${where}`,
    );
  } else {
    logger.info(
      `revision ${result.revision} (${result.action}${
        result.ok ? '' : ', failed'
      }): ${where}`,
    );
  }
  if (result.endpoint) logger.info(`endpoint: ${result.endpoint}`);
}

/** What a dry run says an apply would do to one object. */
function wouldDo(o: ObjectResult): string {
  switch (o.action) {
    case 'created':
      return 'would be created';
    case 'configured':
      return `would change ${o.changes?.length ?? 0} field(s)`;
    case 'unchanged':
      return 'would not change';
    case 'exists':
      return 'exists, left as it is';
    case 'replaced':
      return 'would be replaced';
    default:
      return o.action;
  }
}

function formatValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
