/** The built-in resources this server serves (a small subset of kube-apiserver's). */
import { NameRule } from '../api/names';
import { withObjectMeta } from '../schema/objectMeta';
import { BUILTIN_SCHEMAS } from './builtinSchemas';
import {
  CRONJOB_HOOKS,
  DEPLOYMENT_HOOKS,
  JOB_HOOKS,
  NAMESPACE_HOOKS,
  PVC_HOOKS,
  NODE_HOOKS,
  POD_HOOKS,
  SECRET_HOOKS,
  SERVICE_HOOKS,
} from './builtinHooks';
import { JsonObject } from '../util/json';
import { ResourceHooks, ResourceType } from './types';

const ALL_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

interface BuiltinSpec {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  hasStatus?: boolean;
  hasGeneration?: boolean;
  verbs?: string[];
  nameRule?: NameRule;
  hooks?: ResourceHooks;
  selectableFields?: Record<string, string>;
  subresources?: string[];
  storedAs?: ResourceType['storedAs'];
}

const same = (...labels: string[]): Record<string, string> =>
  Object.fromEntries(labels.map(l => [l, l]));

/**
 * Field labels of the kinds that have more than metadata.name/namespace, each to the JSON path it
 * reads: kubernetes pkg/registry/core/pod/strategy.go `ToSelectableFields` (the string ones),
 * pkg/registry/core/event/strategy.go `ToSelectableFields` (core Events; `source` is
 * source.component) and pkg/registry/events/... (events.k8s.io/v1 names `involvedObject` `regarding`;
 * `source` reads deprecatedSource.component).
 */
const POD_FIELDS = same(
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'status.phase',
  'status.podIP',
  'status.nominatedNodeName',
);
const OBJECT_REF = [
  'kind',
  'namespace',
  'name',
  'uid',
  'apiVersion',
  'resourceVersion',
  'fieldPath',
];
const CORE_EVENT_FIELDS = {
  ...same(
    ...OBJECT_REF.map(f => `involvedObject.${f}`),
    'reason',
    'reportingComponent',
    'type',
  ),
  source: 'source.component',
};
/**
 * events.k8s.io/v1 names of core/v1 Event fields (kubernetes pkg/apis/events/v1/conversion.go:
 * `regarding` is `involvedObject`, `note` is `message`, the `deprecated*` fields are the core
 * ones, `reportingController` is `reportingComponent`); the other fields keep their names.
 */
const EVENT_RENAMES: Array<[core: string, eventsV1: string]> = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

function renamed(obj: JsonObject, pairs: Array<[string, string]>): JsonObject {
  const out: JsonObject = {};
  const to = new Map(pairs);
  for (const [k, v] of Object.entries(obj)) out[to.get(k) ?? k] = v;
  return out;
}

const EVENTS_V1_STORAGE = {
  group: '',
  plural: 'events',
  fromStorage: (o: JsonObject) => renamed(o, EVENT_RENAMES),
  toStorage: (o: JsonObject) =>
    renamed(
      o,
      EVENT_RENAMES.map(([core, v1]) => [v1, core]),
    ),
};

const EVENTS_V1_FIELDS = {
  ...same(
    ...OBJECT_REF.map(f => `regarding.${f}`),
    'reason',
    'reportingController',
    'type',
  ),
  source: 'deprecatedSource.component',
};

const SPECS: BuiltinSpec[] = [
  {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    shortNames: ['cm'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'LimitRange',
    plural: 'limitranges',
    shortNames: ['limits'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
    hasStatus: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    nameRule: 'label',
    hooks: NAMESPACE_HOOKS,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    hasStatus: true,
    hooks: NODE_HOOKS,
  },
  {
    group: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    shortNames: ['pvc'],
    hasStatus: true,
    hooks: PVC_HOOKS,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    shortNames: ['po'],
    categories: ['all'],
    hasStatus: true,
    hooks: POD_HOOKS,
    selectableFields: POD_FIELDS,
    subresources: ['log'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    shortNames: ['ev'],
    selectableFields: CORE_EVENT_FIELDS,
  },
  {
    // The same Events as core/v1 (one storage, as in kube-apiserver), under their new names.
    group: 'events.k8s.io',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    shortNames: ['ev'],
    selectableFields: EVENTS_V1_FIELDS,
    storedAs: EVENTS_V1_STORAGE,
  },
  {
    group: '',
    version: 'v1',
    kind: 'ResourceQuota',
    plural: 'resourcequotas',
    shortNames: ['quota'],
    hasStatus: true,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    hooks: SECRET_HOOKS,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    shortNames: ['svc'],
    categories: ['all'],
    hasStatus: true,
    nameRule: 'dns1035',
    hooks: SERVICE_HOOKS,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    hasGeneration: true,
    plural: 'deployments',
    shortNames: ['deploy'],
    categories: ['all'],
    hasStatus: true,
    hooks: DEPLOYMENT_HOOKS,
  },
  {
    group: 'batch',
    version: 'v1',
    kind: 'CronJob',
    hasGeneration: true,
    plural: 'cronjobs',
    shortNames: ['cj'],
    categories: ['all'],
    hasStatus: true,
    hooks: CRONJOB_HOOKS,
  },
  {
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    hasGeneration: true,
    plural: 'jobs',
    categories: ['all'],
    hasStatus: true,
    hooks: JOB_HOOKS,
  },
  {
    group: 'storage.k8s.io',
    version: 'v1',
    kind: 'StorageClass',
    plural: 'storageclasses',
    namespaced: false,
    shortNames: ['sc'],
  },
];

export function builtinResources(): ResourceType[] {
  return SPECS.map(s => ({
    group: s.group,
    version: s.version,
    kind: s.kind,
    plural: s.plural,
    singular: s.kind.toLowerCase(),
    listKind: `${s.kind}List`,
    namespaced: s.namespaced ?? true,
    shortNames: s.shortNames ?? [],
    categories: s.categories ?? [],
    hasStatus: s.hasStatus ?? false,
    hasGeneration: s.hasGeneration ?? false,
    storageVersion: s.version,
    schema: withObjectMeta(BUILTIN_SCHEMAS[s.kind]),
    builtin: true,
    verbs: s.verbs ?? ALL_VERBS,
    nameRule: s.nameRule ?? 'subdomain',
    allowUnconditionalUpdate: true,
    hooks: s.hooks,
    selectableFields: s.selectableFields,
    subresources: s.subresources,
    storedAs: s.storedAs,
  }));
}

/** Groups compiled into the server, in the order kube-apiserver lists them. */
export const BUILTIN_GROUP_ORDER = [
  '',
  'apps',
  'events.k8s.io',
  'batch',
  'storage.k8s.io',
];
