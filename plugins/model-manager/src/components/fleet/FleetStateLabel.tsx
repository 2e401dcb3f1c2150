import {
  StatusError,
  StatusOK,
  StatusPending,
  StatusWarning,
} from '@backstage/core-components';
import Typography from '@material-ui/core/Typography';
import type { FleetState } from '@model-manager/plugin-model-manager-common';

const statusOf: Record<
  FleetState,
  (p: { children: React.ReactNode }) => JSX.Element
> = {
  Ready: StatusOK,
  NotReady: StatusError,
  Missing: StatusWarning,
  Unknown: StatusPending,
};

/** A target's state with KServe's reason (or the missing objects, or the cluster error) below it. */
export function FleetStateLabel(props: { state: FleetState; reason?: string }) {
  const Status = statusOf[props.state];
  return (
    <div data-testid={`state-${props.state}`}>
      <Status>{props.state}</Status>
      {props.reason && (
        <Typography variant="caption" component="div">
          {props.reason}
        </Typography>
      )}
    </div>
  );
}
