import {
  Content,
  Link,
  Progress,
  Table,
  WarningPanel,
  type TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Chip from '@material-ui/core/Chip';
import { FLEET_STATES } from '@model-manager/plugin-model-manager-common';
import useAsync from 'react-use/esm/useAsync';
import { errorText, modelManagerApiRef, type ModelSummary } from '../../api';
import { CatalogStatusWarning } from '../CatalogStatusWarning';
import {
  aggregateFleet,
  describeStates,
  type ModelFleetSummary,
} from '../fleet';

type Row = ModelSummary & { fleet?: ModelFleetSummary };

const modelColumns: TableColumn<Row>[] = [
  {
    title: 'Model',
    field: 'name',
    highlight: true,
    render: m => (
      <Link to={`/catalog/default/component/${m.name}`}>
        {m.displayName ?? m.name}
      </Link>
    ),
  },
  { title: 'Model ID', field: 'modelId' },
  {
    title: 'Runtime',
    field: 'runtime',
    render: m => (
      <Link to={`/catalog/default/resource/${m.runtime}-runtime`}>
        {m.runtime}
      </Link>
    ),
  },
  { title: 'Category', field: 'category' },
  {
    title: 'Version',
    field: 'version',
    render: m =>
      m.version
        ? `${m.version}${
            m.versionSource === 'model' ? ' (pinned)' : ' (default)'
          }`
        : '— (flat runtime)',
  },
  { title: 'Object', field: 'kind' },
  { title: 'Owner', field: 'owner' },
];

/** The deployment columns, from one `GET /fleet` summed up per model. */
const fleetColumns: TableColumn<Row>[] = [
  {
    title: 'Deployments',
    field: 'fleet.deployments',
    type: 'numeric',
    filtering: false,
    render: m =>
      m.fleet ? (
        <Link to={`/model-deployments?model=${encodeURIComponent(m.name)}`}>
          {m.fleet.deployments}
        </Link>
      ) : (
        0
      ),
  },
  {
    title: 'Live version(s)',
    filtering: false,
    render: m => m.fleet?.liveVersions.join(', ') || '—',
  },
  {
    title: 'State',
    filtering: false,
    render: m =>
      m.fleet ? describeStates(m.fleet.states, FLEET_STATES) : 'not deployed',
  },
  {
    title: 'Drift / outdated',
    filtering: false,
    render: m => (
      <>
        {!!m.fleet?.drifted && (
          <Chip
            size="small"
            color="secondary"
            label={`${m.fleet.drifted} drifted`}
          />
        )}
        {!!m.fleet?.outdated && (
          <Chip size="small" label={`${m.fleet.outdated} outdated`} />
        )}
      </>
    ),
  },
];

/** All models of models.yaml in a searchable, filterable table, with where and how they run. */
export function ModelsPage() {
  const api = useApi(modelManagerApiRef);
  const models = useAsync(() => api.listModels(), [api]);
  // Separate from the models: the page still lists them when the clusters cannot be read.
  const fleet = useAsync(() => api.fleet(), [api]);
  const byModel = fleet.value ? aggregateFleet(fleet.value.items) : undefined;
  const rows: Row[] | undefined = models.value?.map(m => ({
    ...m,
    fleet: byModel?.get(m.name),
  }));
  return (
    <Content>
      <CatalogStatusWarning />
      {models.loading && <Progress />}
      {models.error && (
        <WarningPanel severity="error" title="Could not load the models">
          {models.error.message}. Check that the model-manager backend is
          running and that models.yaml is valid.
        </WarningPanel>
      )}
      {fleet.error && (
        <WarningPanel
          severity="warning"
          title="Could not read where the models are deployed"
        >
          {errorText(fleet.error)}
        </WarningPanel>
      )}
      {fleet.value && fleet.value.errors.length > 0 && (
        <WarningPanel
          severity="warning"
          title={`Could not read ${fleet.value.errors
            .map(e => e.cluster)
            .join(', ')}: deployments there show Unknown`}
        >
          {fleet.value.errors.map(e => `${e.cluster}: ${e.message}`).join('; ')}
        </WarningPanel>
      )}
      {rows && (
        <Table<Row>
          title={`Models (${rows.length})`}
          options={{
            search: true,
            paging: rows.length > 20,
            pageSize: 20,
            filtering: true,
          }}
          columns={byModel ? [...modelColumns, ...fleetColumns] : modelColumns}
          data={rows}
          emptyContent={
            <div style={{ padding: 16 }}>No models in models.yaml yet.</div>
          }
        />
      )}
    </Content>
  );
}
