import {
  InfoCard,
  Link,
  LinkButton,
  Progress,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import Typography from '@material-ui/core/Typography';
import { stringifyEntityRef } from '@backstage/catalog-model';
import useAsync from 'react-use/esm/useAsync';
import { errorText, modelManagerApiRef } from '../../api';
import { deployModelUrl } from '../deployModelUrl';
import { FleetStateLabel } from '../fleet';
import { KeyValueTable } from '../RuntimePage/KeyValueTable';
import { modelNameOf } from '../entityNames';

/**
 * A model's Overview card, above the catalog's generic cards: its runtime and the version a deploy
 * would use, where it runs with the state and endpoint of each target (`GET /fleet?model=`), and
 * Deploy (the Deploy model template with the model picked).
 */
export function ModelSummaryCard() {
  const { entity } = useEntity();
  const api = useApi(modelManagerApiRef);
  const name = modelNameOf(entity);
  const { value, loading, error } = useAsync(
    async () =>
      Promise.all([api.getModel(name), api.modelFleet(name)]).then(
        ([model, fleet]) => ({ model, fleet }),
      ),
    [api, name],
  );
  const deploy = (
    <LinkButton
      to={deployModelUrl(stringifyEntityRef(entity))}
      variant="contained"
      color="primary"
      aria-label={`Deploy ${name}`}
    >
      Deploy
    </LinkButton>
  );
  if (loading)
    return (
      <InfoCard title={`Model ${name}`}>
        <Progress />
      </InfoCard>
    );
  if (error || !value) {
    return (
      <WarningPanel severity="error" title={`Could not load model ${name}`}>
        {error ? errorText(error) : ''}
      </WarningPanel>
    );
  }
  const { model, fleet } = value;
  return (
    <InfoCard
      title={`Model ${name}`}
      subheader={model.modelId}
      action={deploy}
      deepLink={{ title: 'How it is served', link: 'serving' }}
    >
      <div data-testid="model-summary">
        <KeyValueTable
          label="Model summary"
          empty=""
          rows={[
            { key: 'runtime', value: `${model.runtime} (${model.kind})` },
            {
              key: 'version',
              value: model.version ?? `flat runtime, image ${model.image}`,
              note:
                model.versionSource === 'model'
                  ? 'pinned in models.yaml'
                  : model.version
                  ? "the runtime's default"
                  : undefined,
            },
            { key: 'category', value: model.category },
          ]}
        />
        <Typography variant="h6" component="h3" style={{ marginTop: 16 }}>
          Where it runs
        </Typography>
        {fleet.items.length === 0 ? (
          <Typography variant="body2" data-testid="model-summary-not-deployed">
            Not deployed anywhere yet: Deploy puts it on a cluster.
          </Typography>
        ) : (
          fleet.items.map(t => (
            <div
              key={`${t.cluster}/${t.namespace}`}
              data-testid={`model-summary-${t.cluster}-${t.namespace}`}
              style={{ marginBottom: 8 }}
            >
              <Typography variant="subtitle2">
                {t.cluster}/{t.namespace}: {t.liveVersion ?? t.liveImage ?? '—'}
              </Typography>
              {/* Why what runs is not what a deploy would use (a hold, a request, drift): the
                  version above can differ from the one in the table, and this says why. */}
              {t.sync?.state === 'differs' && (
                <Typography
                  variant="body2"
                  data-testid={`model-summary-sync-${t.cluster}-${t.namespace}`}
                >
                  {t.sync.summary} (<Link to="serving">Serving</Link> lists each
                  difference)
                </Typography>
              )}
              <FleetStateLabel
                state={t.state}
                reason={t.reason}
                awaitingKServe={t.awaitingKServe}
                download={t.download}
              />
              <Typography variant="body2">
                Endpoint:{' '}
                {t.endpoint ? <code>{t.endpoint}</code> : 'none known yet'}
              </Typography>
            </div>
          ))
        )}
        {fleet.errors.length > 0 && (
          <Typography variant="body2">
            Not read: {fleet.errors.map(e => e.cluster).join(', ')} (
            <Link to="/model-deployments">Deployments</Link> says why).
          </Typography>
        )}
      </div>
    </InfoCard>
  );
}
