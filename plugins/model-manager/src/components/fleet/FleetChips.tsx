import Chip from '@material-ui/core/Chip';
import Tooltip from '@material-ui/core/Tooltip';
import type { FleetTarget } from '@model-manager/plugin-model-manager-common';
import {
  countChanges,
  ObjectChangesList,
  type ChangeLabels,
} from './ObjectChangesList';

export const DRIFT_LABELS: ChangeLabels = {
  from: 'applied',
  to: 'live',
  reversed: true,
};
/** Outdated compares what was last applied with what models.yaml resolves now; without a revision on record, the live objects. */
export const outdatedLabels = (
  t: Pick<FleetTarget, 'revision'>,
): ChangeLabels => ({ from: t.revision ? 'applied' : 'live', to: 'now' });

/**
 * `drifted` (someone changed the live objects), `outdated` (the same request would now apply
 * something else), `held` (a version a rollout or a request set) and how what runs differs from
 * what a new deploy would apply, at a glance; the tooltips list the fields and reasons.
 */
export function FleetChips(props: { target: FleetTarget }) {
  const t = props.target;
  return (
    <>
      {t.drifted && (
        <Tooltip
          title={<ObjectChangesList objects={t.drift} labels={DRIFT_LABELS} />}
        >
          <Chip
            size="small"
            color="secondary"
            label={`drifted: ${countChanges(t.drift)}`}
            data-testid="chip-drifted"
          />
        </Tooltip>
      )}
      {t.outdated && !t.outdatedError && (
        <Tooltip
          title={
            <ObjectChangesList
              objects={t.outdatedChanges}
              labels={outdatedLabels(t)}
            />
          }
        >
          <Chip
            size="small"
            label={`outdated: ${countChanges(t.outdatedChanges)}`}
            data-testid="chip-outdated"
          />
        </Tooltip>
      )}
      {t.outdatedError && (
        <Tooltip title={t.outdatedError}>
          <Chip
            size="small"
            variant="outlined"
            label="cannot resolve"
            data-testid="chip-unresolvable"
          />
        </Tooltip>
      )}
      {t.sync?.hold && (
        <Tooltip title={t.sync.hold.text}>
          <Chip
            size="small"
            color="primary"
            variant="outlined"
            label={`held at ${t.sync.hold.version} (${t.sync.hold.by})`}
            data-testid="chip-held"
          />
        </Tooltip>
      )}
      {t.sync?.state === 'differs' && (
        <Tooltip
          title={
            <>
              {t.sync.differences.map(d => (
                <div key={`${d.kind}/${d.name}${d.path}`}>
                  {d.path} ({d.reason}): {d.text}
                </div>
              ))}
            </>
          }
        >
          <Chip
            size="small"
            variant="outlined"
            label={`differs from a new deploy: ${t.sync.differences.length} (${[
              ...new Set(t.sync.differences.map(d => d.reason)),
            ].join(', ')})`}
            data-testid="chip-differs"
          />
        </Tooltip>
      )}
      {t.unknownModel && (
        <Chip size="small" variant="outlined" label="not in models.yaml" />
      )}
      {!t.drifted &&
        !t.outdated &&
        !t.outdatedError &&
        !t.unknownModel &&
        (!t.sync || t.sync.state === 'in-sync') &&
        t.state !== 'Unknown' && (
          // About the configuration, not health (the state beside it says whether it serves):
          // worded as the pair of "differs from a new deploy".
          <Tooltip title="What runs is what a new deploy of models.yaml would apply; whether it serves is the state beside it">
            <Chip
              size="small"
              variant="outlined"
              label="same as a new deploy"
              data-testid="chip-in-sync"
            />
          </Tooltip>
        )}
    </>
  );
}
