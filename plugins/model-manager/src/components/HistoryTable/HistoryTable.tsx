import { Table, type TableColumn } from '@backstage/core-components';
import { usePermission } from '@backstage/plugin-permission-react';
import Button from '@material-ui/core/Button';
import Chip from '@material-ui/core/Chip';
import Typography from '@material-ui/core/Typography';
import {
  modelDeployPermission,
  modelEntityRef,
  type DeploymentHistoryItem,
} from '@model-manager/plugin-model-manager-common';
import { useState } from 'react';
import { ChangesCell } from './ChangesCell';
import {
  actionText,
  canRollBackTo,
  isLive,
  liveRevisions,
  revisionText,
} from './historyText';
import { RevisionDiffDialog } from './RevisionDiffDialog';
import { RollbackDialog } from './RollbackDialog';

/**
 * A model's deploy history, newest first: per-model revisions (dry runs have none), what each
 * changed since the revision before it, a diff dialog (against the previous revision and against
 * the live objects) and, for users allowed to deploy this model (`model-manager.model.deploy` on
 * its entity), a rollback that first shows what it would change.
 */
export function HistoryTable(props: {
  model: string;
  /** The model's catalog entity ref; default: the one the catalog module gives the model. */
  entityRef?: string;
  history: DeploymentHistoryItem[];
  onChanged?: () => void;
}) {
  const { allowed: canRollback } = usePermission({
    permission: modelDeployPermission,
    resourceRef: props.entityRef ?? modelEntityRef(props.model),
  });
  const [diffing, setDiffing] = useState<DeploymentHistoryItem | undefined>();
  const [rollingBack, setRollingBack] = useState<
    DeploymentHistoryItem | undefined
  >();

  const live = liveRevisions(props.history);
  const columns: TableColumn<DeploymentHistoryItem>[] = [
    {
      title: 'Revision',
      render: r =>
        r.revision === undefined ? <i>{revisionText(r)}</i> : revisionText(r),
      width: '8%',
    },
    {
      // When and who in one column, so the table fits 1280 px.
      title: 'When / who',
      field: 'createdAt',
      render: r => (
        <>
          <div>{new Date(r.createdAt).toLocaleString()}</div>
          <Typography variant="caption">{r.actor}</Typography>
        </>
      ),
    },
    { title: 'Action', render: r => actionText(r) },
    { title: 'Where', render: r => `${r.cluster}/${r.namespace}` },
    { title: 'Version', field: 'serverVersion' },
    {
      title: 'Outcome',
      field: 'outcome',
      render: r =>
        r.outcome === 'succeeded' ? (
          'succeeded'
        ) : (
          <span title={r.message}>
            {r.outcome}: {r.message}
          </span>
        ),
    },
    { title: 'Changes', render: r => <ChangesCell row={r} /> },
    {
      title: '',
      // Buttons only: no sort control (it would have no name: axe aria-command-name).
      sorting: false,
      render: r => (
        <>
          {r.revision !== undefined && r.action !== 'undeploy' && (
            <Button size="small" onClick={() => setDiffing(r)}>
              Diff
            </Button>
          )}
          {isLive(r, live) && (
            <Chip
              size="small"
              label="live"
              title={`Revision ${r.revision} is what runs on ${r.cluster}/${r.namespace}: nothing to roll back to`}
            />
          )}
          {canRollback && canRollBackTo(r) && !isLive(r, live) && (
            <Button
              size="small"
              color="primary"
              onClick={() => setRollingBack(r)}
            >
              Roll back
            </Button>
          )}
        </>
      ),
    },
  ];
  return (
    <>
      <div data-testid="deploy-history">
        <Table<DeploymentHistoryItem>
          title="Deploy history"
          options={{
            // No drag handles on the headers (axe: nested-interactive, a tab stop each).
            draggable: false,
            paging: props.history.length > 10,
            search: false,
            padding: 'dense',
          }}
          columns={columns}
          data={props.history}
          emptyContent={
            <Typography style={{ padding: 16 }}>Not deployed yet.</Typography>
          }
        />
      </div>
      {diffing && (
        <RevisionDiffDialog
          model={props.model}
          row={diffing}
          onClose={() => setDiffing(undefined)}
        />
      )}
      {rollingBack && (
        <RollbackDialog
          model={props.model}
          row={rollingBack}
          onClose={() => setRollingBack(undefined)}
          onDone={() => {
            setRollingBack(undefined);
            props.onChanged?.();
          }}
        />
      )}
    </>
  );
}
