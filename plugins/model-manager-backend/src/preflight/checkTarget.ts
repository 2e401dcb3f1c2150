/** Checks of what the target serves and holds: API versions, the namespace, referenced Secrets. */
import {
  secretKeysInObjects,
  type SecretUse,
  type PreflightCheck,
} from '@model-manager/plugin-model-manager-common';
import { discoveryPath, groupPath, namespacePath, secretPath } from './paths';
import { unreadable } from './readText';
import type { Read, TargetFacts } from './types';

const missing: Read = { ok: false, message: 'not read' };

/**
 * 1. Every kind at the apiVersion our templates render is served (discovery `/apis/<g>/<v>` lists
 * it). A group served at other versions only is named with them: the CRDs installed are older or
 * newer than the ones our templates are written for.
 */
export function checkApiVersions(facts: TargetFacts): PreflightCheck {
  const title = 'The API kinds and versions the model renders are served';
  const byVersion = new Map<string, Set<string>>();
  // What the engine's controller creates for the model (profile controller_kinds), by kind.
  const byController = new Map<string, string>();
  for (const o of [...facts.objects, ...(facts.controllerKinds ?? [])]) {
    if (!byVersion.has(o.apiVersion)) byVersion.set(o.apiVersion, new Set());
    byVersion.get(o.apiVersion)!.add(o.kind);
  }
  for (const k of facts.controllerKinds ?? [])
    if (
      !facts.objects.some(
        o => o.apiVersion === k.apiVersion && o.kind === k.kind,
      )
    )
      byController.set(`${k.apiVersion} ${k.kind}`, k.routing);
  const problems: string[] = [];
  const unknowns: string[] = [];
  for (const [apiVersion, kinds] of byVersion) {
    const read = facts.reads.get(discoveryPath(apiVersion)) ?? missing;
    if (!read.ok) {
      unknowns.push(
        unreadable(
          read,
          facts.cluster,
          'get',
          `discovery ${discoveryPath(apiVersion)}`,
        ).message,
      );
      continue;
    }
    const served = new Set<string>(
      (read.body?.resources ?? []).map((r: { kind: string }) => r.kind),
    );
    const absent = [...kinds].filter(k => !served.has(k));
    if (absent.length === 0) continue;
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    const other = group ? facts.reads.get(groupPath(group)) : undefined;
    const versions: string[] =
      other?.ok && other.body
        ? (other.body.versions ?? []).map((v: { version: string }) => v.version)
        : [];
    const made = absent
      .map(k => byController.get(`${apiVersion} ${k}`))
      .filter((r): r is string => r !== undefined);
    problems.push(
      `${absent.join(', ')} at ${apiVersion}${
        made.length > 0
          ? `, which the engine's controller creates for the model's routing ${made[0]},`
          : ''
      } is not served${
        versions.length > 0
          ? ` (the cluster serves ${group} ${versions.join(', ')} only)`
          : read.body === null
          ? ` (no ${group || 'core'} API group${
              group ? ': its CRDs are not installed' : ''
            })`
          : ''
      }`,
    );
  }
  const kinds = [...byVersion]
    .map(([v, k]) => `${[...k].join(', ')} (${v})`)
    .join('; ');
  if (problems.length > 0)
    return {
      id: 'api-versions',
      title,
      status: 'fail',
      message: `cluster ${facts.cluster}: ${problems.join('; ')}`,
      fix: 'install or upgrade the CRDs (KServe, Gateway API, Envoy AI Gateway) to versions that serve what our templates render, or deploy to a cluster that has them',
    };
  if (unknowns.length > 0)
    return {
      id: 'api-versions',
      title,
      status: 'unknown',
      message: unknowns.join('; '),
      fix: 'check discovery by hand: kubectl api-resources',
    };
  return {
    id: 'api-versions',
    title,
    status: 'pass',
    message: `cluster ${facts.cluster} serves ${kinds}`,
  };
}

/** 2. The namespace exists. */
export function checkNamespace(facts: TargetFacts): PreflightCheck {
  const title = 'The namespace exists';
  const read = facts.reads.get(namespacePath(facts.namespace)) ?? missing;
  if (!read.ok)
    return {
      id: 'namespace',
      title,
      status: 'unknown',
      ...unreadable(read, facts.cluster, 'get', 'namespaces'),
    };
  if (read.body === null)
    return {
      id: 'namespace',
      title,
      status: 'fail',
      message: `namespace ${facts.namespace} does not exist on cluster ${facts.cluster}`,
      fix: `create it (kubectl create namespace ${facts.namespace}) or choose another namespace`,
    };
  if (read.body.status?.phase === 'Terminating')
    return {
      id: 'namespace',
      title,
      status: 'fail',
      message: `namespace ${facts.namespace} on cluster ${facts.cluster} is being deleted (Terminating): nothing new can be created in it`,
      fix: 'wait until it is gone and create it again, or choose another namespace',
    };
  return {
    id: 'namespace',
    title,
    status: 'pass',
    message: `namespace ${facts.namespace} exists on cluster ${facts.cluster}`,
  };
}

/**
 * 3. Every Secret the rendered objects reference exists, read as metadata only
 * (PartialObjectMetadata: the Secret's data never leaves the cluster).
 */
export function checkSecrets(facts: TargetFacts): PreflightCheck {
  const title = 'The Secrets the model references exist';
  const uses = secretKeysInObjects(facts.objects);
  const names = Object.keys(uses);
  if (names.length === 0)
    return {
      id: 'secrets',
      title,
      status: 'pass',
      message: 'the model references no Secret',
    };
  const absent: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const read = facts.reads.get(secretPath(facts.namespace, name)) ?? missing;
    if (!read.ok)
      unknown.push(unreadable(read, facts.cluster, 'get', 'secrets').message);
    else if (read.body === null) absent.push(name);
  }
  const where = `namespace ${facts.namespace} on cluster ${facts.cluster}`;
  if (absent.length > 0)
    return {
      id: 'secrets',
      title,
      status: 'fail',
      message: `Secret ${absent.join(
        ', ',
      )} does not exist in ${where}: the pod would not start (CreateContainerConfigError)`,
      fix: `create ${absent.length > 1 ? 'them' : 'it'} there: ${absent
        .map(name => createSecretCommand(facts.namespace, name, uses[name]))
        .join('; ')}`,
    };
  if (unknown.length > 0)
    return {
      id: 'secrets',
      title,
      status: 'unknown',
      message: [...new Set(unknown)].join('; '),
      fix: `grant get on secrets in ${
        facts.namespace
      } (only metadata is read), or check ${names.join(', ')} by hand`,
    };
  return {
    id: 'secrets',
    title,
    status: 'pass',
    message: `Secret ${names.join(', ')} exists in ${where}`,
  };
}

/**
 * The kubectl command that creates a Secret the way the pod reads it, `...` in place of each
 * value (which the portal never sees): a pull secret as `docker-registry`, else `generic` with
 * the keys read by secretKeyRef (one example key for a Secret read whole by envFrom or a volume:
 * which keys it needs is the image's business). No angle brackets: the scaffolder shows an
 * error's message as Markdown, where `<key>` is an HTML tag and vanishes.
 */
function createSecretCommand(
  namespace: string,
  name: string,
  use: SecretUse | undefined,
): string {
  const create = `kubectl -n ${namespace} create secret`;
  if (use?.imagePull)
    return `${create} docker-registry ${name} --docker-server=... --docker-username=... --docker-password=...`;
  const literals = use?.keys.length
    ? use.keys.map(key => `--from-literal=${key}=...`).join(' ')
    : '--from-literal=KEY=... (the keys the pod reads)';
  return `${create} generic ${name} ${literals}`;
}
