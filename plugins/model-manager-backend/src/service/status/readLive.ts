import {
  signaturesFor,
  summarizeJob,
  type Diagnosis,
  type DownloadStatus,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';
import { DiagnosisReader } from '../../diagnosis';
import type { DeploymentRecord } from '../../history';
import type { ServerSideApplier } from '../../kubernetes';
import type { UseCaseContext } from '../types';

/** The label the Job controller puts on a Job's pods (https://kubernetes.io/docs/reference/labels-annotations-taints/#batchkubernetesiojob-name). */
const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';

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
    jobName: string | undefined;
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
        jobName: at.jobName,
        objectNames: record.manifests.map(o => o.name),
        signatures: signaturesFor(profile),
      },
    ],
    at.impersonateUser,
  );
  return found.get(model)!;
}

/**
 * The weights download Job and its pods (label `batch.kubernetes.io/job-name`, set by the Job
 * controller since Kubernetes 1.27), summarized by `summarizeJob`.
 */
export async function downloadStatus(
  applier: ServerSideApplier,
  cluster: string,
  job: RenderedObject,
  impersonateUser?: string,
): Promise<DownloadStatus> {
  const header = { name: job.name, namespace: job.namespace ?? '' };
  try {
    const live = await applier.read(cluster, job, impersonateUser);
    if (!live) return { ...header, found: false };
    const pods =
      (await applier.list(
        cluster,
        { apiVersion: 'v1', kind: 'Pod' },
        `${JOB_NAME_LABEL}=${job.name}`,
        { namespace: job.namespace, impersonateUser },
      )) ?? [];
    return { ...header, found: true, progress: summarizeJob(live, pods) };
  } catch (e) {
    return { ...header, found: false, error: (e as Error).message };
  }
}
