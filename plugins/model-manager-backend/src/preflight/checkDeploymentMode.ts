/** The check that KServe will take the InferenceService's deployment mode as rendered. */
import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';
import { unreadable } from './readText';
import {
  DEPLOYMENT_MODE_ANNOTATION,
  renderedDeploymentModes,
  type RenderedDeploymentMode,
} from './renderedNeeds';
import type { Read, TargetFacts } from './types';
import { worstOutcome, type Outcome } from './worstOutcome';

const missing: Read = { ok: false, message: 'not read' };

const TITLE = "KServe keeps the InferenceService's deployment mode";

/**
 * A mode as KServe compares it: its defaulting webhook (CREATE and UPDATE, before validation)
 * rewrites the deprecated annotation values, and validation reads the status's mode the same way
 * (kserve/kserve@aaac4e294dae2c7b1aa1886447793f3aa1c30912 pkg/constants/constants.go
 * ParseDeploymentMode: RawDeployment is Standard, Serverless is Knative;
 * pkg/apis/serving/v1beta1/inference_service_defaults.go DefaultInferenceService).
 */
function kserveMode(mode: string): string {
  if (mode === 'RawDeployment') return 'Standard';
  if (mode === 'Serverless') return 'Knative';
  return mode;
}

function outcomeOf(isvc: RenderedDeploymentMode, facts: TargetFacts): Outcome {
  const where = `InferenceService ${isvc.namespace}/${isvc.name}`;
  const read = facts.reads.get(isvc.path) ?? missing;
  if (!read.ok) {
    const why = unreadable(
      read,
      facts.cluster,
      'get',
      'inferenceservices.serving.kserve.io',
    );
    return {
      status: 'unknown',
      message: `${why.message}, so whether KServe would take ${where} in ${isvc.mode} mode is not known`,
      fix: why.fix,
    };
  }
  if (read.body === null)
    return {
      status: 'pass',
      message: `${where} is new on cluster ${facts.cluster}: KServe creates it in ${isvc.mode} mode`,
    };
  const live = read.body.status?.deploymentMode;
  // No mode in the status yet: KServe has not reconciled it, and its webhook allows any.
  if (typeof live !== 'string' || live === '')
    return {
      status: 'pass',
      message: `${where} on cluster ${facts.cluster} has no deployment mode in its status yet: KServe takes ${isvc.mode}`,
    };
  if (live === isvc.mode)
    return {
      status: 'pass',
      message: `${where} runs in ${live} mode on cluster ${facts.cluster}, as the model renders it`,
    };
  // The same mode by its other name: KServe v0.17 and later read the old names as the new ones
  // before validating (kserve/kserve#5025, 93752a1ae), v0.16 compared them as written.
  if (kserveMode(live) === kserveMode(isvc.mode))
    return {
      status: 'warn',
      message: `${where} runs in ${live} mode on cluster ${facts.cluster} and the model renders ${isvc.mode}, the same mode by its other name: KServe v0.17 and later take it, KServe v0.16 refuses the change ("update rejected: deploymentMode cannot be changed")`,
      fix: `set deployment_mode in the runtime's plumbing to ${live}, the name this cluster's KServe uses`,
    };
  return {
    status: 'fail',
    message: `${where} runs in ${live} mode on cluster ${facts.cluster} (its status.deploymentMode), and the model renders ${isvc.mode} (annotation ${DEPLOYMENT_MODE_ANNOTATION}): KServe's webhook refuses to change an InferenceService's deployment mode ("update rejected: deploymentMode cannot be changed"), so the deploy would be refused`,
    fix: `undeploy the model from this target first (the Serving tab's Undeploy, or model-manager undeploy ${facts.server.model} --cluster ${facts.cluster} --namespace ${isvc.namespace}), then deploy it: KServe creates it anew in ${isvc.mode} mode; the model does not serve in between`,
  };
}

/**
 * 3b. An InferenceService already on the cluster keeps the deployment mode KServe gave it: KServe's
 * validating webhook refuses an update whose `serving.kserve.io/deploymentMode` annotation differs
 * from the mode in the object's `status.deploymentMode`, and allows any while the status has none
 * (kserve/kserve@aaac4e294dae2c7b1aa1886447793f3aa1c30912
 * pkg/apis/serving/v1beta1/inference_service_validation.go validateDeploymentMode). One made in
 * Knative mode (KServe's own install's default, or a render from before the annotation was set)
 * cannot become Standard in place. Only for models that render an InferenceService with the
 * annotation.
 */
export function checkDeploymentMode(
  facts: TargetFacts,
): PreflightCheck | undefined {
  const isvcs = renderedDeploymentModes(facts.objects, facts.namespace);
  if (isvcs.length === 0) return undefined;
  return {
    id: 'deployment-mode',
    title: TITLE,
    ...worstOutcome(isvcs.map(isvc => outcomeOf(isvc, facts))),
  };
}
