import { z } from 'zod';
import { isDns1123Label } from '../names/kubernetesNames';
import { QUANTITY_PATTERN as QUANTITY } from '../schema/modelsFileSchema';

/*
 * Plumbing, declared by each engine profile (`plumbing:` of runtimes/<engine>/profile.yaml): the
 * low-level keys a runtime's values.yaml (and models.yaml `runtimes.<name>`) may set for that
 * engine, their type and default. Each key is a template placeholder `${key}` of the engine's
 * templates (see BUILTIN_PLACEHOLDERS for the ones the code computes). Nothing here names a key:
 * the code only knows the types below, and the few keys it reads itself (PLUMBING_READ_BY_CODE).
 */

/** No newline, carriage return or NUL. */
const SINGLE_LINE = /^[^\r\n\0]*$/;
const MAX_TEXT = 16 * 1024;

/**
 * The types a plumbing key may have. Text types hold strings; `integer` holds a whole number
 * (rendered as a YAML number where the placeholder is a whole value, e.g. a containerPort).
 */
export const PLUMBING_TYPES = [
  'string',
  'enum',
  'integer',
  'quantity',
  'dns_label',
  'kind',
  'url_path',
] as const;
export type PlumbingType = (typeof PLUMBING_TYPES)[number];

/** A plumbing value as the templates get it. */
export type PlumbingValue = string | number;

/** One key of a profile's `plumbing:`. */
export interface PlumbingDeclaration {
  type: PlumbingType;
  /** What the value is, in words, for messages (e.g. `the KServe model format, e.g. openvino`). */
  description?: string;
  /** `enum`: the values allowed. */
  values?: readonly string[];
  /** `integer`: the smallest and largest values allowed. */
  min?: number;
  max?: number;
  /** Used when no runtime sets the key (the templates get it; the resolver does not trace it). */
  default?: PlumbingValue;
  /** The engine's objects cannot do without it: a runtime that leaves it unset is refused. */
  required: boolean;
}

/**
 * Plumbing keys the code reads by name, engine-independently (each must be text when a profile
 * declares it): `kind` (the model server object's kind), `routing` (which route templates and
 * endpoint rule apply), `image` (a flat runtime's image), `device` (an annotation and the
 * download's `${device}`), `served_model_name` (which name clients send), `api_prefix` (the
 * engine's own API path, for the direct endpoint), `serving_runtime_manifest` and `runtime_name`
 * (the shared serving runtime object).
 */
export const PLUMBING_READ_BY_CODE = [
  'kind',
  'routing',
  'image',
  'device',
  'served_model_name',
  'api_prefix',
  'serving_runtime_manifest',
  'runtime_name',
] as const;

const declarationText = (what: string) =>
  z
    .string({ invalid_type_error: `must be a string (${what})` })
    .min(1, `must not be empty (${what})`)
    .regex(SINGLE_LINE, `must be a single line (${what})`);

/** `plumbing.<key>` of a profile. */
export const plumbingDeclarationSchema = z
  .object({
    type: z.enum(PLUMBING_TYPES, {
      errorMap: () => ({
        message: `type must be one of ${PLUMBING_TYPES.join(', ')}`,
      }),
    }),
    description: declarationText('what the value is, in words').optional(),
    values: z.array(declarationText('an allowed value')).min(1).optional(),
    min: z.number().int('min must be a whole number').optional(),
    max: z.number().int('max must be a whole number').optional(),
    default: z
      .union([z.string(), z.number()], {
        errorMap: () => ({
          message: 'default must be a string or a number',
        }),
      })
      .optional(),
    required: z
      .boolean({ invalid_type_error: 'required must be true or false' })
      .default(false),
  })
  .strict()
  .superRefine((d, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (d.type === 'enum' && d.values === undefined)
      issue('type', 'type enum needs values: [the allowed values]');
    if (d.type !== 'enum' && d.values !== undefined)
      issue('values', `values applies to type enum only, not ${d.type}`);
    if (d.type !== 'integer' && (d.min !== undefined || d.max !== undefined))
      issue(
        d.min !== undefined ? 'min' : 'max',
        `min and max apply to type integer only, not ${d.type}`,
      );
    if (d.default !== undefined && d.required)
      issue(
        'required',
        'a key with a default is never missing: remove required or the default',
      );
  });

/** The keys of a plumbing declaration, for "did you mean" hints. */
export const PLUMBING_DECLARATION_KEYS = [
  'type',
  'description',
  'values',
  'min',
  'max',
  'default',
  'required',
];

/** `plumbing:` of a profile: key name -> declaration. */
export const plumbingSchema = z.record(
  z
    .string()
    .regex(
      /^[a-z][a-z0-9_]*$/,
      'plumbing key names are lowercase letters, digits and _ (they are template placeholders), e.g. port',
    ),
  plumbingDeclarationSchema,
  {
    required_error:
      'plumbing is required: the keys runtimes/<name>/values.yaml may set for this engine, e.g. { image: { type: string } }',
  },
);

const described = (key: string, d: PlumbingDeclaration) =>
  d.description ? `${key}, ${d.description}` : key;

/** An example value for messages: the default, or one the type suggests. */
function example(d: PlumbingDeclaration, fallback: string): string {
  return d.default !== undefined ? String(d.default) : fallback;
}

/**
 * What is wrong with a plumbing value for its declaration, as a sentence that names the key and
 * what to write (undefined: the value fits).
 */
export function plumbingValueProblem(
  key: string,
  d: PlumbingDeclaration,
  value: unknown,
): string | undefined {
  if (d.type === 'integer') {
    const range = `${d.min ?? '-∞'} to ${d.max ?? '∞'}`;
    if (typeof value !== 'number' || !Number.isInteger(value))
      return `${key} must be a whole number (${described(
        key,
        d,
      )}), written without quotes, e.g. ${example(d, '8080')}`;
    if (
      (d.min !== undefined && value < d.min) ||
      (d.max !== undefined && value > d.max)
    )
      return `${key} must be from ${range}; it is ${value}`;
    return undefined;
  }
  if (typeof value !== 'string')
    return `must be a string (${described(
      key,
      d,
    )}); quote it if YAML read it as a number or boolean`;
  if (value.length === 0) return `must not be empty (${described(key, d)})`;
  if (value.length > MAX_TEXT)
    return `is longer than ${MAX_TEXT} characters (${key})`;
  if (!SINGLE_LINE.test(value))
    return `must be a single line without control characters (${described(
      key,
      d,
    )})`;
  switch (d.type) {
    case 'enum':
      return d.values!.includes(value)
        ? undefined
        : `${key} must be one of ${d.values!.join(', ')}${
            d.description ? ` (${d.description})` : ''
          }`;
    case 'quantity':
      return QUANTITY.test(value)
        ? undefined
        : `${key} must be a Kubernetes quantity such as ${example(d, '100Gi')}`;
    case 'dns_label':
      return isDns1123Label(value)
        ? undefined
        : `${key} must be a DNS-1123 label (lowercase letters, digits and -), e.g. ${example(
            d,
            'default',
          )}`;
    case 'kind':
      return /^[A-Z][A-Za-z0-9]*$/.test(value)
        ? undefined
        : `${key} must be a Kubernetes kind such as InferenceService`;
    case 'url_path':
      return /^\/[\w./-]*$/.test(value)
        ? undefined
        : `${key} must be a URL path starting with /, e.g. ${example(
            d,
            '/v1',
          )}`;
    default:
      return undefined;
  }
}
