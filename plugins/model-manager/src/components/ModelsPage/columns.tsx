import { Link, type TableColumn } from '@backstage/core-components';
import Chip from '@material-ui/core/Chip';
import { FLEET_STATES } from '@model-manager/plugin-model-manager-common';
import type { ModelSummary } from '../../api';
import { describeStates, type ModelFleetSummary } from '../fleet';

/** A model of the page, with its deployments summed up from `GET /fleet`. */
export type Row = ModelSummary & { fleet?: ModelFleetSummary };

export const modelColumns: TableColumn<Row>[] = [
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
export const fleetColumns: TableColumn<Row>[] = [
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
