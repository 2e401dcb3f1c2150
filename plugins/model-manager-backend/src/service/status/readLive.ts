import {
  signaturesFor,
  type Diagnosis,
  type DownloadStatus,
  type ProgressObject,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';
import { DiagnosisReader } from '../../diagnosis';
import type { DeploymentRecord } from '../../history';
import type { ServerSideApplier } from '../../kubernetes';
import type { UseCaseContext } from '../types';

/**
 * Why the model is not Ready at a place it is deployed (see `diagnose`): its pods, their Events
 * and failed containers' log lines, matched against its engine's known signatures.
 */
export async function diagnose(
  ctx: UseCaseContext,
  at: {
    model: string;
    record: DeploymentRecord;
    main: RenderedObject;
    live: Record<string, any> | undefined;
    progress: ProgressObject | undefined;
    impersonateUser?: string;
  },
): Promise<Diagnosis> {
  const { model, record, main } = at;
  const catalog = ctx.catalog();
  const profile =
    catalog.runtimes[catalog.models[model]?.config.server.runtime]?.profile;
  const found = await DiagnosisReader.create({
    applier: ctx.applier,
  }).diagnoseNamespace(
    record.cluster,
    record.namespace,
    [
      {
        model,
        server: { kind: main.kind, name: main.name },
        serverLive: at.live,
        progress: at.progress && {
          name: at.progress.object.name,
          podLabel: at.progress.reader.podLabel,
        },
        objectNames: record.manifests.map(o => o.name),
        signatures: signaturesFor(profile),
      },
    ],
    at.impersonateUser,
  );
  return found.get(model)!;
}

/**
 * The object that reports the download (the profile's `progress:` object, e.g. the weights download
 * Job) and its pods (by its reader's pod label, e.g. `batch.kubernetes.io/job-name`), summarized by
 * its reader (e.g. `summarizeJob`).
 */
export async function downloadStatus(
  applier: ServerSideApplier,
  cluster: string,
  { object, reader }: ProgressObject,
  impersonateUser?: string,
): Promise<DownloadStatus> {
  const header = { name: object.name, namespace: object.namespace ?? '' };
  try {
    const live = await applier.read(cluster, object, impersonateUser);
    if (!live) return { ...header, found: false };
    const pods =
      (await applier.list(
        cluster,
        { apiVersion: 'v1', kind: 'Pod' },
        `${reader.podLabel}=${object.name}`,
        { namespace: object.namespace, impersonateUser },
      )) ?? [];
    return {
      ...header,
      found: true,
      progress: reader.summarize(live, pods),
    };
  } catch (e) {
    return { ...header, found: false, error: (e as Error).message };
  }
}
