/** The check that the model's routes speak the protocol its workload is served in. */
import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';
import { configMapPath } from './paths';
import { unreadable } from './readText';
import { configMapJsonField } from './renderedNeeds';
import type { Read, TargetFacts } from './types';

const missing: Read = { ok: false, message: 'not read' };

/**
 * 8. The routes reach the model in its protocol: the routes a routing renders send plain HTTP,
 * and the engine's controller serves the workload over HTTPS when its config turns that on
 * (profile `controller_tls:`; vLLM on aigateway: KServe's ingress.enableLLMInferenceServiceTLS).
 * The switch is a JSON boolean, off when unset: KServe reads the ingress JSON into a Go bool
 * (`pkg/apis/serving/v1beta1/configmap.go`), so only `true` turns it on. Only for routings that
 * declare it.
 */
export function checkProtocol(facts: TargetFacts): PreflightCheck | undefined {
  const tls = facts.controllerTls;
  if (!tls) return undefined;
  const title = "The routes speak the protocol of the model's workload";
  const { configMap, routing } = tls;
  const config = `${configMap.key}.${configMap.field} of ConfigMap ${configMap.namespace}/${configMap.name}`;
  const model = facts.server.model;
  const read =
    facts.reads.get(configMapPath(configMap.namespace, configMap.name)) ??
    missing;
  if (!read.ok) {
    const why = unreadable(read, facts.cluster, 'get', 'configmaps');
    return {
      id: 'protocol',
      title,
      status: 'unknown',
      message: `${why.message}, so whether ${model}'s workload is served over HTTPS (${config}) is not known; routing ${routing}'s routes send plain HTTP`,
      fix: `${why.fix}; or check ${config} by hand: it must not be true`,
    };
  }
  if (configMapJsonField(read.body, configMap) === true)
    return {
      id: 'protocol',
      title,
      status: 'fail',
      message: `cluster ${facts.cluster} serves ${model}'s workload over HTTPS (${config} is true), and routing ${routing}'s routes send it plain HTTP: every request through them would fail`,
      fix: `set routing to one whose routes the engine's controller makes (e.g. epp) in the runtime's plumbing, or set ${configMap.field} to false in ConfigMap ${configMap.namespace}/${configMap.name}`,
    };
  return {
    id: 'protocol',
    title,
    status: 'pass',
    message:
      read.body === null
        ? `${model}'s workload is served over HTTP, as routing ${routing}'s routes send it (ConfigMap ${configMap.namespace}/${configMap.name} is not on cluster ${facts.cluster}: ${configMap.field} is off)`
        : `${model}'s workload is served over HTTP, as routing ${routing}'s routes send it (${config} is not true)`,
  };
}
