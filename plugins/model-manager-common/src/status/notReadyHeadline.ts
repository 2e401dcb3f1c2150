import type { JobPhase } from './summarizeJob';

/**
 * What a NotReady target is doing, said the same way by every view (the Deployments page, the
 * Serving tab, `model-manager fleet`): `waiting` when nothing has failed yet (KServe has not
 * reported, or the weights are still downloading), else failing; `words` names what it waits for
 * or what failed, lower case, when that is known.
 * @public
 */
export type NotReadyHeadline = { waiting: boolean; words?: string };

/**
 * The headline of a NotReady target from what KServe reported (`awaitingKServe`: no Ready
 * condition yet and no known failure found) and its weights download Job's phase, if it has one.
 * A failed download is failing whatever KServe says (a failed Job never runs again); a download
 * still pending or running is what a model KServe has not reported on waits for.
 * @public
 */
export function notReadyHeadline(target: {
  awaitingKServe?: boolean;
  downloadPhase?: JobPhase;
}): NotReadyHeadline {
  const phase = target.downloadPhase;
  if (phase === 'failed')
    return { waiting: false, words: 'weights download failed' };
  if (target.awaitingKServe !== true) return { waiting: false };
  if (phase === 'pending' || phase === 'running')
    return { waiting: true, words: 'waiting for the weights download' };
  return { waiting: true, words: 'waiting for KServe' };
}
