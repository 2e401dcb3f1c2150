import type { Diagnosis } from '@model-manager/plugin-model-manager-common';
import type { DiagnosisReader, DiagnosisTarget } from '../../diagnosis';
import type { DiagnosisWatches } from './DiagnosisWatches';

type Entry = {
  /** The namespace's pods-and-Events version the diagnosis was read at. */
  version: number;
  targets: string;
  value: Promise<Map<string, Diagnosis>>;
};

/** What of a target its diagnosis depends on besides the namespace's pods and Events. */
const targetsKey = (targets: DiagnosisTarget[]) =>
  JSON.stringify(
    targets.map(t => [
      t.model,
      t.server.kind,
      t.server.name,
      t.serverLive?.metadata?.resourceVersion ?? null,
      t.jobName ?? null,
      t.objectNames,
      t.signatures.map(s => s.id),
    ]),
  );

/**
 * The fleet's NotReady diagnosis over the watch cache of pods and Events ({@link DiagnosisWatches}):
 * a namespace diagnosed while its cluster's watches are live is kept until a pod or Event there
 * changes (or its targets do), so a fleet answer reads nothing from the cluster for it, not even
 * a pod log; the change drops it, moves {@link version} and tells the subscribers (the
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
    const targetsAt = targetsKey(targets);
    const entry = this.kept.get(key);
    if (entry && entry.version === version && entry.targets === targetsAt)
      return entry.value;
    const value = this.reader.diagnoseNamespace(cluster, namespace, targets);
    this.kept.set(key, { version, targets: targetsAt, value });
    value.catch(() => {
      if (this.kept.get(key)?.value === value) this.kept.delete(key);
    });
    return value;
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
