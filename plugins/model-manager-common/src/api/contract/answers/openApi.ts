import { z } from 'zod';

/** A JSON schema or an OpenAPI object inside the document: open by nature. */
const openObject = z.record(z.string(), z.unknown());

/**
 * The answer of `GET /openapi.json`: an OpenAPI 3.0 document (its full grammar is the OpenAPI
 * specification's; the backend's test validates the document with @apidevtools/swagger-parser).
 */
export const openApiDocumentSchema = z.object({
  openapi: z.string().regex(/^3\.0\.\d+$/),
  info: z.object({
    title: z.string(),
    version: z.string(),
    description: z.string().optional(),
  }),
  servers: z.array(z.object({ url: z.string() })),
  components: openObject,
  security: z.array(z.record(z.string(), z.array(z.string()))),
  /** Each path, and under it each method's operation object. */
  paths: z.record(z.string(), z.record(z.string(), openObject)),
});
