import { PLACEHOLDER } from './parseTemplate';
import type { ParsedTemplate, TemplateContext, TemplateValue } from './types';

const WHOLE = /^\$\{([^}]*)\}$/;

/**
 * Fills a parsed template structurally: the template is already a tree, values are placed into it
 * as data, so no value can add YAML structure. A scalar that is exactly `${name}` takes the value
 * with its own type (string, number, list, map); `undefined` removes the key or list item. A
 * placeholder inside a longer string is interpolated as text and must be a string or number.
 */
export function fillTemplate(
  template: ParsedTemplate,
  context: TemplateContext,
): Record<string, unknown> {
  return fill(template.tree, context, template.file) as Record<string, unknown>;
}

function fill(node: unknown, context: TemplateContext, file: string): TemplateValue {
  if (typeof node === 'string') {
    const whole = WHOLE.exec(node);
    if (whole) return lookup(context, whole[1], file);
    if (!node.includes('${')) return node;
    return node.replace(PLACEHOLDER, (_m, name: string) => {
      const value = lookup(context, name, file);
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw new Error(
          `${file}: \${${name}} is used inside a string but its value is ${
            value === undefined ? 'absent' : typeof value
          }; use it as a whole value instead`,
        );
      }
      return String(value);
    });
  }
  if (Array.isArray(node)) {
    const out: TemplateValue[] = [];
    for (const item of node) {
      const value = fill(item, context, file);
      if (value !== undefined) out.push(value);
    }
    return out;
  }
  if (node !== null && typeof node === 'object') {
    const out: { [key: string]: TemplateValue } = {};
    for (const [key, item] of Object.entries(node)) {
      const value = fill(item, context, file);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return node as TemplateValue;
}

function lookup(context: TemplateContext, name: string, file: string): TemplateValue {
  if (!Object.prototype.hasOwnProperty.call(context, name)) {
    // parseTemplate rejects unknown names at load time; reaching this is a renderer bug.
    throw new Error(`${file}: placeholder \${${name}} has no value`);
  }
  // A fresh copy per use: objects in the output never share structure (no YAML anchors).
  return copy(context[name]);
}

/** Deep copy of template data (plain objects, arrays, scalars): cheaper than structuredClone. */
function copy(value: TemplateValue): TemplateValue {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: TemplateValue } = {};
    for (const key of Object.keys(value)) out[key] = copy(value[key]);
    return out;
  }
  return value;
}
