/**
 * Hand-written, deliberately loose schemas for the built-in kinds this server
 * stores. They carry the list/map annotations that matter for server-side
 * apply (containers keyed by name, ...); everything else preserves unknown
 * fields, so typos in built-in objects are NOT caught (the real server would).
 */
import { JsonObject } from '../util/json';

const open = (properties: JsonObject = {}): JsonObject => ({
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  properties,
});

const stringMap: JsonObject = {
  type: 'object',
  additionalProperties: { type: 'string' },
};

const keyedList = (keys: string[], item: JsonObject): JsonObject => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  items: item,
});

const container = open({
  name: { type: 'string' },
  image: { type: 'string' },
  args: { type: 'array', items: { type: 'string' } },
  command: { type: 'array', items: { type: 'string' } },
  env: keyedList(
    ['name'],
    open({ name: { type: 'string' }, value: { type: 'string' } }),
  ),
  ports: keyedList(
    ['containerPort', 'protocol'],
    open({
      containerPort: { type: 'integer' },
      protocol: { type: 'string', default: 'TCP' },
    }),
  ),
  volumeMounts: keyedList(
    ['mountPath'],
    open({ mountPath: { type: 'string' }, name: { type: 'string' } }),
  ),
  resources: open({ limits: stringMapAny(), requests: stringMapAny() }),
});

function stringMapAny(): JsonObject {
  return {
    type: 'object',
    additionalProperties: { 'x-kubernetes-int-or-string': true },
  };
}

export const POD_SPEC = open({
  containers: keyedList(['name'], container),
  initContainers: keyedList(['name'], container),
  volumes: keyedList(['name'], open({ name: { type: 'string' } })),
  restartPolicy: { type: 'string' },
  serviceAccountName: { type: 'string' },
  nodeSelector: { ...stringMap, 'x-kubernetes-map-type': 'atomic' },
});

const podTemplate = open({
  metadata: open({ labels: stringMap, annotations: stringMap }),
  spec: POD_SPEC,
});

const labelSelector: JsonObject = {
  ...open({ matchLabels: stringMap }),
  'x-kubernetes-map-type': 'atomic',
};

export const BUILTIN_SCHEMAS: Record<string, JsonObject> = {
  Namespace: {
    type: 'object',
    properties: {
      spec: open({
        finalizers: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: { type: 'string' },
        },
      }),
      status: open({ phase: { type: 'string' } }),
    },
  },
  ConfigMap: {
    type: 'object',
    properties: {
      data: stringMap,
      binaryData: stringMap,
      immutable: { type: 'boolean' },
    },
  },
  Secret: {
    type: 'object',
    properties: {
      data: stringMap,
      stringData: stringMap,
      type: { type: 'string' },
      immutable: { type: 'boolean' },
    },
  },
  Service: {
    type: 'object',
    properties: {
      spec: open({
        ports: keyedList(
          ['port', 'protocol'],
          open({
            port: { type: 'integer' },
            protocol: { type: 'string', default: 'TCP' },
          }),
        ),
        selector: { ...stringMap, 'x-kubernetes-map-type': 'atomic' },
        type: { type: 'string' },
      }),
      status: open(),
    },
  },
  PersistentVolumeClaim: {
    type: 'object',
    properties: {
      spec: open({
        accessModes: {
          type: 'array',
          'x-kubernetes-list-type': 'atomic',
          items: { type: 'string' },
        },
        resources: open({ limits: stringMapAny(), requests: stringMapAny() }),
        storageClassName: { type: 'string' },
        volumeMode: { type: 'string' },
        volumeName: { type: 'string' },
      }),
      status: open({ phase: { type: 'string' } }),
    },
  },
  Pod: { type: 'object', properties: { spec: POD_SPEC, status: open() } },
  // core/v1 and events.k8s.io/v1 Events: no spec/status, their fields are top-level.
  Event: open(),
  // Scheduling and admission inputs that preflight reads (kept open like the others).
  Node: {
    type: 'object',
    properties: {
      spec: open({ unschedulable: { type: 'boolean' } }),
      status: open({
        allocatable: stringMapAny(),
        capacity: stringMapAny(),
        conditions: keyedList(
          ['type'],
          open({ type: { type: 'string' }, status: { type: 'string' } }),
        ),
      }),
    },
  },
  ResourceQuota: {
    type: 'object',
    properties: {
      spec: open({ hard: stringMapAny() }),
      status: open({ hard: stringMapAny(), used: stringMapAny() }),
    },
  },
  LimitRange: {
    type: 'object',
    properties: {
      spec: open({
        limits: {
          type: 'array',
          'x-kubernetes-list-type': 'atomic',
          items: open({ type: { type: 'string' } }),
        },
      }),
    },
  },
  StorageClass: {
    type: 'object',
    properties: {
      provisioner: { type: 'string' },
      parameters: stringMap,
      reclaimPolicy: { type: 'string' },
      volumeBindingMode: { type: 'string' },
      allowVolumeExpansion: { type: 'boolean' },
    },
  },
  Deployment: {
    type: 'object',
    properties: {
      spec: open({
        replicas: { type: 'integer' },
        selector: labelSelector,
        template: podTemplate,
      }),
      status: open(),
    },
  },
  Job: {
    type: 'object',
    properties: {
      spec: open({ selector: labelSelector, template: podTemplate }),
      status: open(),
    },
  },
  CronJob: {
    type: 'object',
    properties: {
      spec: open({
        schedule: { type: 'string' },
        jobTemplate: open({
          metadata: open(),
          spec: open({ template: podTemplate }),
        }),
      }),
      status: open(),
    },
  },
};
