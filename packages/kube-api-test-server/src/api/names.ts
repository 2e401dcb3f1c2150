/**
 * Name and label validation with the messages of
 * k8s.io/apimachinery/pkg/util/validation.
 */
import { FieldError, fieldErrors } from './fieldErrors';
import { JsonObject, isObject } from '../util/json';

function regexError(msg: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0)
    return `${msg} (regex used for validation is '${regex}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${regex}')`;
}

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const full = (re: string) => new RegExp(`^${re}$`);

export function isDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!full(DNS1123_SUBDOMAIN).test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  }
  return errs;
}

export function isDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!full(DNS1123_LABEL).test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL,
        'my-name',
        '123-abc',
      ),
    );
  }
  return errs;
}

export function isDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!full(DNS1035_LABEL).test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errs;
}

export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const [prefix, n] = parts;
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else
      for (const msg of isDns1123Subdomain(prefix))
        errs.push(`prefix part ${msg}`);
  } else {
    return [
      `${regexError(
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME,
        'MyName',
        'my.name',
        '123-abc',
      )} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63)
    errs.push('name part must be no more than 63 characters');
  if (!full(QUALIFIED_NAME).test(name)) {
    errs.push(
      regexError(
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME,
        'MyName',
        'my.name',
        '123-abc',
      ),
    );
  }
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!full(LABEL_VALUE).test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

export type NameRule = 'subdomain' | 'label' | 'dns1035';

const NAME_RULES: Record<NameRule, (v: string) => string[]> = {
  subdomain: isDns1123Subdomain,
  label: isDns1123Label,
  dns1035: isDns1035Label,
};

/** ObjectMeta validation for create and update (the subset this server enforces). */
export function validateObjectMeta(
  meta: JsonObject,
  opts: { namespaced: boolean; nameRule: NameRule },
): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (!name) {
    errs.push(
      fieldErrors.required('metadata.name', 'name or generateName is required'),
    );
  } else {
    for (const msg of NAME_RULES[opts.nameRule](name))
      errs.push(fieldErrors.invalid('metadata.name', name, msg));
  }
  if (opts.namespaced && !meta.namespace) {
    errs.push(fieldErrors.required('metadata.namespace'));
  }
  const labels = meta.labels;
  if (isObject(labels)) {
    for (const key of Object.keys(labels)) {
      for (const msg of isQualifiedName(key))
        errs.push(fieldErrors.invalid('metadata.labels', key, msg));
      const value = labels[key];
      if (typeof value === 'string') {
        for (const msg of isValidLabelValue(value))
          errs.push(fieldErrors.invalid('metadata.labels', value, msg));
      }
    }
  }
  const annotations = meta.annotations;
  if (isObject(annotations)) {
    let total = 0;
    for (const key of Object.keys(annotations)) {
      for (const msg of isQualifiedName(key.toLowerCase())) {
        errs.push(fieldErrors.invalid('metadata.annotations', key, msg));
      }
      const value = annotations[key];
      total += key.length + (typeof value === 'string' ? value.length : 0);
    }
    if (total > 256 * 1024) {
      errs.push({
        type: 'TooLong',
        field: 'metadata.annotations',
        detail: `may not be more than ${256 * 1024} bytes`,
      });
    }
  }
  return errs;
}
