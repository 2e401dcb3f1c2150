import { Link, LinkButton, type TableColumn } from '@backstage/core-components';
import Chip from '@material-ui/core/Chip';
import { FLEET_STATES } from '@model-manager/plugin-model-manager-common';
import type { ModelSummary } from '../../api';
import { deployModelUrl } from '../deployModelUrl';
import { describeStates, type ModelFleetSummary } from '../fleet';

/** A model of the page, with its deployments summed up from `GET /fleet`. */
export type Row = ModelSummary & { fleet?: ModelFleetSummary };

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

export const modelColumns: TableColumn<Row>[] = [
  {
    title: 'Model',
    field: 'name',
    highlight: true,
    cellStyle: nowrap(),
    render: m => (
      <Link to={`/catalog/default/component/${m.name}`}>
        {m.displayName ?? m.name}
      </Link>
    ),
  },
  {
    title: 'Model ID',
    field: 'modelId',
  },
  {
    title: 'Runtime',
    field: 'runtime',
    cellStyle: nowrap(),
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
    cellStyle: nowrap(),
    render: m =>
      m.version
        ? `${m.version}${
            m.versionSource === 'model' ? ' (pinned)' : ' (default)'
          }`
        : '— (flat runtime)',
  },
  { title: 'Object', field: 'kind', cellStyle: nowrap() },
  {
    title: 'Owner',
    field: 'owner',
    render: m => (m.owner ? <OwnerLink owner={m.owner} /> : '—'),
  },
  {
    title: 'Deploy',
    filtering: false,
    render: m => (
      <LinkButton
        to={deployModelUrl(`component:default/${m.name}`)}
        size="small"
        variant="outlined"
        color="primary"
        aria-label={`Deploy ${m.name}`}
      >
        Deploy
      </LinkButton>
    ),
  },
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
    cellStyle: nowrap(),
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
