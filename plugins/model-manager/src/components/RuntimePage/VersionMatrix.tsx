import { StaleReadWarning } from '../fleet/StaleReadWarning';
import {
  InfoCard,
  Link,
  LinkButton,
  Progress,
  Table,
  WarningPanel,
  type TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Chip from '@material-ui/core/Chip';
import Typography from '@material-ui/core/Typography';
import {
  targetLabel,
  type RolloutPlan,
} from '@model-manager/plugin-model-manager-common';
import { useLiveFleet } from '../../hooks/useLiveFleet';
import { useReadOnFleetChange } from '../../hooks/useReadOnFleetChange';
import { errorText, modelManagerApiRef, type RuntimeSummary } from '../../api';
import {
  matrixClusters,
  rolloutTemplateUrl,
  versionMatrix,
  type VersionRow,
} from './versionMatrix';
import { CARD_TABLE_OPTIONS } from '../cardTableOptions';

function columnsFor(
  runtime: RuntimeSummary,
  clusters: string[],
  total: number,
): TableColumn<VersionRow>[] {
  return [
    {
      title: 'Version',
      render: r => (
        <>
          {r.version ?? (runtime.versioned ? 'unknown' : '(flat)')}{' '}
          {r.default && <Chip size="small" label="default" />}
          {r.version && !r.inCatalog && (
            <Chip size="small" variant="outlined" label="not in models.yaml" />
          )}
        </>
      ),
    },
    {
      title: 'Live targets',
      render: r => (
        <span data-testid={`live-${r.version ?? 'none'}`}>
          {r.targets.length}
        </span>
      ),
    },
    {
      title: 'Outdated',
      render: r => (
        <span data-testid={`outdated-${r.version ?? 'none'}`}>
          {r.outdated}
        </span>
      ),
    },
    ...clusters.map<TableColumn<VersionRow>>(c => ({
      title: c,
      render: r => r.byCluster[c] ?? 0,
    })),
    {
      title: 'Targets',
      render: r =>
        r.targets.map(t => (
          <div key={targetLabel(t)}>
            <Link to={`/catalog/default/component/${t.model}/serving`}>
              <Typography variant="caption">{targetLabel(t)}</Typography>
            </Link>
          </div>
        )),
    },
    {
      title: '',
      // Buttons only: no sort control (it would have no name: axe aria-command-name).
      sorting: false,
      render: r =>
        // A rollout toward the version every target runs would move nothing: no button.
        runtime.versioned &&
        r.version &&
        r.inCatalog &&
        total > 0 &&
        r.targets.length === total ? (
          <Typography variant="caption">every target runs it</Typography>
        ) : runtime.versioned && r.version && r.inCatalog ? (
          <LinkButton
            size="small"
            color="primary"
            to={rolloutTemplateUrl(runtime.name, r.version)}
          >
            Roll out {r.version}
          </LinkButton>
        ) : null,
    },
  ];
}

/**
 * The rollout plan of what models.yaml resolves now, in words: what it moves (and the holds it
 * releases), and the held targets it leaves where a rollout or a request put them.
 */
export function planWords(plan: RolloutPlan): string {
  const held = plan.stays.filter(s => s.why === 'held');
  const released = plan.moves.filter(m => m.releasesHold);
  const others = plan.stays.length - held.length;
  const versions = [
    ...new Set(
      plan.moves.map(m => `${m.fromVersion ?? '?'} -> ${m.toVersion ?? '?'}`),
    ),
  ];
  if (plan.moves.length === 0 && plan.stays.length === 0)
    return `No target runs ${plan.runtime} yet: nothing to roll out.`;
  const parts = [
    plan.moves.length === 0
      ? 'Rolling out what models.yaml resolves now (no version) would move nothing'
      : `Rolling out what models.yaml resolves now (no version) would move ${counted(
          plan.moves.length,
          'target',
        )} (${versions.join(', ')})`,
    ...(released.length
      ? [
          `${released.length} of them ${
            released.length === 1 ? 'releases' : 'release'
          } a hold on the version models.yaml now resolves to`,
        ]
      : []),
    ...(held.length
      ? [
          `${counted(held.length, 'held target')} ${
            held.length === 1 ? 'stays' : 'stay'
          } where a rollout or a request put ${
            held.length === 1 ? 'it' : 'them'
          } (${held
            // The hold in words, without the REST hint (includeHeld): the sentence ends with
            // the form's own control.
            .map(
              s =>
                `${s.model}@${s.cluster}/${s.namespace}: ${
                  s.hold?.text ?? s.reason
                }`,
            )
            .join(
              '; ',
            )}); tick "Move held targets too" in the rollout to move ${
            held.length === 1 ? 'it' : 'them'
          }`,
        ]
      : []),
    ...(others > 0
      ? [
          `${counted(
            others,
            held.length || plan.moves.length ? 'other target' : 'target',
          )} would stay`,
        ]
      : []),
  ];
  return `${parts.join('; ')}.`;
}

/** `1 target`, `2 targets`. */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The rollout plan of what models.yaml resolves now, in one line. */
function PlanLine(props: { runtime: string }) {
  const api = useApi(modelManagerApiRef);
  // Read again when the backend pushes a fleet change, one plan at a time (the line shown stays
  // meanwhile).
  const { value } = useReadOnFleetChange(
    api,
    () => api.rolloutPlan({ runtime: props.runtime }),
    props.runtime,
  );
  if (!value) return null;
  return (
    <Typography variant="body2" data-testid="plan-line">
      {planWords(value)}
    </Typography>
  );
}

/** Per version of a runtime: how many live targets run it, on which clusters, how many are outdated. */
export function VersionMatrix(props: { runtime: RuntimeSummary }) {
  const { runtime } = props;
  const api = useApi(modelManagerApiRef);
  // Follows the backend's pushes, reading again only the clusters that changed: the matrix shown
  // stays until the new one.
  const { value, loading, error } = useLiveFleet(api, {
    runtime: runtime.name,
  });
  if (loading && !value) return <Progress />;
  if (error && !value) {
    return (
      <WarningPanel
        severity="warning"
        title={`Could not read where ${runtime.name} runs`}
      >
        {errorText(error)}
      </WarningPanel>
    );
  }
  const rows = versionMatrix(runtime, value!.items);
  return (
    <InfoCard
      title="Fleet by version"
      subheader={
        runtime.versioned ? (
          <PlanLine runtime={runtime.name} />
        ) : (
          'A flat runtime: its targets are not rolled out by version.'
        )
      }
      action={
        runtime.versioned ? (
          <LinkButton
            color="primary"
            variant="contained"
            to={rolloutTemplateUrl(runtime.name)}
          >
            Roll out
          </LinkButton>
        ) : undefined
      }
      noPadding
    >
      {error && (
        <StaleReadWarning
          error={error}
          readAt={value!.readAt}
          shown="The matrix counts the targets as read"
        />
      )}
      {value!.errors.map(e => (
        <WarningPanel
          key={e.cluster}
          severity="warning"
          title={`Cluster ${e.cluster} could not be read: its targets are counted as unknown`}
        >
          {e.message}
        </WarningPanel>
      ))}
      <Table<VersionRow>
        options={{ ...CARD_TABLE_OPTIONS, toolbar: false }}
        columns={columnsFor(
          runtime,
          matrixClusters(rows),
          rows.reduce((n, r) => n + r.targets.length, 0),
        )}
        data={rows.map(r => ({ ...r, id: r.version ?? '(unknown)' }))}
      />
    </InfoCard>
  );
}
