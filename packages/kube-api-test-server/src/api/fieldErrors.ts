/**
 * Field errors as k8s.io/apimachinery/pkg/util/validation/field formats them.
 */
import { JsonValue, goSyntax } from '../util/json';

export type FieldErrorType =
  | 'Required'
  | 'Invalid'
  | 'TypeInvalid'
  | 'NotSupported'
  | 'Forbidden'
  | 'TooLong'
  | 'TooMany'
  | 'Duplicate'
  | 'Internal'
  | 'NotFound';

export interface FieldError {
  type: FieldErrorType;
  /** The field path, e.g. `spec.scaling` or `metadata.name`. */
  field: string;
  value?: JsonValue;
  /** Printed verbatim instead of `value` (e.g. Go's `0x0` for an unsigned zero). */
  rawValue?: string;
  detail?: string;
}

const REASONS: Record<FieldErrorType, string> = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  TypeInvalid: 'FieldValueTypeInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  Duplicate: 'FieldValueDuplicate',
  Internal: 'InternalError',
  NotFound: 'FieldValueNotFound',
};

const TITLES: Record<FieldErrorType, string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  TypeInvalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Forbidden: 'Forbidden',
  TooLong: 'Too long',
  TooMany: 'Too many',
  Duplicate: 'Duplicate value',
  Internal: 'Internal error',
  NotFound: 'Not found',
};

const VALUE_OMITTED: FieldErrorType[] = [
  'Required',
  'Forbidden',
  'TooLong',
  'Internal',
];

export function fieldErrorReason(e: FieldError): string {
  return REASONS[e.type];
}

function formatValue(e: FieldError): string {
  if (e.rawValue !== undefined) return e.rawValue;
  const v = e.value;
  // Go prints a nil value as the string "null", quoted.
  if (v === undefined || v === null) return '"null"';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return goSyntax(v);
}

/** The message without the field prefix (`StatusCause.message`). */
export function fieldErrorBody(e: FieldError): string {
  let s = TITLES[e.type];
  if (!VALUE_OMITTED.includes(e.type)) s = `${s}: ${formatValue(e)}`;
  if (e.detail) s = `${s}: ${e.detail}`;
  return s;
}

export function fieldErrorString(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

export const fieldErrors = {
  required(field: string, detail?: string): FieldError {
    return { type: 'Required', field, detail };
  },
  invalid(field: string, value: JsonValue, detail?: string): FieldError {
    return { type: 'Invalid', field, value, detail };
  },
  typeInvalid(field: string, value: JsonValue, detail?: string): FieldError {
    return { type: 'TypeInvalid', field, value, detail };
  },
  notSupported(field: string, value: JsonValue, valid: string[]): FieldError {
    const detail =
      valid.length > 0
        ? `supported values: ${valid.map(v => JSON.stringify(v)).join(', ')}`
        : undefined;
    return { type: 'NotSupported', field, value, detail };
  },
  forbidden(field: string, detail: string): FieldError {
    return { type: 'Forbidden', field, detail };
  },
  tooLong(field: string, max: number): FieldError {
    return {
      type: 'TooLong',
      field,
      detail: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`,
    };
  },
  tooMany(field: string, actual: number, max: number): FieldError {
    return {
      type: 'TooMany',
      field,
      value: actual,
      detail: `must have at most ${max} items`,
    };
  },
};
