import { Link, LinkButton, type TableColumn } from '@backstage/core-components';
import Chip from '@material-ui/core/Chip';
import Typography from '@material-ui/core/Typography';
import { FLEET_STATES } from '@model-manager/plugin-model-manager-common';
import type { ModelSummary } from '../../api';
import { deployModelUrl } from '../deployModelUrl';
import { describeStates, type ModelFleetSummary } from '../fleet';

/** A model of the page, with its deployments summed up from `GET /fleet`. */
export type Row = ModelSummary & { id?: string; fleet?: ModelFleetSummary };

/** Cells that must not break inside a word (names, kinds, versions); a new object per use, as
 * the table adds to it. */
const nowrap = () => ({ whiteSpace: 'nowrap' as const });

/** An owner entity ref as a link to the owner's page, named as a person reads it. */
export function OwnerLink(props: { owner?: string }) {
  const match = /^(?:([^:]+):)?(?:([^/]+)\/)?(.+)$/.exec(props.owner ?? '');
  if (!match) return <>—</>;
  const [, kind = 'group', namespace = 'default', name] = match;
  return (
    <Link
      to={`/catalog/${namespace}/${kind.toLowerCase()}/${name}`}
      title={props.owner}
      style={nowrap()}
    >
      {namespace === 'default' ? name : `${namespace}/${name}`}
    </Link>
  );
}

const nameColumn: TableColumn<Row> = {
  title: 'Model',
  field: 'name',
  highlight: true,
  render: m => (
    <>
      <Link to={`/catalog/default/component/${m.name}`} style={nowrap()}>
        {m.displayName ?? m.name}
      </Link>
      {/* The model id under the name, breaking only where an id can (after / - . _). */}
      <Typography
        variant="caption"
        component="div"
        color="textSecondary"
        style={{ overflowWrap: 'anywhere' }}
      >
        {m.modelId}
      </Typography>
    </>
  ),
};

/** Runtime, version and object kind in one cell, one line each. */
const runtimeColumn: TableColumn<Row> = {
  title: 'Runtime',
  field: 'runtime',
  cellStyle: nowrap(),
  render: m => (
    <>
      <Link to={`/catalog/default/resource/${m.runtime}-runtime`}>
        {m.runtime}
      </Link>
      <div>
        {m.version
          ? `${m.version}${
              m.versionSource === 'model' ? ' (pinned)' : ' (default)'
            }`
          : '— (flat runtime)'}
      </div>
      <Typography variant="caption" component="div" color="textSecondary">
        {m.kind}
      </Typography>
    </>
  ),
};

const deployColumn: TableColumn<Row> = {
  title: '',
  // Buttons only: no sort control (it would have no name: axe aria-command-name).
  sorting: false,
  filtering: false,
  cellStyle: { ...nowrap(), width: 1 },
  render: m => (
    <LinkButton
      to={deployModelUrl(`component:default/${m.name}`)}
      size="small"
      variant="outlined"
      color="primary"
      aria-label={`Deploy ${m.name}`}
      style={nowrap()}
    >
      Deploy
    </LinkButton>
  ),
};

/**
 * What is running, in one cell: the states, how many deployments (a link to them) and the drift
 * and outdated counts, so the page needs no column for each.
 */
const stateColumn: TableColumn<Row> = {
  title: 'State',
  filtering: false,
  render: m =>
    m.fleet ? (
      <>
        <div style={nowrap()}>
          {describeStates(m.fleet.states, FLEET_STATES)}
        </div>
        <Typography variant="caption" component="div" style={nowrap()}>
          <Link to={`/model-deployments?model=${encodeURIComponent(m.name)}`}>
            {m.fleet.deployments}
          </Link>{' '}
          {m.fleet.deployments === 1 ? 'deployment' : 'deployments'}
        </Typography>
        {!!m.fleet.drifted && (
          <Chip
            size="small"
            color="secondary"
            label={`${m.fleet.drifted} drifted`}
          />
        )}
        {!!m.fleet.outdated && (
          <Chip size="small" label={`${m.fleet.outdated} outdated`} />
        )}
      </>
    ) : (
      <span style={nowrap()}>not deployed</span>
    ),
};

const liveColumn: TableColumn<Row> = {
  title: 'Live version',
  filtering: false,
  cellStyle: nowrap(),
  render: m => m.fleet?.liveVersions.join(', ') || '—',
};

/**
 * The Models page's columns, to fit 1280 px and up: the name first (the model id a second line
 * under it), then what is running (state with the deployments and drift under it, live
 * version) when the fleet could be read, then the runtime (version and object kind under it),
 * category, owner, and a compact Deploy action last.
 */
export function modelsPageColumns(withFleet: boolean): TableColumn<Row>[] {
  return [
    nameColumn,
    ...(withFleet ? [stateColumn, liveColumn] : []),
    runtimeColumn,
    { title: 'Category', field: 'category' },
    {
      title: 'Owner',
      field: 'owner',
      render: m => (m.owner ? <OwnerLink owner={m.owner} /> : '—'),
    },
    deployColumn,
  ];
}
