import { StaleReadWarning } from '../fleet/StaleReadWarning';
import { SyncDifferences } from '../sync';
import {
  Content,
  Link,
  Progress,
  Table,
  WarningPanel,
  type TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import {
  targetLabel,
  type FleetError,
  type FleetTarget,
} from '@model-manager/plugin-model-manager-common';
import { useSearchParams } from 'react-router-dom';
import { errorText, modelManagerApiRef } from '../../api';
import { useLiveFleet } from '../../hooks/useLiveFleet';
import { usePageTitle } from '../../hooks/usePageTitle';
import { FilterBar } from '../FilterBar';
import { FilterSelect } from '../FilterSelect';
import {
  DRIFT_LABELS,
  ObjectChangesList,
  outdatedLabels,
  targetRowId,
  targetStatusColumns,
} from '../fleet';
import {
  applyFilters,
  FILTER_KEYS,
  filterOptions,
  filtersFromSearch,
  type FilterKey,
  type FleetFilters,
} from './fleetFilters';

const FILTER_TITLES: Record<FilterKey, string> = {
  model: 'Model',
  cluster: 'Cluster',
  namespace: 'Namespace',
  runtime: 'Runtime',
  version: 'Live version',
  state: 'State',
};

/** An image reference has no spaces: let it break where it must, so the table fits 1280 px. */
const IMAGE_STYLE = { overflowWrap: 'anywhere' as const, display: 'block' };

const columns: TableColumn<FleetTarget>[] = [
  {
    title: 'Model',
    field: 'model',
    highlight: true,
    render: t => (
      <Link to={`/catalog/default/component/${t.model}/serving`}>
        {t.model}
      </Link>
    ),
  },
  { title: 'Where', render: t => `${t.cluster}/${t.namespace}` },
  { title: 'Runtime', field: 'runtime' },
  {
    title: 'Live',
    render: t => (
      <>
        <div>{t.liveVersion ?? '—'}</div>
        {t.liveImage && (
          <Typography variant="caption" style={IMAGE_STYLE}>
            {t.liveImage}
          </Typography>
        )}
      </>
    ),
  },
  {
    title: 'A new deploy would apply',
    render: t => {
      const version = t.sync ? t.sync.newDeploy.version : t.resolvedVersion;
      const image = t.sync ? t.sync.newDeploy.image : t.resolvedImage;
      return (
        version ??
        (image ? (
          <Typography variant="caption" style={IMAGE_STYLE}>
            {image}
          </Typography>
        ) : (
          '—'
        ))
      );
    },
  },
  ...targetStatusColumns,
];

/** The field lists behind the chips, for a target opened in the table. */
function TargetDetails(props: { target: FleetTarget }) {
  const t = props.target;
  return (
    <Box padding={2} data-testid={`details-${targetLabel(t)}`}>
      {t.endpoint && (
        <Typography variant="body2">
          URL: <code>{t.endpoint}</code>
        </Typography>
      )}
      {t.sync && (
        <>
          <Typography variant="h6">
            What runs vs what a new deploy would apply
          </Typography>
          <Typography variant="body2" paragraph data-testid="sync-summary">
            {t.sync.summary}
          </Typography>
          <SyncDifferences differences={t.sync.differences} />
        </>
      )}
      <Typography variant="h6">
        Drift (live objects changed outside model-manager)
      </Typography>
      <ObjectChangesList objects={t.drift} labels={DRIFT_LABELS} />
      <Typography variant="h6">
        Outdated (models.yaml changed since the last revision: the same request
        would apply this now)
      </Typography>
      {t.outdatedError ? (
        <Typography variant="body2">{t.outdatedError}</Typography>
      ) : (
        <ObjectChangesList
          objects={t.outdatedChanges}
          labels={outdatedLabels(t)}
        />
      )}
    </Box>
  );
}

function ClusterErrors(props: { errors: FleetError[] }) {
  if (props.errors.length === 0) return null;
  return (
    <WarningPanel
      severity="warning"
      title={`${
        props.errors.length === 1
          ? 'A cluster'
          : `${props.errors.length} clusters`
      } could not be read: their targets show Unknown`}
    >
      {props.errors.map(e => (
        <div key={e.cluster}>
          <b>{e.cluster}</b>: {e.message}
        </div>
      ))}
    </WarningPanel>
  );
}

function Filters(props: {
  options: Record<FilterKey, string[]>;
  filters: FleetFilters;
  onChange: (key: FilterKey, value: string) => void;
  onClear: () => void;
}) {
  return (
    <FilterBar
      filtered={Object.keys(props.filters).length > 0}
      onClear={props.onClear}
    >
      {FILTER_KEYS.map(key => (
        <FilterSelect
          key={key}
          id={`fleet-filter-${key}`}
          label={FILTER_TITLES[key]}
          value={props.filters[key]}
          options={props.options[key]}
          onChange={value => props.onChange(key, value)}
        />
      ))}
    </FilterBar>
  );
}

/**
 * Every deployment target (model, cluster, namespace) found on the clusters or in the history,
 * filterable; the filters are the page's URL query, so a link shares the view.
 */
export function DeploymentsPage() {
  const api = useApi(modelManagerApiRef);
  usePageTitle('Deployments');
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  // Follows the backend's pushes, reading again only the clusters that changed (the previous
  // answer stays shown meanwhile).
  const { value, loading, error } = useLiveFleet(api);

  const setFilter = (key: FilterKey, v: string) => {
    const next = new URLSearchParams(search);
    if (v) next.set(key, v);
    else next.delete(key);
    setSearch(next);
  };
  const clear = () => {
    const next = new URLSearchParams(search);
    FILTER_KEYS.forEach(k => next.delete(k));
    setSearch(next);
  };

  if (loading && !value) return <Progress />;
  if (error && !value) {
    return (
      <Content>
        <WarningPanel severity="error" title="Could not load the deployments">
          {errorText(error)}. Check that the model-manager backend is running.
        </WarningPanel>
      </Content>
    );
  }
  const fleet = value!;
  const shown = applyFilters(fleet.items, filters);
  return (
    <Content>
      {error && (
        <StaleReadWarning
          error={error}
          readAt={fleet.readAt}
          shown="The table shows the deployments as read"
        />
      )}
      <ClusterErrors errors={fleet.errors} />
      <Filters
        options={filterOptions(fleet.items, filters)}
        filters={filters}
        onChange={setFilter}
        onClear={clear}
      />
      <Table<FleetTarget>
        title={`Deployments (${shown.length} of ${fleet.items.length})`}
        subtitle={`Live state read at ${new Date(
          fleet.readAt,
        ).toLocaleString()}`}
        options={{
          // No drag handles on the headers (axe: nested-interactive, a tab stop each).
          draggable: false,
          search: true,
          paging: shown.length > 50,
          pageSize: 50,
          padding: 'dense',
        }}
        columns={columns}
        data={shown.map(t => ({ ...t, id: targetRowId(t) }))}
        detailPanel={[
          {
            tooltip: 'Field changes',
            render: ({ rowData }) => <TargetDetails target={rowData} />,
          },
        ]}
        emptyContent={
          <Box padding={2}>
            {fleet.items.length === 0
              ? 'Nothing deployed yet: deploy a model from its Serving tab.'
              : 'No target matches these filters.'}
          </Box>
        }
      />
    </Content>
  );
}
