import { z } from 'zod';
import type { EndpointRule } from '../status/selectEndpoint';

/*
 * `endpoints:` of an engine profile: per plumbing routing value, where clients call a model, as
 * an ordered list of sources (the first that has a URL wins). Read by selectEndpoint (the Serving
 * tab, /status, /fleet, a deploy's answer) and by the catalog's API entities.
 */

/** Where a URL may come from (see selectEndpoint: KServe's status duck types, or config). */
export const ENDPOINT_SOURCES = [
  'status-url',
  'status-addresses',
  'gateway',
] as const;

/** The placeholders an endpoint path may use. */
const PATH_PLACEHOLDERS = ['api_prefix', 'model.name'];

const ruleSchema = z
  .object({
    from: z.enum(ENDPOINT_SOURCES, {
      errorMap: () => ({
        message: `from must be one of ${ENDPOINT_SOURCES.join(
          ', ',
        )} (the model object's status.url, its status.address(es).url, or the cluster's configured gatewayBaseUrl)`,
      }),
    }),
    path: z
      .string({
        required_error:
          'path is required: the path clients put after the URL, e.g. /v1 or ${api_prefix}',
      })
      .superRefine((path, ctx) => {
        const unknown = [...path.matchAll(/\$\{([^}]*)\}/g)]
          .map(m => m[1])
          .filter(n => !PATH_PLACEHOLDERS.includes(n));
        if (unknown.length > 0)
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `path may use \${api_prefix} and \${model.name} only, not ${unknown
              .map(n => `\${${n}}`)
              .join(', ')}`,
          });
        else if (!/^(\/|\$\{api_prefix\})[^\s?#]*$/.test(path))
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message:
              'path must be a URL path starting with / (or ${api_prefix}), e.g. /v1',
          });
      }),
    bypasses: z
      .string({ invalid_type_error: 'bypasses must be a string' })
      .min(1)
      .optional(),
  })
  .strict();

/** `endpoints:` of a profile: routing value -> its rules, in order. */
export const endpointsSchema = z
  .record(z.array(ruleSchema).min(1, 'list at least one source'))
  .default({});

export const ENDPOINT_RULE_KEYS = ['from', 'path', 'bypasses'];

export function toEndpointRules(
  endpoints: z.infer<typeof endpointsSchema>,
): Record<string, EndpointRule[]> {
  return Object.fromEntries(
    Object.entries(endpoints).map(([routing, rules]) => [
      routing,
      rules.map(r => ({
        from: r.from,
        path: r.path,
        ...(r.bypasses ? { bypasses: r.bypasses } : {}),
      })),
    ]),
  );
}
