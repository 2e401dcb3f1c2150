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
  for (const o of result.objects) {
    const line = `${objectLabel(o)}: ${o.action}`;
    if (o.action === 'failed')
      logger.error(`${line}${o.reason ? ` (${o.reason})` : ''}`);
    else logger.info(line);
  }
  const what =
    result.action === 'dry-run' ? 'dry-run, nothing applied' : result.action;
  const version = result.serverVersion
    ? `, server version ${result.serverVersion}`
    : '';
  logger.info(
    `revision ${result.revision} (${what}${
      result.ok ? '' : ', failed'
    }): model ${result.model} on cluster ${result.cluster}, namespace ${
      result.namespace
    }${version}`,
  );
  if (result.endpoint) logger.info(`endpoint: ${result.endpoint}`);
}
