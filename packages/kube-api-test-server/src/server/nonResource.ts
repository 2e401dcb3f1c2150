/** Answers for non-resource paths: discovery, version and health checks. */
import { StatusError } from '../api/errors';
import {
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  versionInfo,
} from '../registry/discovery';
import { ResourceRegistry } from '../registry/ResourceRegistry';
import { HandlerResult } from '../handlers/context';

export function handleNonResource(
  registry: ResourceRegistry,
  path: string,
  serverAddress: string,
): HandlerResult | 'ok' {
  const parts = path.split('/').filter(Boolean);
  const found = (body: unknown) => {
    if (!body) throw StatusError.notFoundPath();
    return { code: 200, body };
  };
  if (['healthz', 'livez', 'readyz'].includes(parts[0]) && parts.length === 1)
    return 'ok';
  if (parts[0] === 'version' && parts.length === 1)
    return { code: 200, body: versionInfo() };
  if (parts[0] === 'api') {
    if (parts.length === 1)
      return { code: 200, body: apiVersions(serverAddress) };
    if (parts.length === 2)
      return found(apiResourceList(registry, '', parts[1]));
  }
  if (parts[0] === 'apis') {
    if (parts.length === 1) return { code: 200, body: apiGroupList(registry) };
    if (parts.length === 2) return found(apiGroup(registry, parts[1]));
    if (parts.length === 3)
      return found(apiResourceList(registry, parts[1], parts[2]));
  }
  throw StatusError.notFoundPath();
}
