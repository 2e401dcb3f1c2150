import {
  InfoCard,
  Progress,
  StatusError,
  StatusOK,
  StatusPending,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import Typography from '@material-ui/core/Typography';
import { notReadyHeadline } from '@model-manager/plugin-model-manager-common';
import { useReadOnFleetChange } from '../../hooks/useReadOnFleetChange';
import { modelManagerApiRef, type ModelStatus } from '../../api';
import { WhyNotReadyPanel } from '../WhyNotReady';
import { DownloadLine } from './DownloadLine';
import { conditionWords } from './conditionWords';
import { modelNameOf } from '../entityNames';

/** The headline of one deployment: green only when KServe says Ready. */
function Headline({ item }: { item: ModelStatus }) {
  const where = `${item.cluster}/${item.namespace}`;
  const s = item.summary!;
  if (s.ready === true) return <StatusOK>{where}: Ready</StatusOK>;
  // KServe has not reported yet, and no known failure was diagnosed: a state to wait in.
  const { waiting, words = 'not ready' } = notReadyHeadline({
    awaitingKServe: s.ready === undefined && !item.diagnosis?.findings.length,
    downloadPhase: item.download?.progress?.phase,
  });
  return waiting ? (
    <StatusPending>
      {where}: {words}
    </StatusPending>
  ) : (
    <StatusError>
      {where}: {words}
    </StatusError>
  );
}

function StatusLine({ item }: { item: ModelStatus }) {
  const where = `${item.cluster}/${item.namespace}`;
  if (item.error) {
    return (
      <WarningPanel
        severity="warning"
        title={`${where}: cannot read the object`}
      >
        {item.error}
      </WarningPanel>
    );
  }
  if (!item.found || !item.summary) {
    return (
      <div data-testid={`kserve-status-${item.cluster}-${item.namespace}`}>
        <Typography>
          <StatusError>{where}: not found</StatusError> — revision{' '}
          {item.revision} was applied but the object is gone; deploy again.
        </Typography>
        {item.download && <DownloadLine download={item.download} />}
        {item.diagnosis && <WhyNotReadyPanel diagnosis={item.diagnosis} />}
      </div>
    );
  }
  const s = item.summary;
  const words = conditionWords(s.conditions);
  const kserveReady = s.conditions.some(
    c => c.type === 'Ready' && c.status === 'True',
  );
  return (
    <div
      data-testid={`kserve-status-${item.cluster}-${item.namespace}`}
      style={{ marginBottom: 16 }}
    >
      <Typography variant="subtitle1">
        <Headline item={item} />{' '}
        <Typography variant="caption">
          {s.kind} {s.name}
        </Typography>
      </Typography>
      <Typography variant="body2" data-testid="kserve-ready">
        {s.ready === false && kserveReady
          ? // KServe's Ready, but a route object refused (the problems below say which).
            'Ready on KServe: yes; to clients: no, its route is refused'
          : words.ready}
      </Typography>
      {words.firstFalse && (
        <Typography
          variant="body2"
          color="error"
          data-testid="kserve-first-false"
        >
          {words.firstFalse}
        </Typography>
      )}
      {s.problems.map((p, i) => (
        // Not reported yet is a state to wait in: shown plainly, not as an error.
        <Typography
          key={i}
          variant="body2"
          color={s.ready === false ? 'error' : 'textSecondary'}
        >
          {p}
        </Typography>
      ))}
      {s.conditions.length > 0 && (
        <Typography variant="caption" component="div">
          {s.conditions
            .map(
              c => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`,
            )
            .join(' · ')}
        </Typography>
      )}
      {item.download && <DownloadLine download={item.download} />}
      {item.diagnosis && <WhyNotReadyPanel diagnosis={item.diagnosis} />}
      {s.url && (
        <Typography variant="body2">
          URL KServe reports: <code>{s.url}</code>
        </Typography>
      )}
      <Typography variant="body2" data-testid="kserve-endpoint">
        Endpoint:{' '}
        {item.endpoint?.baseUrl ? (
          <>
            <code>{item.endpoint.baseUrl}</code> ({item.endpoint.message})
          </>
        ) : (
          item.endpoint?.message ?? 'not known'
        )}
      </Typography>
    </div>
  );
}

/**
 * KServe status of the model wherever it is deployed: Ready and the first condition that is not,
 * in words; the weights download Job's progress; the endpoint clients call.
 */
export function KServeStatusCard() {
  const { entity } = useEntity();
  const api = useApi(modelManagerApiRef);
  const model = modelNameOf(entity);
  // Read again when the backend pushes a fleet change, one read at a time (a rollout pushes every
  // 100 ms): the answer shown stays until the new one, and when a read fails.
  const { value, loading, error } = useReadOnFleetChange(
    api,
    () => api.status(model),
    model,
  );
  return (
    <InfoCard title="KServe status">
      {loading && <Progress />}
      {error && (
        <WarningPanel
          severity={value ? 'warning' : 'error'}
          title={
            value
              ? 'Could not read the latest status: the status below is the last one read'
              : 'Could not read the status'
          }
        >
          {error.message}
        </WarningPanel>
      )}
      {value && value.length === 0 && (
        <Typography>
          Not deployed anywhere yet: nothing runs, so there is nothing to
          report.
        </Typography>
      )}
      {value?.map(item => (
        <StatusLine key={`${item.cluster}/${item.namespace}`} item={item} />
      ))}
    </InfoCard>
  );
}
