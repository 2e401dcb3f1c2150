/** What every resource handler receives, and the shape of its answer. */
import { ResourceRegistry } from '../registry/ResourceRegistry';
import { ResourceType } from '../registry/types';
import { ResourceRequest } from '../server/requestInfo';
import { ObjectStore } from '../store/ObjectStore';

export interface RequestContext {
  registry: ResourceRegistry;
  store: ObjectStore;
  rt: ResourceType;
  info: ResourceRequest;
  query: URLSearchParams;
  body: Buffer;
  /** Media type without parameters, lower case. */
  contentType: string;
  userAgent: string;
  now: Date;
  /** Watches: how often a BOOKMARK is sent when allowed (default one minute). */
  bookmarkEveryMs?: number;
}

export interface HandlerResult {
  code: number;
  body: unknown;
  headers?: Record<string, string>;
}
