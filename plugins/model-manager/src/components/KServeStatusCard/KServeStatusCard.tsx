import { InfoCard, Progress, StatusError, StatusOK, StatusPending, WarningPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef, type ModelStatus } from '../../api';

const MODEL_ANNOTATION = 'model-manager.io/model';

function StatusLine({ item }: { item: ModelStatus }) {
  const where = `${item.cluster}/${item.namespace}`;
  if (item.error) return <WarningPanel severity="warning" title={`${where}: cannot read the object`}>{item.error}</WarningPanel>;
  if (!item.found || !item.summary) {
    return (
      <Typography>
        <StatusError>{where}: not found</StatusError> — revision {item.revision} was applied but the object is gone; deploy again.
      </Typography>
    );
  }
  const s = item.summary;
  return (
    <div data-testid={`kserve-status-${item.cluster}-${item.namespace}`}>
      <Typography variant="subtitle1">
        {s.ready === true && <StatusOK>{where}: Ready</StatusOK>}
        {s.ready === false && <StatusError>{where}: not ready</StatusError>}
        {s.ready === undefined && <StatusPending>{where}: waiting for KServe</StatusPending>}
        {' '}
        <Typography variant="caption">{s.kind} {s.name}</Typography>
      </Typography>
      {s.url && (
        <Typography variant="body2">
          URL: <code>{s.url}</code>
        </Typography>
      )}
      {s.problems.map((p, i) => (
        <Typography key={i} variant="body2" color="error">
          {p}
        </Typography>
      ))}
      {s.conditions.length > 0 && (
        <Typography variant="caption" component="div">
          {s.conditions.map(c => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(' · ')}
        </Typography>
      )}
    </div>
  );
}

/** KServe status of the model wherever it is deployed: Ready, the conditions behind it, the URL. */
export function KServeStatusCard() {
  const { entity } = useEntity();
  const api = useApi(modelManagerApiRef);
  const model = entity.metadata.annotations?.[MODEL_ANNOTATION] ?? entity.metadata.name;
  const { value, loading, error } = useAsync(() => api.status(model), [api, model]);
  return (
    <InfoCard title="KServe status">
      {loading && <Progress />}
      {error && <WarningPanel severity="error" title="Could not read the status">{error.message}</WarningPanel>}
      {value && value.length === 0 && <Typography>Not deployed anywhere yet.</Typography>}
      {value?.map(item => <StatusLine key={`${item.cluster}/${item.namespace}`} item={item} />)}
    </InfoCard>
  );
}
