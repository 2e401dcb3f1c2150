/** The set of resources served: built-ins plus every served version of every CRD. */
import crypto from 'node:crypto';
import { celRuleProblems } from '../cel/rules';
import { withObjectMeta } from '../schema/objectMeta';
import { JsonObject, isObject } from '../util/json';
import { BUILTIN_GROUP_ORDER, builtinResources } from './builtins';
import { loadCrds } from './crdLoader';
import { ResourceType, apiVersionOf } from './types';

const CRD_VERBS = [
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'create',
  'update',
  'watch',
];

/** Orders versions the way kube-apiserver does: GA > beta > alpha, higher numbers first. */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    const level =
      ({ alpha: 0, beta: 1 } as Record<string, number>)[m[2] ?? ''] ?? 2;
    return { major: Number(m[1]), level, minor: Number(m[3] ?? 0) };
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) {
    if (pa.level !== pb.level) return pb.level - pa.level;
    if (pa.major !== pb.major) return pb.major - pa.major;
    return pb.minor - pa.minor;
  }
  if (pa) return -1;
  if (pb) return 1;
  return a.localeCompare(b);
}

export function storageVersionHash(
  group: string,
  version: string,
  kind: string,
): string {
  const digest = crypto
    .createHash('sha256')
    .update(`${group}/${version}/${kind}`)
    .digest();
  return digest.subarray(0, 8).toString('base64');
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : [];
}

function crdResources(crd: JsonObject): ResourceType[] {
  const spec = crd.spec as JsonObject;
  const names = spec.names as JsonObject;
  const versions = (spec.versions as JsonObject[]).filter(
    v => v.served !== false,
  );
  const storage =
    (spec.versions as JsonObject[]).find(v => v.storage === true) ??
    versions[0];
  return versions.map(v => {
    const schemaHolder = isObject(v.schema) ? v.schema : {};
    const root = isObject(schemaHolder.openAPIV3Schema)
      ? schemaHolder.openAPIV3Schema
      : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const subresources = isObject(v.subresources) ? v.subresources : {};
    const kind = String(names.kind);
    return {
      group: String(spec.group),
      version: String(v.name),
      kind,
      plural: String(names.plural),
      singular: String(names.singular ?? kind.toLowerCase()),
      listKind: String(names.listKind ?? `${kind}List`),
      namespaced: spec.scope !== 'Cluster',
      shortNames: strings(names.shortNames),
      categories: strings(names.categories),
      hasStatus: subresources.status !== undefined,
      hasGeneration: true,
      storageVersion: String(storage.name),
      schema: withObjectMeta(root),
      builtin: false,
      verbs: CRD_VERBS,
      nameRule: 'subdomain' as const,
      allowUnconditionalUpdate: false,
    };
  });
}

/** A CRD validation rule the test double cannot evaluate. */
export interface CelRuleReport {
  /** `<plural>.<group>/<version>`, e.g. `inferenceservices.serving.kserve.io/v1beta1`. */
  crd: string;
  path: string;
  expression: string;
  error: string;
}

export interface GroupInfo {
  name: string;
  /** Served versions, preferred first. */
  versions: string[];
}

export class ResourceRegistry {
  private readonly byPath = new Map<string, ResourceType>();
  private readonly ordered: ResourceType[] = [];

  private constructor(resources: ResourceType[]) {
    for (const rt of resources) {
      const key = `${rt.group}/${rt.version}/${rt.plural}`;
      if (this.byPath.has(key)) continue;
      this.byPath.set(key, rt);
      this.ordered.push(rt);
    }
  }

  static create(opts: { crdDir: string | string[] }): ResourceRegistry {
    const dirs = Array.isArray(opts.crdDir) ? opts.crdDir : [opts.crdDir];
    const crds = dirs.flatMap(loadCrds);
    return new ResourceRegistry([
      ...builtinResources(),
      ...crds.flatMap(crdResources),
    ]);
  }

  lookup(
    group: string,
    version: string,
    plural: string,
  ): ResourceType | undefined {
    return this.byPath.get(`${group}/${version}/${plural}`);
  }

  /** Finds a resource by `apiVersion` and `kind` (or plural resource name). */
  find(apiVersion: string, kindOrPlural: string): ResourceType | undefined {
    return this.ordered.find(
      rt =>
        apiVersionOf(rt) === apiVersion &&
        (rt.kind === kindOrPlural || rt.plural === kindOrPlural),
    );
  }

  resources(group: string, version: string): ResourceType[] {
    return this.ordered.filter(
      rt => rt.group === group && rt.version === version,
    );
  }

  all(): ResourceType[] {
    return [...this.ordered];
  }

  /**
   * The `x-kubernetes-validations` expressions of the served CRDs that the
   * test double cannot compile (kube-apiserver would evaluate them; the double
   * answers 500 for objects that reach them).
   */
  celRuleReports(): CelRuleReport[] {
    return this.ordered
      .filter(rt => !rt.builtin)
      .flatMap(rt =>
        celRuleProblems(rt.schema).map(p => ({
          crd: `${rt.plural}.${rt.group}/${rt.version}`,
          ...p,
        })),
      );
  }

  groups(): GroupInfo[] {
    const map = new Map<string, Set<string>>();
    for (const rt of this.ordered) {
      if (!map.has(rt.group)) map.set(rt.group, new Set());
      map.get(rt.group)!.add(rt.version);
    }
    const names = [...map.keys()].sort((a, b) => {
      const ia = BUILTIN_GROUP_ORDER.indexOf(a);
      const ib = BUILTIN_GROUP_ORDER.indexOf(b);
      if (ia >= 0 || ib >= 0)
        return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
      return a.localeCompare(b);
    });
    return names.map(name => ({
      name,
      versions: [...map.get(name)!].sort(compareKubeVersions),
    }));
  }
}
