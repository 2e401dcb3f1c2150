import { Table, type TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { toastApiRef } from '@backstage/frontend-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import {
  modelDeployPermission,
  modelEntityRef,
  type DeploymentHistoryItem,
} from '@model-manager/plugin-model-manager-common';
import { useState } from 'react';
import { errorText, modelManagerApiRef, type DiffResult } from '../../api';
import { FieldChangeLines } from '../fleet';
import { ChangesCell } from './ChangesCell';
import { actionText, canRollBackTo, revisionText } from './historyText';
import { RollbackDialog } from './RollbackDialog';

/** Rendered now vs live, for the Diff button of a row. */
function LiveDiff(props: { diff: DiffResult }) {
  const { diff } = props;
  return (
    <div data-testid="diff" style={{ padding: 16 }}>
      <Typography variant="h6">
        Rendered vs live on {diff.cluster}/{diff.namespace}:{' '}
        {diff.inSync ? 'in sync' : 'differs'}
      </Typography>
      {diff.objects.map(o => (
        <div key={`${o.kind}/${o.name}`}>
          <Typography variant="subtitle2">
            {o.kind} {o.name}:{' '}
            {o.exists ? `${o.changes.length} change(s)` : 'not on the cluster'}
          </Typography>
          <FieldChangeLines
            fields={o.changes}
            labels={{ from: 'live', to: 'rendered' }}
          />
        </div>
      ))}
    </div>
  );
}

/**
 * A model's deploy history, newest first: per-model revisions (dry runs have none), what each
 * changed since the revision before it, a diff against the live objects and, for users allowed to
 * deploy this model (`model-manager.model.deploy` on its entity), a rollback that first shows what
 * it would change.
 */
export function HistoryTable(props: {
  model: string;
  /** The model's catalog entity ref; default: the one the catalog module gives the model. */
  entityRef?: string;
  history: DeploymentHistoryItem[];
  onChanged?: () => void;
}) {
  const api = useApi(modelManagerApiRef);
  const toastApi = useApi(toastApiRef);
  const { allowed: canRollback } = usePermission({
    permission: modelDeployPermission,
    resourceRef: props.entityRef ?? modelEntityRef(props.model),
  });
  const [diff, setDiff] = useState<DiffResult | undefined>();
  const [rollingBack, setRollingBack] = useState<
    DeploymentHistoryItem | undefined
  >();

  const showDiff = async (record: DeploymentHistoryItem) => {
    try {
      setDiff(
        await api.diff(props.model, {
          cluster: record.cluster,
          namespace: record.namespace,
        }),
      );
    } catch (e) {
      toastApi.post({
        title: 'Diff failed',
        description: errorText(e as Error),
        status: 'danger',
      });
    }
  };

  const columns: TableColumn<DeploymentHistoryItem>[] = [
    {
      title: 'Revision',
      render: r =>
        r.revision === undefined ? <i>{revisionText(r)}</i> : revisionText(r),
      width: '8%',
    },
    {
      title: 'When',
      field: 'createdAt',
      render: r => new Date(r.createdAt).toLocaleString(),
    },
    { title: 'Who', field: 'actor' },
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
      render: r => (
        <>
          {r.action !== 'undeploy' && (
            <Button size="small" onClick={() => showDiff(r)}>
              Diff
            </Button>
          )}
          {canRollback && canRollBackTo(r) && (
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
      {diff && <LiveDiff diff={diff} />}
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
