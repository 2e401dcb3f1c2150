import type { DeployRequest } from '../client';

/**
 * The overrides of a deploy or render input (`modelOverridesInput`) as the request carries them:
 * one the task leaves out stays out of the request, and so does an empty `serverVersion` (a
 * blank form field), so the backend applies the model's own version.
 */
export function requestOverrides(
  input: Pick<DeployRequest, 'serverVersion' | 'env' | 'args'>,
): Pick<DeployRequest, 'serverVersion' | 'env' | 'args'> {
  const { serverVersion, env, args } = input;
  return {
    ...(serverVersion !== undefined && serverVersion !== ''
      ? { serverVersion }
      : {}),
    ...(env !== undefined ? { env } : {}),
    ...(args !== undefined ? { args } : {}),
  };
}
