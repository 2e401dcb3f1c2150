import type { KubernetesObject } from '@kubernetes/client-node';
import type {
  Catalog,
  DeploymentRecord,
  FleetTarget,
} from '@model-manager/plugin-model-manager-common';

/**
 * A target's description from the previous fleet build, reused when none of its inputs changed:
 * the same catalog (object identity: a reload makes a new one), the same last record (history rows
 * are never changed; `id` is unique), the cluster read or not, the same gateway URL, and the same
 * live objects (each object's `uid` and `resourceVersion`: Kubernetes gives an object a new
 * resourceVersion whenever it changes, status included). These are every input of the description
 * (`describeTarget` in buildFleet.ts). A cold `/fleet` re-lists the clusters every cache period (or,
 * with the watch cache, rebuilds every diagnosis period); most targets have not changed since the
 * last build, and describing them (their sync state: renders and field diffs) was most of the
 * backend's CPU (docs/performance.md, "Third round").
 *
 * What it does not cover: the NotReady diagnosis, which reads pods and Events (not a target's live
 * objects). It runs after every build on the targets handed out here, so a pod going from
 * ImagePullBackOff to OOMKilled changes the reason although the memo reused the description.
 *
 * Keeps only the targets of the latest build. Hands out shallow copies: the diagnosis sets
 * `reason` and removes `awaitingKServe` on the targets it is given.
 */
export class TargetMemo {
  private catalog?: Catalog;
  private entries = new Map<string, { inputs: string; target: FleetTarget }>();
  private next = new Map<string, { inputs: string; target: FleetTarget }>();

  /** Starts a build over `catalog` (a different catalog forgets every target). */
  begin(catalog: Catalog) {
    if (catalog !== this.catalog) this.entries.clear();
    this.catalog = catalog;
    this.next = new Map();
  }

  /** The target as described last time with the same inputs, else `describe()` (remembered). */
  get(
    key: string,
    inputs: {
      readable: boolean;
      record?: DeploymentRecord;
      objects: KubernetesObject[];
      gatewayBaseUrl?: string;
    },
    describe: () => FleetTarget,
  ): FleetTarget {
    const fingerprint = fingerprintOf(inputs);
    if (fingerprint === undefined) return describe();
    const entry = this.entries.get(key);
    const target =
      entry && entry.inputs === fingerprint ? entry.target : describe();
    this.next.set(key, { inputs: fingerprint, target });
    return { ...target };
  }

  /** Ends a build: what it did not describe is forgotten. */
  end() {
    this.entries = this.next;
    this.next = new Map();
  }
}

function fingerprintOf(inputs: {
  readable: boolean;
  record?: DeploymentRecord;
  objects: KubernetesObject[];
  gatewayBaseUrl?: string;
}): string | undefined {
  // An unread cluster's targets carry its error, which may differ from one read to the next.
  if (!inputs.readable) return undefined;
  const parts = [
    inputs.record ? String(inputs.record.id) : '-',
    inputs.gatewayBaseUrl ?? '-',
  ];
  for (const o of inputs.objects) {
    const { uid, resourceVersion, name } = o.metadata ?? {};
    // Without a resourceVersion a change could not be seen: describe the target every time.
    if (!uid || !resourceVersion) return undefined;
    parts.push(`${o.apiVersion}/${o.kind}/${name}/${uid}/${resourceVersion}`);
  }
  return parts.join('\u0000');
}
