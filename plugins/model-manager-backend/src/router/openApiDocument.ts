import { ignoreOverride, zodToJsonSchema } from 'zod-to-json-schema';
import type { z } from 'zod';
import {
  jsonFieldValueSchema,
  modelManagerContract,
  type RouteContract,
} from '@model-manager/plugin-model-manager-common';

type JsonSchema = Record<string, unknown>;

/**
 * A field of a Kubernetes object (the recursive `jsonFieldValueSchema`: a string, number, boolean,
 * null, or a list or object of them) is any JSON value, which OpenAPI 3.0 writes as a schema with
 * no type that allows null.
 */
const ANY_JSON_VALUE = {
  nullable: true,
  description:
    'Any JSON value (a field of a Kubernetes object): string, number, boolean, null, or a list or object of them',
};

/** The JSON schema (OpenAPI 3.0 dialect) of a zod schema, inlined. */
function jsonSchema(schema: z.ZodTypeAny): JsonSchema {
  const { $schema, ...rest } = zodToJsonSchema(schema as any, {
    target: 'openApi3',
    $refStrategy: 'none',
    override: def =>
      def === jsonFieldValueSchema._def ? ANY_JSON_VALUE : ignoreOverride,
  }) as JsonSchema;
  return rest;
}

/** The fields of an object schema, seen through refinements and transforms. */
function objectShape(
  schema: z.ZodTypeAny,
): Record<string, z.ZodTypeAny> | undefined {
  let s: any = schema;
  while (s?._def?.schema) s = s._def.schema;
  return typeof s?._def?.shape === 'function' ? s._def.shape() : undefined;
}

function parameters(route: RouteContract) {
  const path = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const shape = route.query ? objectShape(route.query) ?? {} : {};
  const query = Object.entries(shape).map(([name, field]) => ({
    name,
    in: 'query',
    required: !field.isOptional(),
    schema: jsonSchema(field),
  }));
  return [...path, ...query];
}

const ERROR_ANSWER = {
  description:
    'An error: `{ error: { name, message } }` (400 InputError, 401, 403 NotAllowedError, 404 NotFoundError, 409 ConflictError, 503)',
};

/**
 * A Server-Sent Events answer: OpenAPI 3.0 has no way to type one event, so the stream is a
 * `text/event-stream` string whose description names the event, and the schema of its `data` is a
 * component (`x-event-data` points at it).
 */
function eventStreamAnswer(
  events: NonNullable<RouteContract['events']>,
  schemas: Record<string, JsonSchema>,
) {
  schemas[events.typeName] = jsonSchema(events.data);
  const ref = `#/components/schemas/${events.typeName}`;
  return {
    description: `A stream of Server-Sent Events: \`event: ${events.name}\` with \`data:\` one JSON ${events.typeName} (${ref}); \`:\` comment lines keep it open, \`retry:\` says when to reconnect.`,
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        'x-event-data': { $ref: ref },
      },
    },
  };
}

/**
 * The REST API as an OpenAPI 3.0 document, generated from {@link modelManagerContract}: each
 * route's path parameters, query, body and answer with their schemas.
 */
export function openApiDocument(
  options: { version?: string } = {},
): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = {};
  for (const [operationId, route] of Object.entries(
    modelManagerContract,
  ) as Array<[string, RouteContract]>) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const params = parameters(route);
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: {
        operationId,
        summary: route.summary,
        ...(params.length > 0 ? { parameters: params } : {}),
        ...(route.body
          ? {
              requestBody: {
                required: true,
                content: {
                  'application/json': { schema: jsonSchema(route.body) },
                },
              },
            }
          : {}),
        responses: {
          '200': route.events
            ? eventStreamAnswer(route.events, schemas)
            : {
                description: route.answer.description ?? 'OK',
                content: {
                  'application/json': { schema: jsonSchema(route.answer) },
                },
              },
          default: ERROR_ANSWER,
        },
        ...(route.unauthenticated ? { security: [] } : {}),
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'model-manager',
      version: options.version ?? '0.1.0',
      description:
        'The model-manager backend plugin: models, runtimes, deploys to KServe, fleet and rollouts.',
    },
    servers: [{ url: '/api/model-manager' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      ...(Object.keys(schemas).length > 0 ? { schemas } : {}),
    },
    security: [{ bearer: [] }],
    paths,
  };
}
