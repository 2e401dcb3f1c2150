/**
 * The ObjectMeta schema the server uses for `metadata` of every kind, with the
 * list/map annotations kube-apiserver's typed schema carries. CRD schemas only
 * declare `metadata: {type: object}`; the real server substitutes ObjectMeta.
 */
import { JsonObject } from '../util/json';

const stringMap: JsonObject = {
  type: 'object',
  additionalProperties: { type: 'string' },
};

export const OBJECT_META_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    generateName: { type: 'string' },
    namespace: { type: 'string' },
    selfLink: { type: 'string' },
    uid: { type: 'string' },
    resourceVersion: { type: 'string' },
    generation: { type: 'integer' },
    creationTimestamp: { type: 'string', nullable: true },
    deletionTimestamp: { type: 'string', nullable: true },
    deletionGracePeriodSeconds: { type: 'integer' },
    labels: stringMap,
    annotations: stringMap,
    ownerReferences: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      items: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          name: { type: 'string' },
          uid: { type: 'string' },
          controller: { type: 'boolean' },
          blockOwnerDeletion: { type: 'boolean' },
        },
      },
    },
    finalizers: {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'string' },
    },
    managedFields: {
      type: 'array',
      items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
};

/** Replaces `properties.metadata` of a root schema with ObjectMeta. */
export function withObjectMeta(root: JsonObject): JsonObject {
  const props = (root.properties ?? {}) as JsonObject;
  return {
    ...root,
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      ...props,
      metadata: OBJECT_META_SCHEMA,
    },
  };
}
