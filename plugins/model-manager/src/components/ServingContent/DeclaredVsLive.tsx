import { StaleReadWarning } from '../fleet/StaleReadWarning';
import {
  InfoCard,
  Link,
  Progress,
  Table,
  WarningPanel,
  type TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { toastApiRef } from '@backstage/frontend-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import Typography from '@material-ui/core/Typography';
import {
  isOwnedByModel,
  modelEntityRef,
  modelUndeployPermission,
  type FleetTarget,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { useReadOnFleetChange } from '../../hooks/useReadOnFleetChange';
import { errorText, modelManagerApiRef } from '../../api';
import { targetRowId, targetStatusColumns } from '../fleet';
import { CARD_TABLE_OPTIONS } from '../cardTableOptions';

function VersionAndImage(props: { version?: string; image?: string }) {
  return (
    <>
      <div>{props.version ?? '—'}</div>
      {props.image && (
        <Typography variant="caption" style={{ wordBreak: 'break-all' }}>
          {props.image}
        </Typography>
      )}
    </>
  );
}

const columns: TableColumn<FleetTarget>[] = [
  { title: 'Where', render: t => `${t.cluster}/${t.namespace}` },
  {
    title: 'A new deploy would apply',
    render: t => (
      <VersionAndImage
        version={t.sync ? t.sync.newDeploy.version : t.resolvedVersion}
        image={t.sync ? t.sync.newDeploy.image : t.resolvedImage}
      />
    ),
  },
  {
    title: 'Live',
    render: t => (
      <VersionAndImage version={t.liveVersion} image={t.liveImage} />
    ),
  },
  ...targetStatusColumns,
];

/** One object of the model, as `Kind name (namespace)`. */
const objectLine = (o: RenderedObject) =>
  `${o.kind} ${o.name}${o.namespace ? ` (namespace ${o.namespace})` : ''}`;

/**
 * What an undeploy deletes and what it keeps, as the backend decides it (`undeploy` renders the
 * model for the target's namespace and deletes what `isOwnedByModel`): the shared objects
 * (create-if-absent: the ClusterServingRuntime, the namespace's weights claim) stay.
 */
function UndeployObjects(props: { model: string; namespace: string }) {
  const api = useApi(modelManagerApiRef);
  const { value, loading, error } = useAsync(
    () => api.render(props.model, { namespace: props.namespace }),
    [api, props.model, props.namespace],
  );
  if (loading) return <Progress />;
  if (error)
    return (
      <Typography variant="body2">
        Could not list the objects: {errorText(error)}
      </Typography>
    );
  const deletes = value!.filter(isOwnedByModel);
  const keeps = value!.filter(o => !isOwnedByModel(o));
  return (
    <>
      <Typography variant="subtitle2">Deletes</Typography>
      <ul data-testid="undeploy-deletes">
        {deletes.map(o => (
          <li key={objectLine(o)}>{objectLine(o)}</li>
        ))}
      </ul>
      {keeps.length > 0 && (
        <>
          <Typography variant="subtitle2">
            Keeps (shared with other models)
          </Typography>
          <ul data-testid="undeploy-keeps">
            {keeps.map(o => (
              <li key={objectLine(o)}>{objectLine(o)}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** Asks before deleting a model's objects from one target, listing them, then undeploys it. */
function UndeployDialog(props: {
  model: string;
  target: FleetTarget;
  onClose: (undeployed: boolean) => void;
}) {
  const api = useApi(modelManagerApiRef);
  const toastApi = useApi(toastApiRef);
  const [busy, setBusy] = useState(false);
  const { cluster, namespace } = props.target;
  const undeploy = async () => {
    setBusy(true);
    try {
      await api.undeploy(props.model, { cluster, namespace });
      toastApi.post({
        title: `Undeployed ${props.model} from ${cluster}/${namespace}`,
        status: 'success',
      });
      props.onClose(true);
    } catch (e) {
      toastApi.post({
        title: 'Undeploy failed',
        description: errorText(e as Error),
        status: 'danger',
      });
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={() => props.onClose(false)}>
      <DialogTitle>
        Undeploy {props.model} from {cluster}/{namespace}?
      </DialogTitle>
      <DialogContent>
        <Typography variant="body2" gutterBottom>
          Deletes the model's objects there; the deploy history keeps the
          record.
        </Typography>
        <UndeployObjects model={props.model} namespace={namespace} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => props.onClose(false)}>Cancel</Button>
        <Button color="secondary" disabled={busy} onClick={undeploy}>
          Undeploy from {cluster}/{namespace}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * What models.yaml declares (with each target's recorded overrides) beside what runs, for every
 * target of one model, with Undeploy for users allowed to undeploy this model
 * (`model-manager.model.undeploy` on its entity). A failure here leaves the rest of the tab working.
 */
export function DeclaredVsLive(props: {
  model: string;
  entityRef?: string;
  /** After an undeploy: the page reloads what it shows of the model (its deploy history). */
  onUndeployed?: () => void;
}) {
  const api = useApi(modelManagerApiRef);
  const { allowed: canUndeploy } = usePermission({
    permission: modelUndeployPermission,
    resourceRef: props.entityRef ?? modelEntityRef(props.model),
  });
  const [undeploying, setUndeploying] = useState<FleetTarget | undefined>();
  // Read again when the backend pushes a fleet change, one read at a time (a rollout pushes every
  // 100 ms): the answer shown stays until the new one, and when a read fails.
  const { value, loading, error, reload } = useReadOnFleetChange(
    api,
    () => api.modelFleet(props.model),
    props.model,
  );
  if (loading) return <Progress />;
  if (error && !value) {
    return (
      <WarningPanel
        severity="warning"
        title="Could not read where this model runs"
      >
        {errorText(error)}
      </WarningPanel>
    );
  }
  const fleet = value!;
  return (
    <div data-testid="declared-vs-live">
      <InfoCard
        title="Declared vs live"
        subheader={
          <Link
            to={`/model-deployments?model=${encodeURIComponent(props.model)}`}
          >
            All deployments of {props.model}
          </Link>
        }
        noPadding
      >
        {error && (
          <StaleReadWarning
            error={error}
            readAt={fleet.readAt}
            shown="The table shows where the model ran"
          />
        )}
        {fleet.errors.map(e => (
          <WarningPanel
            key={e.cluster}
            severity="warning"
            title={`Cluster ${e.cluster} could not be read`}
          >
            {e.message}
          </WarningPanel>
        ))}
        {fleet.items.length === 0 ? (
          <Typography style={{ padding: 16 }}>
            No target runs this model yet: deploy it with the Deploy button
            below.
          </Typography>
        ) : (
          <Table<FleetTarget>
            options={{ ...CARD_TABLE_OPTIONS, toolbar: false }}
            columns={
              canUndeploy
                ? [
                    ...columns,
                    {
                      title: '',
                      // Buttons only: no sort control (it would have no name: axe aria-command-name).
                      sorting: false,
                      render: t => (
                        <Button size="small" onClick={() => setUndeploying(t)}>
                          Undeploy
                        </Button>
                      ),
                    },
                  ]
                : columns
            }
            data={fleet.items.map(t => ({ ...t, id: targetRowId(t) }))}
          />
        )}
      </InfoCard>
      {undeploying && (
        <UndeployDialog
          model={props.model}
          target={undeploying}
          onClose={undeployed => {
            setUndeploying(undefined);
            if (undeployed) {
              reload();
              props.onUndeployed?.();
            }
          }}
        />
      )}
    </div>
  );
}
