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
  POD_HOOKS,
  SECRET_HOOKS,
  SERVICE_HOOKS,
} from './builtinHooks';
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
}

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
  }));
}

/** Groups compiled into the server, in the order kube-apiserver lists them. */
export const BUILTIN_GROUP_ORDER = ['', 'apps', 'batch', 'storage.k8s.io'];
