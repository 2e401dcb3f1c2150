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
import { stringifyEntityRef, type Entity } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import { usePermission } from '@backstage/plugin-permission-react';
import Grid from '@material-ui/core/Grid';
import Typography from '@material-ui/core/Typography';
import {
  modelDeployPermission,
  servedModelName,
  type ExplainRow,
} from '@model-manager/plugin-model-manager-common';
import { useMemo, useRef } from 'react';
import Button from '@material-ui/core/Button';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { HistoryTable } from '../HistoryTable';
import { modelManagerApiRef } from '../../api';
import { LayerChip } from '../LayerChip';
import { ManifestsCard } from './ManifestsCard';
import { explainRows, sourceLink } from './explainRows';
import { ClientSnippetCard } from '../ClientSnippetCard';
import { KServeStatusCard } from '../KServeStatusCard';
import { CatalogStatusWarning } from '../CatalogStatusWarning';
import { DeclaredVsLive } from './DeclaredVsLive';
import { WhatRunsCard } from '../sync';
import { deployModelUrl } from '../deployModelUrl';
import { CARD_TABLE_OPTIONS } from '../cardTableOptions';
import { modelNameOf } from '../entityNames';

function explainColumns(entity: Entity): TableColumn<ExplainRow>[] {
  return [
    { title: 'Setting', field: 'key', width: '22%' },
    {
      title: 'Value',
      field: 'value',
      render: r => <code style={{ wordBreak: 'break-all' }}>{r.value}</code>,
    },
    {
      title: 'Set by',
      field: 'layer',
      render: r => <LayerChip layer={r.layer} />,
      width: '12%',
    },
    {
      title: 'Where',
      field: 'source',
      render: r => {
        const link = sourceLink(entity, r.source);
        const text = <Typography variant="caption">{r.source}</Typography>;
        return link ? <Link to={link}>{text}</Link> : text;
      },
    },
    {
      title: 'Replaced',
      field: 'overrode',
      render: r =>
        r.overrode.length === 0 ? (
          '—'
        ) : (
          <>
            {r.overrode.map((o, i) => (
              <div key={i}>
                <Typography variant="caption">
                  {o.removed ? (
                    <>removed ({o.layer})</>
                  ) : (
                    <>
                      <s>{o.value}</s> ({o.layer})
                    </>
                  )}
                </Typography>
              </div>
            ))}
          </>
        ),
    },
  ];
}

/**
 * The "Serving" tab of a model: what runs on each target (and why it differs from a new deploy),
 * what a new deploy would apply with the layer that set each value, its manifests, history.
 * Deploy (and, in the history, Roll back) only for users the permission policy lets deploy this
 * model (`model-manager.model.deploy` on its entity).
 */
export function ServingContent() {
  const { entity } = useEntity();
  const entityRef = stringifyEntityRef(entity);
  const { allowed: canDeploy } = usePermission({
    permission: modelDeployPermission,
    resourceRef: entityRef,
  });
  const api = useApi(modelManagerApiRef);
  const columns = useMemo(() => explainColumns(entity), [entity]);
  const model = modelNameOf(entity);
  const state = useAsyncRetry(async () => {
    const [resolved, manifests, history] = await Promise.all([
      api.resolve(model),
      api.render(model, { namespace: 'models' }),
      api.history(model),
    ]);
    return { resolved, manifests, history, at: new Date() };
  }, [api, model]);
  // What was last loaded stays on the page while it reloads, and when a reload fails.
  const loaded = useRef<typeof state.value>();
  if (state.value) loaded.current = state.value;

  if (!loaded.current) {
    if (state.loading) return <Progress />;
    if (state.error)
      return (
        <LoadError model={model} error={state.error} retry={state.retry} />
      );
  }
  const { resolved, manifests, history, at } = loaded.current!;
  const { server, explain } = resolved;
  const deployUrl = deployModelUrl(entityRef);
  return (
    <Grid container spacing={3}>
      {state.error && (
        <Grid item xs={12}>
          <LoadError
            model={model}
            error={state.error}
            retry={state.retry}
            shownFrom={at}
          />
        </Grid>
      )}
      <Grid item xs={12}>
        <CatalogStatusWarning />
      </Grid>
      <Grid item xs={12}>
        <DeclaredVsLive
          model={model}
          entityRef={entityRef}
          onUndeployed={state.retry}
        />
      </Grid>
      <Grid item xs={12}>
        <WhatRunsCard model={model} />
      </Grid>
      <Grid item xs={12}>
        <InfoCard
          title={`What a new deploy would apply: ${server.model} on ${
            server.runtime
          }${server.version ? ` ${server.version.value}` : ''}`}
          subheader={`${server.kind} · ${server.modelId} · category ${
            server.category
          }${
            server.version
              ? ` · version from ${
                  server.version.origin.layer === 'override'
                    ? 'the request'
                    : server.version.origin.layer === 'model'
                    ? 'the model pin (server_version)'
                    : 'the runtime default'
                }`
              : ''
          }`}
          action={
            canDeploy && (
              <LinkButton to={deployUrl} color="primary" variant="contained">
                Deploy
              </LinkButton>
            )
          }
        >
          <Table<ExplainRow>
            title="Resolved configuration"
            options={CARD_TABLE_OPTIONS}
            columns={columns}
            data={explainRows(explain)}
          />
        </InfoCard>
      </Grid>
      <Grid item xs={12}>
        <KServeStatusCard />
      </Grid>
      <Grid item xs={12} md={6}>
        <ClientSnippetCard
          model={model}
          servedName={servedModelName(server)}
          category={server.category}
          operations={resolved.operations ?? []}
        />
      </Grid>
      <Grid item xs={12}>
        <ManifestsCard
          model={model}
          namespace="models"
          manifests={manifests}
          title="Manifests a new deploy would apply"
        />
      </Grid>
      <Grid item xs={12}>
        <HistoryTable
          model={model}
          entityRef={entityRef}
          history={history}
          onChanged={state.retry}
        />
      </Grid>
    </Grid>
  );
}

/** The model-manager backend was not reached (no answer, or a gateway's 502/503/504). */
function unreachable(error: Error): boolean {
  const status = (error as { response?: { status?: number } }).response?.status;
  if (status !== undefined) return [502, 503, 504].includes(status);
  return error.name === 'TypeError' || /fetch|network/i.test(error.message);
}

/**
 * Why the tab could not load, in words: the model is not in models.yaml (404), the backend was
 * not reached, or it refused; with a Retry. When something was loaded before (`shownFrom`), it
 * says that what is shown is from then, and the tab keeps it.
 */
function LoadError(props: {
  model: string;
  error: Error;
  retry: () => void;
  shownFrom?: Date;
}) {
  const { model, error, retry, shownFrom } = props;
  const status = (error as { response?: { status?: number } }).response?.status;
  const what =
    status === 404
      ? `Model ${model} is not in models.yaml`
      : unreachable(error)
      ? 'The model-manager backend could not be reached'
      : `The model-manager backend could not load model ${model}`;
  return (
    <WarningPanel
      defaultExpanded
      severity={shownFrom ? 'warning' : 'error'}
      title={
        shownFrom
          ? `${what}: this tab shows what was loaded at ${shownFrom.toLocaleTimeString()}`
          : what
      }
    >
      <Typography variant="body2">{error.message}</Typography>
      <Button size="small" variant="outlined" onClick={retry}>
        Retry
      </Button>
    </WarningPanel>
  );
}
