import type { z } from 'zod';
import { modelManagerContract, type RouteName } from '../contract';

type Contract = typeof modelManagerContract;

/** The names of a path's `:parameters`. */
type PathParams<P extends string> =
  P extends `${string}:${infer Name}/${infer Rest}`
    ? Name | PathParams<`/${Rest}`>
    : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsInput<P extends string> = [PathParams<P>] extends [never]
  ? {}
  : { params: Record<PathParams<P>, string | number> };
type QueryInput<Q> = Q extends z.ZodTypeAny
  ? { query?: Record<string, QueryValue> & Partial<z.input<Q>> }
  : {};
type BodyInput<B> = B extends z.ZodTypeAny ? { body: z.input<B> } : {};

/** A query parameter: unset (`undefined` or ''), a value, or a repeated parameter. */
export type QueryValue = string | number | boolean | string[] | undefined;

/** What a call of route `N` sends: its path parameters, query and body, as the contract says. */
export type RouteInput<N extends RouteName> = ParamsInput<Contract[N]['path']> &
  QueryInput<Contract[N] extends { query: infer Q } ? Q : undefined> &
  BodyInput<Contract[N] extends { body: infer B } ? B : undefined>;

/** What route `N` answers. */
export type RouteAnswer<N extends RouteName> = z.infer<Contract[N]['answer']>;

/** A request as sent: for messages and for the transport's error mapping. */
export interface SentRequest {
  method: string;
  /** The path under the base URL, with its query. */
  path: string;
  url: string;
}

/**
 * How a caller reaches the backend: the browser's fetchApi (which signs requests itself), the
 * scaffolder's discovery and plugin token, the CLI's URL and static token.
 */
export interface ModelManagerTransport {
  /** A `fetch`-like function. */
  fetch(
    url: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ): Promise<Response>;
  /** The backend's base URL (`…/api/model-manager`). */
  baseUrl(): Promise<string> | string;
  /** A bearer token for the request (absent or undefined: no Authorization header). */
  token?(): Promise<string | undefined> | string | undefined;
  /** The error to throw for an answer that is not 2xx (default: {@link ModelManagerResponseError}). */
  toError?(response: Response, request: SentRequest): Promise<Error> | Error;
  /** The error to throw when the request could not be sent (default: the fetch error). */
  unreachable?(error: unknown, request: SentRequest): Error;
}

/** An answer that is not 2xx, with the backend's `{ error: { name, message } }` body. */
export class ModelManagerResponseError extends Error {
  readonly name = 'ModelManagerResponseError';
  constructor(
    message: string,
    readonly status: number,
    /** The parsed JSON body (`error`, and `deployment` or `checks` where the route sends them). */
    readonly body: any,
  ) {
    super(message);
  }

  /** Reads an error answer: the backend's message, else the status and the start of the body. */
  static async fromResponse(
    response: Response,
    request: SentRequest,
  ): Promise<ModelManagerResponseError> {
    const { text, body, message: sent } = await readErrorAnswer(response);
    const message =
      sent ??
      `the model-manager backend answered ${response.status} ${
        response.statusText
      } to ${request.method} ${request.url}: ${
        text.slice(0, 300) || 'no body'
      }`;
    return new ModelManagerResponseError(message, response.status, body);
  }
}

function parseJson(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An answer that is not 2xx, read once: its text, its JSON body (undefined when it is not JSON)
 * and the backend's `error.message` when the body carries one (`{ error: { name, message } }`,
 * with `deployment` or `checks` where the route sends them).
 */
export async function readErrorAnswer(
  response: Response,
): Promise<{ text: string; body: any; message?: string }> {
  const text = await response.text();
  const body = parseJson(text);
  return typeof body?.error?.message === 'string'
    ? { text, body, message: body.error.message }
    : { text, body };
}

/** `?a=1&b=2&b=3` of the set values, or '' when none is set. */
export function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/**
 * The one client of the model-manager REST API: each call names a route of
 * {@link modelManagerContract}, and the request (method, path, query, JSON body) and the answer's
 * type come from it. How it reaches the backend is the caller's {@link ModelManagerTransport}.
 */
export class ModelManagerRestClient {
  private constructor(private readonly transport: ModelManagerTransport) {}

  static create(transport: ModelManagerTransport): ModelManagerRestClient {
    return new ModelManagerRestClient(transport);
  }

  /** The path of route `name` with its parameters (URI-encoded) and query. */
  static path<N extends RouteName>(name: N, input: RouteInput<N>): string {
    const { params, query } = input as {
      params?: Record<string, string | number>;
      query?: Record<string, QueryValue>;
    };
    const path = modelManagerContract[name].path.replace(
      /:([A-Za-z]+)/g,
      (_, key: string) => encodeURIComponent(String(params![key])),
    );
    return `${path}${queryString(query)}`;
  }

  /** Calls route `name`. @throws what the transport makes of an answer that is not 2xx. */
  async call<N extends RouteName>(
    name: N,
    input: RouteInput<N>,
  ): Promise<RouteAnswer<N>> {
    const { method } = modelManagerContract[name];
    const path = ModelManagerRestClient.path(name, input);
    const url = `${await this.transport.baseUrl()}${path}`;
    const request: SentRequest = { method, path, url };
    const { body } = input as { body?: unknown };
    const token = await this.transport.token?.();
    const headers: Record<string, string> = {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    };
    let response: Response;
    try {
      response = await this.transport.fetch(url, {
        method,
        headers: Object.keys(headers).length > 0 ? headers : undefined,
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch (e) {
      throw this.transport.unreachable?.(e, request) ?? e;
    }
    if (!response.ok) {
      throw await (
        this.transport.toError ?? ModelManagerResponseError.fromResponse
      )(response, request);
    }
    return parseJson(await response.text()) as RouteAnswer<N>;
  }
}
