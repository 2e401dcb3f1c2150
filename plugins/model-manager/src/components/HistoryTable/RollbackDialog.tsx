import { Progress, WarningPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { toastApiRef } from '@backstage/frontend-plugin-api';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Typography from '@material-ui/core/Typography';
import type { DeploymentHistoryItem } from '@model-manager/plugin-model-manager-common';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { errorText, modelManagerApiRef } from '../../api';
import { ObjectChangesList } from '../fleet';

/**
 * Asks before a rollback: the revision's objects (as applied, with its own overrides) against the
 * live objects show the fields it would change; Confirm applies it. The comparison is a read
 * (GET .../deployments/:revision/diff), not a rollback dry run: opening the dialog, and cancelling
 * it, leaves the deploy history as it was (a dry run is recorded as a history row).
 */
export function RollbackDialog(props: {
  model: string;
  row: DeploymentHistoryItem;
  onClose: () => void;
  onDone: () => void;
}) {
  const api = useApi(modelManagerApiRef);
  const toastApi = useApi(toastApiRef);
  const revision = props.row.revision!;
  const where = `${props.row.cluster}/${props.row.namespace}`;
  const plan = useAsync(
    () => api.revisionDiff(props.model, revision),
    [api, props.model, revision],
  );
  const liveError = plan.value?.againstLive.error;
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      const result = await api.rollback(props.model, revision);
      toastApi.post({
        title: `Rolled back ${props.model} on ${where} to rev ${revision}`,
        description: `New revision ${result.revision}.`,
        status: 'success',
        timeout: 5000,
      });
      props.onDone();
    } catch (e) {
      toastApi.post({
        title: `Rollback of ${props.model} failed`,
        description: errorText(e as Error),
        status: 'danger',
      });
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={props.onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby="rollback-title"
    >
      <DialogTitle id="rollback-title">
        Roll back {props.model} on {where} to rev {revision}?
      </DialogTitle>
      <DialogContent data-testid="rollback-plan">
        {plan.loading && <Progress />}
        {plan.error && (
          <WarningPanel
            severity="error"
            title="Could not compare the revision with what runs"
          >
            {errorText(plan.error)}
          </WarningPanel>
        )}
        {liveError && (
          <WarningPanel
            severity="error"
            title="Could not compare the revision with what runs"
          >
            {liveError}
          </WarningPanel>
        )}
        {plan.value && !liveError && (
          <>
            <Typography variant="body2" gutterBottom>
              Applying rev {revision}
              {props.row.serverVersion
                ? ` (version ${props.row.serverVersion})`
                : ''}{' '}
              {plan.value.againstLive.objects.length === 0
                ? 'would change nothing: live is what it applied.'
                : 'would change the live objects as follows:'}
            </Typography>
            <ObjectChangesList
              objects={plan.value.againstLive.objects}
              labels={{ from: 'live', to: 'after' }}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          color="primary"
          variant="contained"
          disabled={!plan.value || !!liveError || busy}
          onClick={confirm}
        >
          Roll back to rev {revision}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
