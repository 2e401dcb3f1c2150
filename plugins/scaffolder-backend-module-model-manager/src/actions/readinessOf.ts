import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import { targetLabel } from '@model-manager/plugin-model-manager-common';
import type { ModelManagerClient } from '../client';

/** Which moved targets KServe reports Ready now, and why the others are not. */
export type Readiness = {
  /** `model@cluster/namespace` of each target Ready now. */
  ready: string[];
  /** The others, each with its state and reason: `model@cluster/namespace (NotReady: ...)`. */
  notReady: string[];
};

/**
 * Reads the moved targets' state once, from `GET /fleet?runtime=` (the state the Deployments
 * page shows): a rollout's summary says which targets are Ready, not only which moved (a target
 * applied is not yet serving). A fleet that cannot be read leaves every target "not read".
 */
export async function readinessOf(
  client: ModelManagerClient,
  credentials: BackstageCredentials,
  runtime: string,
  moved: string[],
): Promise<Readiness> {
  if (moved.length === 0) return { ready: [], notReady: [] };
  let states: Map<string, { state: string; reason?: string }>;
  try {
    const fleet = await client.fleet({ runtime }, credentials);
    states = new Map(
      fleet.items.map(t => [
        targetLabel(t),
        { state: t.state, reason: t.reason },
      ]),
    );
  } catch (e) {
    return {
      ready: [],
      notReady: moved.map(
        t => `${t} (state not read: ${(e as Error).message})`,
      ),
    };
  }
  const ready: string[] = [];
  const notReady: string[] = [];
  for (const target of moved) {
    const s = states.get(target);
    if (s?.state === 'Ready') ready.push(target);
    else
      notReady.push(
        `${target} (${s ? s.state : 'not found'}${
          s?.reason ? `: ${s.reason}` : ''
        })`,
      );
  }
  return { ready, notReady };
}
