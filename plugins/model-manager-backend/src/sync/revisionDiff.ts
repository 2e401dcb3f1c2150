import { NotFoundError } from '@backstage/errors';
import type {
  DeploymentHistoryItem,
  RevisionDiff,
} from '@model-manager/plugin-model-manager-common';
import type { FleetService } from '../fleet';
import { diffRevision } from './diffRevision';

/**
 * `GET /models/:name/deployments/:revision/diff`: the row's changes from the previous revision,
 * and its objects against the live ones the fleet last read.
 * @throws NotFoundError when the model has no such revision, or it applied nothing.
 */
export async function revisionDiff(options: {
  model: string;
  revision: number;
  history: (model: string) => Promise<DeploymentHistoryItem[]>;
  fleet: Pick<FleetService, 'liveObjects'>;
}): Promise<RevisionDiff> {
  const row = (await options.history(options.model)).find(
    r => r.revision === options.revision,
  );
  if (!row || row.manifests.length === 0) {
    throw new NotFoundError(
      `model ${options.model} has no revision ${options.revision} that applied objects; see GET /models/${options.model}/deployments`,
    );
  }
  const live = await options.fleet.liveObjects(row);
  return diffRevision(row, live.objects, live.error);
}
