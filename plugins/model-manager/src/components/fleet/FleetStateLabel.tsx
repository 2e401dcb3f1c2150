import {
  StatusError,
  StatusOK,
  StatusPending,
  StatusWarning,
} from '@backstage/core-components';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import {
  notReadyHeadline,
  type FleetState,
  type FleetTarget,
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

/** The words of the headline, the Serving tab's (KServeStatusCard's Headline) for the same state. */
function headline(props: {
  state: FleetState;
  awaitingKServe?: boolean;
  download?: FleetTarget['download'];
}): {
  Status: (p: { children: React.ReactNode }) => JSX.Element;
  text: string;
} {
  if (props.state !== 'NotReady')
    return { Status: statusOf[props.state], text: props.state };
  const { waiting, words } = notReadyHeadline({
    awaitingKServe: props.awaitingKServe,
    downloadPhase: props.download?.phase,
  });
  return {
    Status: waiting ? StatusPending : StatusError,
    text: words ? words[0].toUpperCase() + words.slice(1) : props.state,
  };
}

/**
 * A target's state with KServe's reason (or the missing objects, or the cluster error) below it.
 * A model KServe has not reported on yet is waiting, not failing: shown as pending, and named
 * after what it waits for (its weights download, while that runs, else KServe).
 */
export function FleetStateLabel(props: {
  state: FleetState;
  reason?: string;
  awaitingKServe?: FleetTarget['awaitingKServe'];
  download?: FleetTarget['download'];
}) {
  const { Status, text } = headline(props);
  const reason = props.reason ?? '';
  const short =
    reason.length > REASON_CHARS
      ? `${reason.slice(0, REASON_CHARS).trimEnd()}…`
      : reason;
  return (
    <div data-testid={`state-${props.state}`}>
      {/* Short states keep to one line; a long one ("Waiting for the weights download") may wrap
          rather than widen the table past a 1280 px window. */}
      <span style={{ whiteSpace: text.length > 20 ? 'normal' : 'nowrap' }}>
        <Status>{text}</Status>
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
