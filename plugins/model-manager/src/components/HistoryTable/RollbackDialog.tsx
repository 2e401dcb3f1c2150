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
import { WouldChange } from './ChangesCell';

/**
 * Asks before a rollback: a rollback dry run shows the fields it would change on the live objects
 * (the backend does not record a rollback dry run: opening or cancelling this adds no history
 * row); Confirm applies it.
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
    () => api.rollback(props.model, revision, { dryRun: true }),
    [api, props.model, revision],
  );
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
          <WarningPanel severity="error" title="The rollback dry run failed">
            {errorText(plan.error)}
          </WarningPanel>
        )}
        {plan.value && (
          <>
            <Typography variant="body2" gutterBottom>
              Applying rev {revision}
              {props.row.serverVersion
                ? ` (version ${props.row.serverVersion})`
                : ''}{' '}
              would change the live objects as follows:
            </Typography>
            <WouldChange objects={plan.value.objects} after="after" />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          color="primary"
          variant="contained"
          disabled={!plan.value || busy}
          onClick={confirm}
        >
          Roll back to rev {revision}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
