/**
 * Defaulting and validation of the built-in kinds: a small, documented subset
 * of what kube-apiserver does for them.
 */
import { FieldError, fieldErrors } from '../api/fieldErrors';
import { isDns1123Label } from '../api/names';
import {
  JsonObject,
  JsonValue,
  deepEqual,
  getObject,
  isObject,
} from '../util/json';
import { ResourceHooks } from './types';

function meta(obj: JsonObject): JsonObject {
  return getObject(obj, 'metadata');
}

function defaultContainer(c: JsonObject) {
  const image = typeof c.image === 'string' ? c.image : '';
  const tagged = /:[^/]+$/.test(image) && !image.endsWith(':latest');
  c.imagePullPolicy ??=
    tagged || image.includes('@') ? 'IfNotPresent' : 'Always';
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
}

function defaultPodSpec(spec: JsonObject) {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  for (const key of ['containers', 'initContainers']) {
    const list = spec[key];
    if (Array.isArray(list))
      for (const c of list) if (isObject(c)) defaultContainer(c);
  }
}

function validatePodSpec(
  spec: JsonValue | undefined,
  path: string,
  restartPolicies: string[],
): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = isObject(spec) ? spec : {};
  const containers = podSpec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    errs.push(fieldErrors.required(`${path}.containers`));
  } else {
    containers.forEach((c, i) => {
      const cPath = `${path}.containers[${i}]`;
      const container = isObject(c) ? c : {};
      const name = container.name;
      if (typeof name !== 'string' || !name)
        errs.push(fieldErrors.required(`${cPath}.name`));
      else
        for (const msg of isDns1123Label(name))
          errs.push(fieldErrors.invalid(`${cPath}.name`, name, msg));
      if (typeof container.image !== 'string' || !container.image)
        errs.push(fieldErrors.required(`${cPath}.image`));
    });
  }
  const policy = podSpec.restartPolicy;
  if (typeof policy !== 'string' || !restartPolicies.includes(policy)) {
    errs.push(
      fieldErrors.notSupported(
        `${path}.restartPolicy`,
        policy ?? '',
        restartPolicies,
      ),
    );
  }
  return errs;
}

const templateSpec = (obj: JsonObject): JsonObject =>
  getObject(getObject(getObject(obj, 'spec'), 'template'), 'spec');

export const JOB_HOOKS: ResourceHooks = {
  prepareForCreate(obj) {
    const m = meta(obj);
    const uid = String(m.uid);
    const name = String(m.name);
    const spec = getObject(obj, 'spec');
    spec.parallelism ??= 1;
    spec.completions ??= 1;
    spec.backoffLimit ??= 6;
    spec.completionMode ??= 'NonIndexed';
    spec.suspend ??= false;
    spec.podReplacementPolicy ??= 'TerminatingOrFailed';
    if (!spec.manualSelector)
      spec.selector = {
        matchLabels: { 'batch.kubernetes.io/controller-uid': uid },
      };
    const tmplMeta = getObject(getObject(spec, 'template'), 'metadata');
    tmplMeta.labels = {
      ...(isObject(tmplMeta.labels) ? tmplMeta.labels : {}),
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': name,
      'controller-uid': uid,
      'job-name': name,
    };
    defaultPodSpec(templateSpec(obj));
    obj.status = {};
  },
  validate(obj, old) {
    const spec = isObject(obj.spec) ? obj.spec : {};
    const template = isObject(spec.template) ? spec.template : {};
    return [
      ...validatePodSpec(template.spec, 'spec.template.spec', [
        'OnFailure',
        'Never',
      ]),
      ...(old ? immutableJobFields(spec, old) : []),
    ];
  },
};

/**
 * The fields of a Job's spec that an update may not change, in the order kube-apiserver reports
 * them: ValidateJobSpecUpdate (kubernetes pkg/apis/batch/validation/validation.go, v1.34), each
 * through apivalidation.ValidateImmutableField, a 422 Invalid cause `<field>: Invalid value: <new
 * value>: field is immutable`. Not imitated: a suspended Job that never started may change the
 * template's scheduling directives (AllowMutableSchedulingDirectives), and an Indexed Job its
 * completions together with parallelism (ElasticIndexedJob). The real server prints the template's
 * value as a Go struct (`{"labels":…,"Spec":{"Volumes":null,…}}`); this double prints the JSON value.
 */
const JOB_IMMUTABLE_FIELDS = [
  'completions',
  'selector',
  'template',
  'completionMode',
  'podFailurePolicy',
  'backoffLimitPerIndex',
  'managedBy',
  'successPolicy',
];

function immutableJobFields(spec: JsonObject, old: JsonObject): FieldError[] {
  const oldSpec = isObject(old.spec) ? old.spec : {};
  return JOB_IMMUTABLE_FIELDS.filter(
    f => !deepEqual(spec[f] ?? null, oldSpec[f] ?? null),
  ).map(f =>
    fieldErrors.invalid(`spec.${f}`, spec[f] ?? null, 'field is immutable'),
  );
}

export const CRONJOB_HOOKS: ResourceHooks = {
  validate(obj) {
    const spec = isObject(obj.spec) ? obj.spec : {};
    const errs: FieldError[] = [];
    if (typeof spec.schedule !== 'string' || !spec.schedule)
      errs.push(fieldErrors.required('spec.schedule'));
    return errs;
  },
};

export const POD_HOOKS: ResourceHooks = {
  // kube-apiserver defaults a built-in object on every decode (SetDefaults_PodSpec for a create
  // and an update alike), so a Pod put again without restartPolicy keeps Always.
  normalize(obj) {
    defaultPodSpec(getObject(obj, 'spec'));
  },
  prepareForCreate(obj) {
    defaultPodSpec(getObject(obj, 'spec'));
    obj.status = { phase: 'Pending', qosClass: 'BestEffort' };
  },
  validate(obj) {
    return validatePodSpec(obj.spec, 'spec', ['Always', 'OnFailure', 'Never']);
  },
};

/**
 * kube-apiserver's TaintNodesByCondition admission plugin (enabled by default) gives every new
 * Node the `node.kubernetes.io/not-ready:NoSchedule` taint; the node lifecycle controller removes
 * it once the kubelet reports Ready (kubernetes plugin/pkg/admission/nodetaint/admission.go).
 * Without a controller the taint stays, as on a bare API server.
 */
export const NODE_HOOKS: ResourceHooks = {
  prepareForCreate(obj) {
    const spec = getObject(obj, 'spec');
    const taints = Array.isArray(spec.taints) ? spec.taints : [];
    if (
      !taints.some(t => isObject(t) && t.key === 'node.kubernetes.io/not-ready')
    )
      taints.push({
        key: 'node.kubernetes.io/not-ready',
        effect: 'NoSchedule',
      });
    spec.taints = taints;
  },
};

export const DEPLOYMENT_HOOKS: ResourceHooks = {
  prepareForCreate(obj) {
    const spec = getObject(obj, 'spec');
    spec.replicas ??= 1;
    spec.revisionHistoryLimit ??= 10;
    spec.progressDeadlineSeconds ??= 600;
    spec.strategy ??= {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    };
    defaultPodSpec(templateSpec(obj));
    obj.status = {};
  },
  validate(obj) {
    const spec = isObject(obj.spec) ? obj.spec : {};
    const errs: FieldError[] = [];
    if (!isObject(spec.selector))
      errs.push(fieldErrors.required('spec.selector'));
    const template = isObject(spec.template) ? spec.template : {};
    return errs.concat(
      validatePodSpec(template.spec, 'spec.template.spec', ['Always']),
    );
  },
};

export const SECRET_HOOKS: ResourceHooks = {
  normalize(obj) {
    obj.type ??= 'Opaque';
    const stringData = obj.stringData;
    if (isObject(stringData)) {
      const data = getObject(obj, 'data');
      for (const [k, v] of Object.entries(stringData)) {
        data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      }
      delete obj.stringData;
    }
  },
};

export const NAMESPACE_HOOKS: ResourceHooks = {
  prepareForCreate(obj) {
    const spec = getObject(obj, 'spec');
    spec.finalizers ??= ['kubernetes'];
    obj.status = { phase: 'Active' };
  },
  normalize(obj) {
    const m = meta(obj);
    const labels = getObject(m, 'labels');
    labels['kubernetes.io/metadata.name'] = String(m.name);
  },
};

let nextClusterIp = 10;

export const SERVICE_HOOKS: ResourceHooks = {
  prepareForCreate(obj) {
    const spec = getObject(obj, 'spec');
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (spec.clusterIP === undefined) {
      const ip = `10.96.${Math.floor(nextClusterIp / 250)}.${
        (nextClusterIp % 250) + 1
      }`;
      nextClusterIp++;
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
    }
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.internalTrafficPolicy ??= 'Cluster';
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports)
        if (isObject(p)) p.targetPort ??= p.port ?? null;
    }
    obj.status = { loadBalancer: {} };
  },
};

const PVC_ACCESS_MODES = [
  'ReadOnlyMany',
  'ReadWriteMany',
  'ReadWriteOnce',
  'ReadWriteOncePod',
];

/**
 * PersistentVolumeClaims: kube-apiserver's defaulting (volumeMode Filesystem, phase Pending) and
 * the checks of ValidatePersistentVolumeClaim / ValidatePersistentVolumeClaimUpdate
 * (pkg/apis/core/validation) that a claim's author can trip: access modes, the storage request,
 * and the spec being immutable after creation (except the storage request of a Bound claim). Not imitated: the
 * DefaultStorageClass admission plugin (there are no StorageClasses here, so storageClassName
 * stays unset) and binding (claims stay Pending).
 */
export const PVC_HOOKS: ResourceHooks = {
  prepareForCreate(obj) {
    const spec = getObject(obj, 'spec');
    spec.volumeMode ??= 'Filesystem';
    obj.status = { phase: 'Pending' };
  },
  validate(obj, old) {
    const spec = isObject(obj.spec) ? obj.spec : {};
    const errs: FieldError[] = [];
    const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
    if (modes.length === 0) {
      errs.push(
        fieldErrors.required(
          'spec.accessModes',
          'at least 1 access mode is required',
        ),
      );
    }
    for (const mode of modes) {
      if (typeof mode !== 'string' || !PVC_ACCESS_MODES.includes(mode)) {
        errs.push(
          fieldErrors.notSupported(
            'spec.accessModes',
            mode ?? '',
            PVC_ACCESS_MODES,
          ),
        );
      }
    }
    const resources = isObject(spec.resources) ? spec.resources : {};
    const requests = isObject(resources.requests) ? resources.requests : {};
    if (requests.storage === undefined) {
      errs.push(fieldErrors.required('spec.resources[storage]'));
    }
    if (old && isObject(old.spec)) {
      // Only a Bound claim may change its storage request (ValidatePersistentVolumeClaimUpdate:
      // `if newPvc.Status.Phase == core.ClaimBound`); here claims never bind, so a resize is
      // refused as kube-apiserver refuses it for a Pending claim (seen on v1.34.9).
      const bound = isObject(old.status) && old.status.phase === 'Bound';
      const withoutRequests = (s: JsonObject) => {
        if (!bound) return JSON.stringify(s);
        const { resources: r, ...rest } = s;
        const { requests: _requests, ...otherResources } = isObject(r) ? r : {};
        return JSON.stringify({ ...rest, resources: otherResources });
      };
      if (withoutRequests(spec) !== withoutRequests(old.spec)) {
        errs.push(
          fieldErrors.forbidden(
            'spec',
            'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
          ),
        );
      }
    }
    return errs;
  },
};
