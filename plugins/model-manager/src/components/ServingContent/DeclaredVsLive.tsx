import {
  InfoCard,
  Link,
  Progress,
  Table,
  WarningPanel,
  type TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Typography from '@material-ui/core/Typography';
import type { FleetTarget } from '@model-manager/plugin-model-manager-common';
import useAsync from 'react-use/esm/useAsync';
import { errorText, modelManagerApiRef } from '../../api';
import { targetRowId, targetStatusColumns } from '../fleet';

function VersionAndImage(props: { version?: string; image?: string }) {
  return (
    <>
      <div>{props.version ?? '—'}</div>
      {props.image && (
        <Typography variant="caption" style={{ wordBreak: 'break-all' }}>
          {props.image}
        </Typography>
      )}
    </>
  );
}

const columns: TableColumn<FleetTarget>[] = [
  { title: 'Where', render: t => `${t.cluster}/${t.namespace}` },
  {
    title: 'Declared',
    render: t => (
      <VersionAndImage version={t.resolvedVersion} image={t.resolvedImage} />
    ),
  },
  {
    title: 'Live',
    render: t => (
      <VersionAndImage version={t.liveVersion} image={t.liveImage} />
    ),
  },
  ...targetStatusColumns,
];

/**
 * What models.yaml declares (with each target's recorded overrides) beside what runs, for every
 * target of one model. A failure here leaves the rest of the tab working.
 */
export function DeclaredVsLive(props: { model: string }) {
  const api = useApi(modelManagerApiRef);
  const { value, loading, error } = useAsync(
    () => api.modelFleet(props.model),
    [api, props.model],
  );
  if (loading) return <Progress />;
  if (error) {
    return (
      <WarningPanel
        severity="warning"
        title="Could not read where this model runs"
      >
        {errorText(error)}
      </WarningPanel>
    );
  }
  const fleet = value!;
  return (
    <div data-testid="declared-vs-live">
      <InfoCard
        title="Declared vs live"
        subheader={
          <Link
            to={`/model-deployments?model=${encodeURIComponent(props.model)}`}
          >
            All deployments of {props.model}
          </Link>
        }
        noPadding
      >
        {fleet.errors.map(e => (
          <WarningPanel
            key={e.cluster}
            severity="warning"
            title={`Cluster ${e.cluster} could not be read`}
          >
            {e.message}
          </WarningPanel>
        ))}
        {fleet.items.length === 0 ? (
          <Typography style={{ padding: 16 }}>
            No target runs this model yet: deploy it with the Deploy button
            below.
          </Typography>
        ) : (
          <Table<FleetTarget>
            options={{
              paging: false,
              search: false,
              toolbar: false,
              padding: 'dense',
            }}
            columns={columns}
            data={fleet.items.map(t => ({ ...t, id: targetRowId(t) }))}
          />
        )}
      </InfoCard>
    </div>
  );
}
