import type {
  FleetState,
  FleetTarget,
} from '@model-manager/plugin-model-manager-common';

/** What the Models page shows of a model's targets. */
export type ModelFleetSummary = {
  deployments: number;
  /** Live versions, sorted, each once. */
  liveVersions: string[];
  states: Partial<Record<FleetState, number>>;
  drifted: number;
  outdated: number;
};

/** Sums up the targets of each model, keyed by model name. */
export function aggregateFleet(
  items: FleetTarget[],
): Map<string, ModelFleetSummary> {
  const byModel = new Map<string, ModelFleetSummary>();
  for (const t of items) {
    let s = byModel.get(t.model);
    if (!s) {
      s = {
        deployments: 0,
        liveVersions: [],
        states: {},
        drifted: 0,
        outdated: 0,
      };
      byModel.set(t.model, s);
    }
    s.deployments += 1;
    if (t.liveVersion && !s.liveVersions.includes(t.liveVersion))
      s.liveVersions.push(t.liveVersion);
    s.states[t.state] = (s.states[t.state] ?? 0) + 1;
    if (t.drifted) s.drifted += 1;
    if (t.outdated) s.outdated += 1;
  }
  for (const s of byModel.values()) s.liveVersions.sort(compareVersions);
  return byModel;
}

/** Orders versions numerically part by part (0.9.0 before 0.10.0), text parts as text. */
export function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true });
}

/** `2 Ready, 1 NotReady` in the order of FLEET_STATES. */
export function describeStates(
  states: Partial<Record<FleetState, number>>,
  order: readonly FleetState[],
): string {
  return order
    .filter(s => states[s])
    .map(s => `${states[s]} ${s}`)
    .join(', ');
}
