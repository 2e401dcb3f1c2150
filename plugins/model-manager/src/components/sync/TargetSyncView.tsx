import Accordion from '@material-ui/core/Accordion';
import AccordionDetails from '@material-ui/core/AccordionDetails';
import AccordionSummary from '@material-ui/core/AccordionSummary';
import Grid from '@material-ui/core/Grid';
import Typography from '@material-ui/core/Typography';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import type {
  AppliedRevision,
  FleetTarget,
  TargetSync,
} from '@model-manager/plugin-model-manager-common';
import { ManifestsCard } from '../ServingContent/ManifestsCard';
import { ServerFields } from './ServerFields';
import { SyncDifferences } from './SyncDifferences';

/** `revision 3 (deploy by user:default/alice, 01/12/2026, 10:00:00) with serverVersion 0.19.1, env A=1` */
export function appliedRevisionText(r: AppliedRevision | undefined): string {
  if (!r) return 'no revision on record (applied outside this portal)';
  const overrides = [
    ...(r.overrides.serverVersion
      ? [`serverVersion ${r.overrides.serverVersion}`]
      : []),
    ...Object.entries(r.overrides.env ?? {}).map(([k, v]) =>
      v === null ? `env ${k} removed` : `env ${k}=${v}`,
    ),
    ...(r.overrides.args ?? []).map(a => `arg ${a}`),
  ];
  return `revision ${r.revision} (${r.action} by ${r.actor}, ${new Date(
    r.at,
  ).toLocaleString()})${
    overrides.length ? ` with ${overrides.join(', ')}` : ', no overrides'
  }${r.rolloutId ? `, rollout ${r.rolloutId}` : ''}`;
}

/**
 * One target: "What runs" (live version, image, env, args, the revision that applied them with its
 * overrides and hold, the manifests as applied) and, labelled apart, "What a new deploy would
 * apply" (the catalog's resolution); then every difference with its reason.
 */
export function TargetSyncView(props: {
  target: Pick<FleetTarget, 'model' | 'cluster' | 'namespace'>;
  sync: TargetSync;
}) {
  const { target, sync } = props;
  return (
    <div
      data-testid={`sync-${target.cluster}/${target.namespace}`}
      style={{ padding: 16 }}
    >
      <Typography variant="h6">
        {target.cluster}/{target.namespace}
      </Typography>
      <Typography variant="body2" paragraph>
        {sync.summary}
      </Typography>
      <Grid container spacing={2}>
        <Grid item xs={12} md={6}>
          <Typography variant="subtitle1">What runs</Typography>
          {sync.state === 'unknown' && (
            <Typography variant="body2" color="textSecondary">
              The cluster could not be read: the live values are unknown.
            </Typography>
          )}
          <ServerFields server={sync.runs} />
          <Typography variant="body2" component="div">
            Applied by: {appliedRevisionText(sync.runs.revision)}
          </Typography>
          {sync.hold && (
            <Typography
              variant="body2"
              component="div"
              data-testid="hold"
              style={{ fontWeight: 500 }}
            >
              {sync.hold.text.charAt(0).toUpperCase() + sync.hold.text.slice(1)}
            </Typography>
          )}
        </Grid>
        <Grid item xs={12} md={6}>
          <Typography variant="subtitle1">
            What a new deploy would apply (models.yaml now, no overrides)
          </Typography>
          {sync.newDeploy.error ? (
            <Typography variant="body2">{sync.newDeploy.error}</Typography>
          ) : (
            <ServerFields server={sync.newDeploy} />
          )}
        </Grid>
        <Grid item xs={12}>
          <SyncDifferences differences={sync.differences} />
        </Grid>
        {sync.runs.manifests && (
          <Grid item xs={12}>
            <Accordion TransitionProps={{ unmountOnExit: true }}>
              <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                <Typography>
                  Manifests as applied by revision{' '}
                  {sync.runs.revision?.revision}
                </Typography>
              </AccordionSummary>
              <AccordionDetails style={{ display: 'block' }}>
                <ManifestsCard
                  model={target.model}
                  namespace={target.namespace}
                  manifests={sync.runs.manifests}
                  title="Manifests as applied"
                />
              </AccordionDetails>
            </Accordion>
          </Grid>
        )}
      </Grid>
    </div>
  );
}
