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
 * `drifted` (someone changed the live objects) and `outdated` (models.yaml now resolves to
 * something else) at a glance; the tooltip lists the fields.
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
      {t.unknownModel && (
        <Chip size="small" variant="outlined" label="not in models.yaml" />
      )}
      {!t.drifted &&
        !t.outdated &&
        !t.outdatedError &&
        !t.unknownModel &&
        t.state !== 'Unknown' && (
          <Chip
            size="small"
            variant="outlined"
            label="in sync"
            data-testid="chip-in-sync"
          />
        )}
    </>
  );
}
