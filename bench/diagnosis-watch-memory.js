#!/usr/bin/env node
/*
 * Memory of what the fleet diagnosis watches keep (issue 27): 10,000 pods as KServe's predictor
 * pods look on a cluster (one crash-looping container, managedFields, the projected token volume)
 * and 10,000 Warning Events (the kubelet's BackOff), each parsed from its own JSON text as a watch
 * stream delivers them, held as sent and as kept (slimPod / slimEvent of
 * plugins/model-manager-backend/src/fleet/watch/slimObjects.ts). Heap after a full GC.
 *
 *   node --expose-gc bench/diagnosis-watch-memory.js
 */
require('@backstage/cli/config/nodeTransform.cjs');
const path = require('node:path');

const { slimPod, slimEvent } = require(path.join(
  __dirname,
  '../plugins/model-manager-backend/src/fleet/watch/slimObjects.ts',
));
const pod = i => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: `m-${i}-predictor-7d9f8c6b5-abcde`,
    namespace: 'models',
    uid: 'u'.repeat(36),
    resourceVersion: String(1000 + i),
    creationTimestamp: '2026-12-02T06:00:00Z',
    generateName: `m-${i}-predictor-7d9f8c6b5-`,
    labels: {
      'serving.kserve.io/inferenceservice': `m-${i}`,
      component: 'predictor',
      'pod-template-hash': '7d9f8c6b5',
      'app.kubernetes.io/managed-by': 'model-manager',
      'app.kubernetes.io/name': `m-${i}`,
    },
    annotations: {
      'serving.kserve.io/deploymentMode': 'RawDeployment',
      'prometheus.io/scrape': 'true',
      'kubectl.kubernetes.io/restartedAt': '2026-12-02T06:00:00Z',
    },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: `m-${i}-predictor-7d9f8c6b5`,
        uid: 'u'.repeat(36),
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    managedFields: [
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-12-02T06:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': {
            'f:labels': {
              '.': {},
              'f:component': {},
              'f:pod-template-hash': {},
            },
          },
          'f:spec': {
            'f:containers': {
              'k:{"name":"kserve-container"}': {
                '.': {},
                'f:args': {},
                'f:image': {},
                'f:resources': {},
              },
            },
          },
        },
      },
      {
        manager: 'kubelet',
        operation: 'Update',
        apiVersion: 'v1',
        subresource: 'status',
        time: '2026-12-02T06:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:status': {
            'f:conditions': {},
            'f:containerStatuses': {},
            'f:hostIP': {},
            'f:phase': {},
            'f:podIP': {},
            'f:startTime': {},
          },
        },
      },
    ],
  },
  spec: {
    nodeName: 'node-1',
    serviceAccountName: 'default',
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    containers: [
      {
        name: 'kserve-container',
        image: 'vllm/vllm-openai:v0.19.1',
        args: [
          '--model',
          `/mnt/models/m-${i}`,
          '--port',
          '8080',
          '--served-model-name',
          `m-${i}`,
          '--max-model-len',
          '8192',
        ],
        env: [
          { name: 'HF_HOME', value: '/tmp/hf' },
          { name: 'VLLM_CPU_KVCACHE_SPACE', value: '4' },
        ],
        resources: {
          limits: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' },
          requests: { cpu: '2', memory: '8Gi', 'nvidia.com/gpu': '1' },
        },
        volumeMounts: [
          {
            name: 'kube-api-access-abcde',
            mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
            readOnly: true,
          },
        ],
        readinessProbe: {
          httpGet: { path: '/health', port: 8080 },
          periodSeconds: 10,
        },
        terminationMessagePath: '/dev/termination-log',
        imagePullPolicy: 'IfNotPresent',
      },
    ],
    volumes: [
      {
        name: 'kube-api-access-abcde',
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            {
              configMap: {
                name: 'kube-root-ca.crt',
                items: [{ key: 'ca.crt', path: 'ca.crt' }],
              },
            },
          ],
        },
      },
    ],
    tolerations: [
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ],
  },
  status: {
    phase: 'Running',
    hostIP: '10.0.0.1',
    podIP: '10.1.0.5',
    startTime: '2026-12-02T06:00:00Z',
    qosClass: 'Burstable',
    conditions: [
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ].map(type => ({
      type,
      status: 'True',
      lastTransitionTime: '2026-12-02T06:00:00Z',
      lastProbeTime: null,
    })),
    containerStatuses: [
      {
        name: 'kserve-container',
        ready: false,
        restartCount: 2,
        image: 'vllm/vllm-openai:v0.19.1',
        imageID: `docker.io/vllm/vllm-openai@sha256:${'a'.repeat(64)}`,
        containerID: `containerd://${'b'.repeat(64)}`,
        started: false,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: 'back-off 40s restarting failed container',
          },
        },
        lastState: {
          terminated: {
            reason: 'OOMKilled',
            exitCode: 137,
            startedAt: '2026-12-02T06:00:00Z',
            finishedAt: '2026-12-02T06:01:00Z',
            containerID: `containerd://${'c'.repeat(64)}`,
          },
        },
      },
    ],
  },
});
const event = i => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: {
    name: `m-${i}-predictor-7d9f8c6b5-abcde.18a1b2c3d4e5f6a7`,
    namespace: 'models',
    uid: 'u'.repeat(36),
    resourceVersion: String(5000 + i),
    creationTimestamp: '2026-12-02T06:00:00Z',
    managedFields: [
      {
        manager: 'kubelet',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-12-02T06:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:count': {},
          'f:firstTimestamp': {},
          'f:involvedObject': {},
          'f:lastTimestamp': {},
          'f:message': {},
          'f:reason': {},
          'f:reportingComponent': {},
          'f:reportingInstance': {},
          'f:source': { 'f:component': {}, 'f:host': {} },
          'f:type': {},
        },
      },
    ],
  },
  involvedObject: {
    apiVersion: 'v1',
    kind: 'Pod',
    name: `m-${i}-predictor-7d9f8c6b5-abcde`,
    namespace: 'models',
    uid: 'u'.repeat(36),
    resourceVersion: '1234',
    fieldPath: 'spec.containers{kserve-container}',
  },
  reason: 'BackOff',
  message: `Back-off restarting failed container kserve-container in pod m-${i}-predictor-7d9f8c6b5-abcde_models(${'u'.repeat(
    36,
  )})`,
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-12-02T06:00:00Z',
  lastTimestamp: '2026-12-02T06:05:00Z',
  count: 23,
  type: 'Warning',
  eventTime: null,
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
});
const N = 10000;
const heap = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};
/** The heap that what `make` returns holds, measured while it is alive; it is dropped after. */
function heldBytes(make) {
  const before = heap();
  const held = make();
  const bytes = heap() - before;
  if (held.length === 0) throw new Error('nothing was made');
  return bytes;
}
for (const [what, make, slim] of [
  ['pods', pod, slimPod],
  ['Warning Events', event, slimEvent],
]) {
  // Each object parsed from its own JSON text, as a watch stream gives them (no shared strings).
  const texts = Array.from({ length: N }, (_, i) => JSON.stringify(make(i)));
  const fullBytes = heldBytes(() => texts.map(t => JSON.parse(t)));
  const slimBytes = heldBytes(() => texts.map(t => slim(JSON.parse(t))));
  console.log(
    `${N} ${what}: JSON ${(texts.reduce((a, t) => a + t.length, 0) / N).toFixed(
      0,
    )} B each; heap as sent ${(fullBytes / 2 ** 20).toFixed(
      1,
    )} MiB, as kept (slim) ${(slimBytes / 2 ** 20).toFixed(1)} MiB (${(
      slimBytes / N
    ).toFixed(0)} B each)`,
  );
}
