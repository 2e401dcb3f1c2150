/** Routes a resource request to its handler. */
import { StatusError } from '../api/errors';
import { HandlerResult, RequestContext } from './context';
import {
  handleCreate,
  handleDelete,
  handleDeleteCollection,
  handleGet,
  handleList,
  handleUpdate,
} from './objects';
import { handlePatch } from './patch';

/** Checks the URL shape against the resource's scope and subresources. */
export function checkScope(ctx: RequestContext): void {
  const { rt, info } = ctx;
  if (
    info.subresource !== undefined &&
    !(info.subresource === 'status' && rt.hasStatus) &&
    !rt.subresources?.includes(info.subresource)
  ) {
    throw StatusError.notFoundPath();
  }
  if (rt.namespaced && !info.namespace) {
    if (info.verb === 'list' || info.verb === 'watch') return;
    if (info.name) throw StatusError.notFoundPath();
    throw StatusError.methodNotAllowed();
  }
  if (!rt.namespaced && info.namespace && rt.kind !== 'Namespace')
    throw StatusError.notFoundPath();
}

export function dispatch(ctx: RequestContext): HandlerResult {
  checkScope(ctx);
  const { info } = ctx;
  if (!info.name && info.subresource === undefined) {
    switch (info.verb) {
      case 'list':
        return handleList(ctx);
      case 'create':
        return handleCreate(ctx);
      case 'deletecollection':
        return handleDeleteCollection(ctx);
      default:
        throw StatusError.methodNotAllowed();
    }
  }
  switch (info.verb) {
    case 'get':
      return handleGet(ctx);
    case 'update':
      return handleUpdate(ctx);
    case 'patch':
      return handlePatch(ctx);
    case 'delete':
      if (info.subresource) throw StatusError.methodNotAllowed();
      return handleDelete(ctx);
    default:
      throw StatusError.methodNotAllowed();
  }
}
