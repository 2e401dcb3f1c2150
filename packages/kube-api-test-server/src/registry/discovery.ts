/** Discovery documents (`/api`, `/apis`, `/apis/<group>[/<version>]`, `/version`). */
import { JsonObject } from '../util/json';
import { ResourceRegistry, storageVersionHash } from './ResourceRegistry';
import { ResourceType } from './types';

const groupVersion = (group: string, version: string) => ({
  groupVersion: group ? `${group}/${version}` : version,
  version,
});

export function apiVersions(serverAddress: string): JsonObject {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroupEntry(name: string, versions: string[]): JsonObject {
  return {
    name,
    versions: versions.map(v => groupVersion(name, v)),
    preferredVersion: groupVersion(name, versions[0]),
  };
}

export function apiGroupList(registry: ResourceRegistry): JsonObject {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry
      .groups()
      .filter(g => g.name !== '')
      .map(g => apiGroupEntry(g.name, g.versions)),
  };
}

export function apiGroup(
  registry: ResourceRegistry,
  name: string,
): JsonObject | undefined {
  const group = registry.groups().find(g => g.name === name && name !== '');
  if (!group) return undefined;
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    ...apiGroupEntry(group.name, group.versions),
  };
}

function resourceEntries(rt: ResourceType): JsonObject[] {
  const main: JsonObject = {
    name: rt.plural,
    singularName: rt.singular,
    namespaced: rt.namespaced,
    kind: rt.kind,
    verbs: rt.verbs,
  };
  if (rt.shortNames.length > 0) main.shortNames = rt.shortNames;
  if (rt.categories.length > 0) main.categories = rt.categories;
  main.storageVersionHash = storageVersionHash(
    rt.group,
    rt.storageVersion,
    rt.kind,
  );
  const out = [main];
  if (rt.hasStatus) {
    out.push({
      name: `${rt.plural}/status`,
      singularName: '',
      namespaced: rt.namespaced,
      kind: rt.kind,
      verbs: ['get', 'patch', 'update'],
    });
  }
  return out;
}

export function apiResourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): JsonObject | undefined {
  const resources = registry.resources(group, version);
  if (resources.length === 0) return undefined;
  const list: JsonObject = { kind: 'APIResourceList' };
  if (group) list.apiVersion = 'v1';
  list.groupVersion = group ? `${group}/${version}` : version;
  list.resources = resources.flatMap(resourceEntries);
  return list;
}

export function versionInfo(): JsonObject {
  return {
    major: '1',
    minor: '34',
    emulationMajor: '1',
    emulationMinor: '34',
    minCompatibilityMajor: '1',
    minCompatibilityMinor: '33',
    gitVersion: 'v1.34.2',
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.24.9',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}
