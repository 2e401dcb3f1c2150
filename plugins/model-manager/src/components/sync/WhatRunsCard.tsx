import { StaleReadWarning } from '../fleet/StaleReadWarning';
import { InfoCard, Progress, WarningPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Divider from '@material-ui/core/Divider';
import Typography from '@material-ui/core/Typography';
import { errorText, modelManagerApiRef } from '../../api';
import { useReadOnFleetChange } from '../../hooks/useReadOnFleetChange';
import { TargetSyncView } from './TargetSyncView';

/**
 * The Serving tab's "What runs" card: per target of the model, what runs there and what a new
 * deploy would apply, from the backend's one sync computation (`/models/:name/fleet`).
 */
export function WhatRunsCard(props: { model: string }) {
  const api = useApi(modelManagerApiRef);
  // Read again when the backend pushes a fleet change, as the other cards of the tab are, one read
  // at a time: the answer shown stays until the new one, and when a read fails.
  const { value, loading, error } = useReadOnFleetChange(
    api,
    () => api.modelFleet(props.model),
    props.model,
  );
  if (loading) return <Progress />;
  if (error && !value)
    return (
      <WarningPanel severity="warning" title="Could not read what runs">
        {errorText(error)}
      </WarningPanel>
    );
  const targets = value!.items.filter(t => t.sync);
  return (
    <div data-testid="what-runs">
      <InfoCard
        title="What runs"
        subheader="Per target: the live server and the revision that applied it, beside what a new deploy would apply"
        noPadding
      >
        {error && (
          <StaleReadWarning
            error={error}
            readAt={value!.readAt}
            shown="This is what ran"
          />
        )}
        {targets.length === 0 ? (
          <Typography style={{ padding: 16 }}>
            Not running anywhere: nothing is deployed.
          </Typography>
        ) : (
          targets.map((t, i) => (
            <div key={`${t.cluster}/${t.namespace}`}>
              {i > 0 && <Divider />}
              <TargetSyncView target={t} sync={t.sync!} />
            </div>
          ))
        )}
      </InfoCard>
    </div>
  );
}
