import { Table, type TableColumn } from '@backstage/core-components';
import { alertApiRef, useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { modelDeployPermission } from '@model-manager/plugin-model-manager-common';
import { useState } from 'react';
import { modelManagerApiRef, type DeploymentRecord, type DiffResult } from '../../api';

const format = (v: unknown) => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));

/** Deploy history with a diff against the live objects and, for users allowed to deploy, rollback. */
export function HistoryTable(props: { model: string; history: DeploymentRecord[]; onChanged?: () => void }) {
  const api = useApi(modelManagerApiRef);
  const alertApi = useApi(alertApiRef);
  const { allowed: canRollback } = usePermission({ permission: modelDeployPermission });
  const [diff, setDiff] = useState<DiffResult | undefined>();
  const [busy, setBusy] = useState(false);

  const rollback = async (record: DeploymentRecord) => {
    setBusy(true);
    try {
      const result = await api.rollback(props.model, record.revision);
      alertApi.post({ message: `Rolled back ${props.model} to revision ${record.revision} (new revision ${result.revision})`, severity: 'success', display: 'transient' });
      props.onChanged?.();
    } catch (e) {
      alertApi.post({ message: `Rollback failed: ${(e as Error).message}`, severity: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const showDiff = async (record: DeploymentRecord) => {
    try {
      setDiff(await api.diff(props.model, { cluster: record.cluster, namespace: record.namespace }));
    } catch (e) {
      alertApi.post({ message: `Diff failed: ${(e as Error).message}`, severity: 'error' });
    }
  };

  const columns: TableColumn<DeploymentRecord>[] = [
    { title: 'Revision', field: 'revision', width: '8%' },
    { title: 'When', field: 'createdAt', render: r => new Date(r.createdAt).toLocaleString() },
    { title: 'Who', field: 'actor' },
    { title: 'Action', field: 'action' },
    { title: 'Where', render: r => `${r.cluster}/${r.namespace}` },
    { title: 'Version', field: 'serverVersion' },
    { title: 'Outcome', field: 'outcome', render: r => (r.outcome === 'succeeded' ? 'succeeded' : <span title={r.message}>{r.outcome}: {r.message}</span>) },
    {
      title: '',
      render: r => (
        <>
          {r.action !== 'undeploy' && (
            <Button size="small" onClick={() => showDiff(r)}>
              Diff
            </Button>
          )}
          {canRollback && (r.action === 'deploy' || r.action === 'rollback') && r.outcome === 'succeeded' && (
            <Button size="small" color="primary" disabled={busy} onClick={() => rollback(r)}>
              Roll back
            </Button>
          )}
        </>
      ),
    },
  ];
  return (
    <>
      <Table<DeploymentRecord>
        title="Deploy history"
        options={{ paging: props.history.length > 10, search: false, padding: 'dense' }}
        columns={columns}
        data={props.history}
        emptyContent={<Typography style={{ padding: 16 }}>Not deployed yet.</Typography>}
      />
      {diff && (
        <div data-testid="diff" style={{ padding: 16 }}>
          <Typography variant="h6">
            Rendered vs live on {diff.cluster}/{diff.namespace}: {diff.inSync ? 'in sync' : 'differs'}
          </Typography>
          {diff.objects.map(o => (
            <div key={`${o.kind}/${o.name}`}>
              <Typography variant="subtitle2">
                {o.kind} {o.name}: {o.exists ? `${o.changes.length} change(s)` : 'not on the cluster'}
              </Typography>
              {o.changes.map(c => (
                <Typography key={c.path} variant="body2" component="div">
                  <code>{c.path}</code>: live <code>{format(c.live)}</code> → rendered <code>{format(c.rendered)}</code>
                </Typography>
              ))}
            </div>
          ))}
        </div>
      )}
    </>
  );
}
