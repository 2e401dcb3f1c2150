import type { Diagnosis } from '@model-manager/plugin-model-manager-common';
import type { DiagnosisReader, DiagnosisTarget } from '../../diagnosis';
import type { DiagnosisWatches } from './DiagnosisWatches';

type Entry = {
  /** The namespace's pods-and-Events version the diagnoses were read at. */
  version: number;
  /** Per target (its {@link targetKey}), its diagnosis. */
  diagnoses: Map<string, Promise<Diagnosis | undefined>>;
};

/**
 * What of a target its diagnosis depends on besides the namespace's pods and Events, as one
 * string (parts joined by a character no Kubernetes name, kind or signature id holds; built for
 * every NotReady target on every fleet build, so plain concatenation rather than JSON).
 */
const targetKey = (t: DiagnosisTarget) => {
  let key = `${t.model}\u0000${t.server.kind}\u0000${t.server.name}\u0000${
    t.serverLive?.metadata?.resourceVersion ?? ''
  }\u0000${t.progress?.name ?? ''}\u0000`;
  for (const name of t.objectNames) key += `${name}\u0001`;
  key += '\u0000';
  for (const s of t.signatures) key += `${s.id}\u0001`;
  return key;
};

/**
 * The fleet's NotReady diagnosis over the watch cache of pods and Events ({@link DiagnosisWatches}):
 * a target diagnosed while its cluster's watches are live is kept until a pod or Event of its
 * namespace changes (or its server object does), so a fleet answer reads nothing from the cluster
 * for it, not even a pod log; a pod or Event change drops the namespace's, moves {@link version} and tells the subscribers (the
 * `/fleet/events` stream), so the page reads the fleet again and sees the new reason.
 *
 * While a cluster's watches are not live (starting, down, no RBAC to watch), its namespaces are
 * listed as before and nothing is kept: the fleet reads them again after its cache period.
 */
export class WatchedDiagnosis
  implements Pick<DiagnosisReader, 'diagnoseNamespace'>
{
  private readonly kept = new Map<string, Entry>();
  private readonly listeners = new Set<(cluster: string) => void>();
  private changes = 0;
  private listedCount = 0;

  private constructor(
    private readonly reader: Pick<DiagnosisReader, 'diagnoseNamespace'>,
    private readonly watches: Pick<
      DiagnosisWatches,
      'started' | 'live' | 'version' | 'subscribe'
    >,
  ) {
    watches.subscribe((cluster, namespace) => {
      // Only a namespace a diagnosis was kept for matters: a pod or Event elsewhere changes no
      // reason the fleet shows, and is not pushed.
      if (!this.kept.delete(`${cluster}\u0000${namespace}`)) return;
      this.changes++;
      for (const l of this.listeners) l(cluster);
    });
  }

  /** `reader` reads from `watches` when they are live (DiagnosisReader's `watched`). */
  static create(options: {
    reader: Pick<DiagnosisReader, 'diagnoseNamespace'>;
    watches: Pick<
      DiagnosisWatches,
      'started' | 'live' | 'version' | 'subscribe'
    >;
  }): WatchedDiagnosis {
    return new WatchedDiagnosis(options.reader, options.watches);
  }

  async diagnoseNamespace(
    cluster: string,
    namespace: string,
    targets: DiagnosisTarget[],
    impersonateUser?: string,
  ): Promise<Map<string, Diagnosis>> {
    if (impersonateUser)
      return this.reader.diagnoseNamespace(
        cluster,
        namespace,
        targets,
        impersonateUser,
      );
    // First diagnosis on the cluster: its watches' first LISTs are this read (no other one).
    await this.watches.started(cluster);
    if (!this.watches.live(cluster)) {
      this.listedCount++;
      return this.reader.diagnoseNamespace(cluster, namespace, targets);
    }
    const key = `${cluster}\u0000${namespace}`;
    const version = this.watches.version(cluster, namespace);
    let entry = this.kept.get(key);
    if (!entry || entry.version !== version) {
      entry = { version, diagnoses: new Map() };
      this.kept.set(key, entry);
    }
    const kept = entry.diagnoses;
    // Only the targets not diagnosed at this version (new, or their server object changed): a
    // status change of one model does not diagnose its namespace's others again.
    const keys = targets.map(targetKey);
    const missing = targets.filter((_, i) => !kept.has(keys[i]));
    if (missing.length > 0) {
      const read = this.reader.diagnoseNamespace(cluster, namespace, missing);
      missing.forEach(t => {
        const k = targetKey(t);
        const one = read.then(found => found.get(t.model));
        kept.set(k, one);
        one.catch(() => {
          if (kept.get(k) === one) kept.delete(k);
        });
      });
    }
    // What this namespace's targets no longer are (an older server object) is not kept.
    const wanted = new Set(keys);
    for (const k of kept.keys()) if (!wanted.has(k)) kept.delete(k);
    const found = await Promise.all(keys.map(k => kept.get(k)!));
    const result = new Map<string, Diagnosis>();
    targets.forEach((t, i) => {
      if (found[i]) result.set(t.model, found[i]!);
    });
    return result;
  }

  /** Moves when a kept diagnosis was dropped by a change of its pods or Events. */
  version(): number {
    return this.changes;
  }

  /**
   * How many namespace diagnoses were listed (their cluster's watches not live): no change of their
   * pods or Events will move {@link version}, so what holds them must read them again in time.
   */
  listed(): number {
    return this.listedCount;
  }

  /** Whether the cluster's pods and Events are watched live (its diagnoses are kept). */
  live(cluster: string): boolean {
    return this.watches.live(cluster);
  }

  /** Called with the cluster of a dropped diagnosis (for `/fleet/events`). */
  subscribe(listener: (cluster: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
