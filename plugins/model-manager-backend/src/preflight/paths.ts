/** The API paths a preflight reads for a target. One place, so the reader and the checks agree. */

const enc = encodeURIComponent;

/** Discovery of one group version: `/api/v1` or `/apis/<group>/<version>`. */
export function discoveryPath(apiVersion: string): string {
  return apiVersion.includes('/')
    ? `/apis/${apiVersion}`
    : `/api/${apiVersion}`;
}

/** Discovery of a group (its served versions). */
export function groupPath(group: string): string {
  return `/apis/${group}`;
}

export const NODES_PATH = '/api/v1/nodes';
export const STORAGE_CLASSES_PATH = '/apis/storage.k8s.io/v1/storageclasses';

export const namespacePath = (ns: string) => `/api/v1/namespaces/${enc(ns)}`;

export const quotasPath = (ns: string) =>
  `/api/v1/namespaces/${enc(ns)}/resourcequotas`;

export const limitRangesPath = (ns: string) =>
  `/api/v1/namespaces/${enc(ns)}/limitranges`;

export const secretPath = (ns: string, name: string) =>
  `/api/v1/namespaces/${enc(ns)}/secrets/${enc(name)}`;

export const claimPath = (ns: string, name: string) =>
  `/api/v1/namespaces/${enc(ns)}/persistentvolumeclaims/${enc(name)}`;

/** Gateway API's GA version (gateway.networking.k8s.io/v1, Gateway API v1.0+). */
export const GATEWAY_API_VERSION = 'gateway.networking.k8s.io/v1';

export const gatewayPath = (ns: string, name: string) =>
  `/apis/${GATEWAY_API_VERSION}/namespaces/${enc(ns)}/gateways/${enc(name)}`;

/** A GatewayClass (cluster-scoped), by a Gateway's spec.gatewayClassName. */
export const gatewayClassPath = (name: string) =>
  `/apis/${GATEWAY_API_VERSION}/gatewayclasses/${enc(name)}`;

export const configMapPath = (ns: string, name: string) =>
  `/api/v1/namespaces/${enc(ns)}/configmaps/${enc(name)}`;

/** A namespaced object of a group's kind, by its plural: `/apis/<group>/<version>/namespaces/<ns>/<plural>/<name>`. */
export const objectPath = (
  apiVersion: string,
  plural: string,
  ns: string,
  name: string,
) =>
  `${discoveryPath(apiVersion)}/namespaces/${enc(ns)}/${plural}/${enc(name)}`;
