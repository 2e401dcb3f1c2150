import { InputError } from '@backstage/errors';
import {
  formatProblem,
  namespaceProblem,
  validateOverrides,
} from '@model-manager/plugin-model-manager-common';
import type { DeployRequest, DeployTarget } from '../client';

/**
 * Checks a deploy target the way the backend does, so a bad one fails before any request.
 * @throws InputError naming the field.
 */
export function validateTarget(target: Partial<DeployTarget>): void {
  const problems: string[] = [];
  const { cluster, namespace } = target;
  if (typeof cluster !== 'string' || cluster === '') {
    problems.push(
      'cluster: cluster is required (a name from kubernetes.clusterLocatorMethods)',
    );
  } else if (cluster.length > 253) {
    problems.push('cluster: cluster must be at most 253 characters');
  }
  if (typeof namespace !== 'string' || namespace === '') {
    problems.push('namespace: namespace is required');
  } else {
    const problem = namespaceProblem(namespace);
    if (problem) problems.push(`namespace: ${problem}`);
  }
  if (problems.length > 0) throw new InputError(problems.join('; '));
}

/**
 * Checks a deploy request before it is sent: the target as the backend checks it, and the
 * overrides with the engine's own `validateOverrides` (env names are C identifiers, env values
 * and args single lines, each arg a flag starting with '-'), with the engine's messages.
 * What needs the catalog (unknown model or version, a version on a flat runtime such as
 * OpenVINO) is left to the backend, the authority.
 * @throws InputError listing every problem.
 */
export function validateDeployInput(request: DeployRequest): void {
  validateTarget(request);
  const { serverVersion, env, args } = request;
  const problems = validateOverrides({ serverVersion, env, args });
  if (problems.length > 0)
    throw new InputError(problems.map(formatProblem).join('\n'));
}
