import type { KubernetesObject } from '@kubernetes/client-node';
import {
  isServerKind,
  progressObjectOf,
  signaturesFor,
  type Catalog,
  type FleetTarget,
} from '@model-manager/plugin-model-manager-common';
import type { DiagnosisReader, DiagnosisTarget } from '../diagnosis';
import type { DeploymentRecord } from '../history';
import type { ClusterRead } from './LiveObjectCache';

/**
 * Gives the fleet's NotReady targets the headline of their diagnosis as `reason` where the
 * diagnosis matched a known signature, and no longer calls them waiting for KServe (a Ready,
 * Missing or Unknown target is not read). Pods and
 * Events are read once per cluster/namespace for all its NotReady targets (see
 * DiagnosisReader.diagnoseNamespace); a namespace that cannot be read keeps KServe's reason.
 * Mutates `targets`.
 */
export async function diagnoseNotReady(input: {
  catalog: Catalog;
  targets: FleetTarget[];
  records: DeploymentRecord[];
  reads: ClusterRead[];
  reader: Pick<DiagnosisReader, 'diagnoseNamespace'>;
}): Promise<void> {
  const { catalog } = input;
  const recordOf = new Map(
    input.records.map(r => [`${r.cluster}/${r.namespace}/${r.model}`, r]),
  );
  // The live objects by cluster, kind, namespace and name: looked up once per NotReady target
  // (10,000 targets over 10 clusters: a scan of the cluster's objects each was 10 million steps).
  const liveKey = (
    cluster: string,
    kind: string | undefined,
    namespace: string | undefined,
    name: string | undefined,
  ) => `${cluster}\u0000${kind}\u0000${namespace}\u0000${name}`;
  const live = new Map<string, KubernetesObject>();
  for (const read of input.reads)
    for (const o of read.objects) {
      const key = liveKey(
        read.cluster,
        o.kind,
        o.metadata?.namespace,
        o.metadata?.name,
      );
      // The first one, as a scan would find it.
      if (!live.has(key)) live.set(key, o);
    }
  const groups = new Map<
    string,
    Array<{ target: FleetTarget; d: DiagnosisTarget }>
  >();
  for (const target of input.targets) {
    if (target.state !== 'NotReady') continue;
    const record = recordOf.get(
      `${target.cluster}/${target.namespace}/${target.model}`,
    );
    const main = record?.manifests.find(o => isServerKind(catalog, o.kind));
    if (!record || !main) continue;
    const serverLive = live.get(
      liveKey(target.cluster, main.kind, target.namespace, main.name),
    ) as Record<string, any> | undefined;
    const key = `${target.cluster}\u0000${target.namespace}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push({
      target,
      d: {
        model: target.model,
        server: { kind: main.kind, name: main.name },
        serverLive,
        progress: progressOf(catalog, target.runtime, record),
        objectNames: record.manifests.map(o => o.name),
        signatures: signaturesFor(catalog.runtimes[target.runtime]?.profile),
      },
    });
  }
  await Promise.all(
    [...groups].map(async ([key, members]) => {
      const [cluster, namespace] = key.split('\u0000');
      const found = await input.reader.diagnoseNamespace(
        cluster,
        namespace,
        members.map(m => m.d),
      );
      for (const { target } of members) {
        const diagnosis = found.get(target.model);
        if (diagnosis && diagnosis.findings.length > 0) {
          target.reason = diagnosis.headline;
          // A known failure (an image that cannot be pulled, an OOMKilled engine): failing, not
          // waiting for KServe to report.
          delete target.awaitingKServe;
        }
      }
    }),
  );
}

/** The name and pod label of a deploy's progress object (its profile's `progress:`), if any. */
function progressOf(
  catalog: Catalog,
  runtime: string,
  record: DeploymentRecord,
): DiagnosisTarget['progress'] {
  const found = progressObjectOf(catalog, runtime, record.manifests);
  return found && { name: found.object.name, podLabel: found.reader.podLabel };
}
