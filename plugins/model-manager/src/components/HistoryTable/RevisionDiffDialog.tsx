import { Progress, WarningPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Typography from '@material-ui/core/Typography';
import type { DeploymentHistoryItem } from '@model-manager/plugin-model-manager-common';
import useAsync from 'react-use/esm/useAsync';
import { errorText, modelManagerApiRef } from '../../api';
import { ObjectChangesList } from '../fleet';

/**
 * A history row's diff, in a dialog opened from its row: what this deploy changed (against the
 * previous revision at the same cluster and namespace) and how its objects, with its own
 * overrides, compare with what is live now.
 */
export function RevisionDiffDialog(props: {
  model: string;
  row: DeploymentHistoryItem;
  onClose: () => void;
}) {
  const api = useApi(modelManagerApiRef);
  const { row } = props;
  const { value, loading, error } = useAsync(
    () => api.revisionDiff(props.model, row.revision!),
    [api, props.model, row.revision],
  );
  const where = `${row.cluster}/${row.namespace}`;
  return (
    <Dialog open onClose={props.onClose} maxWidth="md" fullWidth>
      <DialogTitle>
        Revision {row.revision} of {props.model} on {where}
      </DialogTitle>
      <DialogContent data-testid="revision-diff">
        {loading && <Progress />}
        {error && (
          <WarningPanel severity="error" title="Diff failed">
            {errorText(error)}
          </WarningPanel>
        )}
        {value && (
          <>
            <Typography variant="h6">
              What this deploy changed
              {value.againstPrevious.previousRevision === undefined
                ? ` (the first revision on ${where})`
                : ` (since revision ${value.againstPrevious.previousRevision})`}
            </Typography>
            <ObjectChangesList
              objects={value.againstPrevious.objects}
              labels={{
                from:
                  value.againstPrevious.previousRevision === undefined
                    ? 'before'
                    : `rev ${value.againstPrevious.previousRevision}`,
                to: `rev ${row.revision}`,
              }}
            />
            <Typography variant="h6" style={{ marginTop: 16 }}>
              Revision {row.revision} (with its own overrides) vs live now
            </Typography>
            {value.againstLive.error ? (
              <Typography variant="body2">{value.againstLive.error}</Typography>
            ) : value.againstLive.objects.length === 0 ? (
              <Typography variant="body2">
                Live is what revision {row.revision} applied.
              </Typography>
            ) : (
              <ObjectChangesList
                objects={value.againstLive.objects}
                labels={{ from: 'live', to: `rev ${row.revision}` }}
              />
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
