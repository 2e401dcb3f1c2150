import type { FleetTarget } from '@model-manager/plugin-model-manager-common';
import type { RuntimeSummary } from '../../api';
import { compareVersions } from '../fleet';

/** One row of the version × targets matrix. */
export type VersionRow = {
  /** Absent: targets whose live version could not be read (flat runtime, cluster unreachable). */
  version?: string;
  image?: string;
  default: boolean;
  /** False for a version found live that models.yaml no longer lists. */
  inCatalog: boolean;
  targets: FleetTarget[];
  /** Targets of this row on which what models.yaml resolves now differs from what was applied. */
  outdated: number;
  /** Live targets per cluster. */
  byCluster: Record<string, number>;
};

/**
 * The runtime's versions (newest first) with the live targets running each; then versions found
 * live that models.yaml no longer lists, and the targets whose version is not known.
 */
export function versionMatrix(
  runtime: RuntimeSummary,
  items: FleetTarget[],
): VersionRow[] {
  const rows = new Map<string | undefined, VersionRow>();
  const row = (version: string | undefined, init: Partial<VersionRow> = {}) => {
    let r = rows.get(version);
    if (!r) {
      r = {
        version,
        default: false,
        inCatalog: false,
        targets: [],
        outdated: 0,
        byCluster: {},
        ...init,
      };
      rows.set(version, r);
    }
    return r;
  };
  for (const v of [...runtime.versions].sort((a, b) =>
    compareVersions(b.version, a.version),
  )) {
    row(v.version, { image: v.image, default: v.default, inCatalog: true });
  }
  for (const t of items.filter(i => i.runtime === runtime.name)) {
    const r = row(
      runtime.versioned ? t.liveVersion : undefined,
      runtime.versioned ? {} : { inCatalog: true, image: t.liveImage },
    );
    r.targets.push(t);
    if (t.outdated) r.outdated += 1;
    r.byCluster[t.cluster] = (r.byCluster[t.cluster] ?? 0) + 1;
  }
  return [...rows.values()];
}

/** The clusters of the matrix's columns, sorted. */
export const matrixClusters = (rows: VersionRow[]) =>
  [...new Set(rows.flatMap(r => Object.keys(r.byCluster)))].sort();

/** The Roll out runtime version template, pre-filled (the scaffolder reads `formData` from the query). */
export function rolloutTemplateUrl(runtime: string, version?: string): string {
  const formData = version ? { runtime, version } : { runtime };
  return `/create/templates/default/rollout-runtime-version?formData=${encodeURIComponent(
    JSON.stringify(formData),
  )}`;
}
