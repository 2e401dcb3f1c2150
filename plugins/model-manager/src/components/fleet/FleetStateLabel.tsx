import {
  StatusError,
  StatusOK,
  StatusPending,
  StatusWarning,
} from '@backstage/core-components';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import type {
  FleetState,
  FleetTarget,
} from '@model-manager/plugin-model-manager-common';

const statusOf: Record<
  FleetState,
  (p: { children: React.ReactNode }) => JSX.Element
> = {
  Ready: StatusOK,
  NotReady: StatusError,
  Missing: StatusWarning,
  Unknown: StatusPending,
};

/** Reasons longer than this are cut, the whole text in a tooltip. */
const REASON_CHARS = 110;

/**
 * A target's state with KServe's reason (or the missing objects, or the cluster error) below it.
 * A model KServe has not reported on yet is waiting, not failing: shown as pending.
 */
export function FleetStateLabel(props: {
  state: FleetState;
  reason?: string;
  awaitingKServe?: FleetTarget['awaitingKServe'];
}) {
  const waiting = props.state === 'NotReady' && props.awaitingKServe === true;
  const Status = waiting ? StatusPending : statusOf[props.state];
  const reason = props.reason ?? '';
  const short =
    reason.length > REASON_CHARS
      ? `${reason.slice(0, REASON_CHARS).trimEnd()}…`
      : reason;
  return (
    <div data-testid={`state-${props.state}`}>
      <span style={{ whiteSpace: 'nowrap' }}>
        <Status>{waiting ? 'Waiting for KServe' : props.state}</Status>
      </span>
      {reason && (
        <Tooltip title={reason}>
          <Typography variant="caption" component="div">
            {short}
          </Typography>
        </Tooltip>
      )}
    </div>
  );
}
