import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';
import { checkLimitRange, checkNodes, checkQuota } from './checkCapacity';
import { checkDeploymentMode } from './checkDeploymentMode';
import { checkGatewayConfig } from './checkGatewayConfig';
import { checkProtocol } from './checkProtocol';
import { checkGateway, checkStorage } from './checkStorage';
import { checkApiVersions, checkNamespace, checkSecrets } from './checkTarget';
import type { Check, TargetFacts } from './types';

/** The cluster checks, in the order they are listed (after the engine's). */
const CHECKS: Check[] = [
  checkApiVersions,
  checkNamespace,
  checkDeploymentMode,
  checkSecrets,
  checkQuota,
  checkLimitRange,
  checkNodes,
  checkStorage,
  checkGateway,
  checkProtocol,
  checkGatewayConfig,
];

/** Every check that applies to the target, from what was read. Pure. */
export function runChecks(facts: TargetFacts): PreflightCheck[] {
  return CHECKS.map(check => check(facts)).filter(
    (c): c is PreflightCheck => c !== undefined,
  );
}
