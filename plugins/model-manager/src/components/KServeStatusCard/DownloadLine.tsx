import {
  StatusError,
  StatusOK,
  StatusPending,
  StatusRunning,
} from '@backstage/core-components';
import Typography from '@material-ui/core/Typography';
import type { DownloadStatus } from '@model-manager/plugin-model-manager-common';

const PHASE = {
  pending: StatusPending,
  running: StatusRunning,
  failed: StatusError,
  complete: StatusOK,
} as const;

/** The weights download Job's progress: pending, running, failed (with the pod's reason) or complete. */
export function DownloadLine({ download }: { download: DownloadStatus }) {
  const job = `Job ${download.namespace}/${download.name}`;
  let state: JSX.Element;
  if (download.error) {
    state = (
      <StatusPending>
        its status could not be read: {download.error}
      </StatusPending>
    );
  } else if (!download.found || !download.progress) {
    state = (
      <StatusPending>
        the Job is not on the cluster (it is removed a day after it finishes)
      </StatusPending>
    );
  } else {
    const { phase, reason, message } = download.progress;
    const Status = PHASE[phase];
    state = (
      <>
        <Status>
          {phase}
          {reason ? ` (${reason})` : ''}
        </Status>{' '}
        <Typography variant="body2" component="span">
          {message}
        </Typography>
      </>
    );
  }
  return (
    <div
      data-testid="weights-download"
      style={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 8,
      }}
    >
      <Typography variant="body2" component="span">
        Weights download ({job}):
      </Typography>{' '}
      {state}
    </div>
  );
}
