import { PLACEHOLDER } from './parseTemplate';
import type { ParsedTemplate, TemplateContext, TemplateValue } from './types';

const WHOLE = /^\$\{([^}]*)\}$/;

type Filler = (context: TemplateContext) => TemplateValue;

const compiled = new WeakMap<ParsedTemplate, Filler>();

/**
 * Fills a parsed template structurally: the template is already a tree, values are placed into it
 * as data, so no value can add YAML structure. A scalar that is exactly `${name}` takes the value
 * with its own type (string, number, list, map); `undefined` removes the key or list item. A
 * placeholder inside a longer string is interpolated as text and must be a string or number.
 * Templates are compiled once into a tree of fillers; parts without placeholders are copied.
 */
export function fillTemplate(
  template: ParsedTemplate,
  context: TemplateContext,
): Record<string, unknown> {
  let filler = compiled.get(template);
  if (!filler) {
    filler = compile(template.tree, template.file);
    compiled.set(template, filler);
  }
  return filler(context) as Record<string, unknown>;
}

function hasPlaceholder(node: unknown): boolean {
  if (typeof node === 'string') return node.includes('${');
  if (Array.isArray(node)) return node.some(hasPlaceholder);
  if (node !== null && typeof node === 'object')
    return Object.values(node).some(hasPlaceholder);
  return false;
}

function compile(node: unknown, file: string): Filler {
  if (!hasPlaceholder(node)) {
    const constant = node as TemplateValue;
    return () => copy(constant);
  }
  if (typeof node === 'string') {
    const whole = WHOLE.exec(node);
    if (whole) {
      const name = whole[1];
      return context => copy(lookup(context, name, file));
    }
    return context =>
      node.replace(PLACEHOLDER, (_m, name: string) => {
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
    const items = node.map(item => compile(item, file));
    return context => {
      const out: TemplateValue[] = [];
      for (const item of items) {
        const value = item(context);
        if (value !== undefined) out.push(value);
      }
      return out;
    };
  }
  const entries = Object.entries(node as Record<string, unknown>).map(
    ([key, value]) => [key, compile(value, file)] as const,
  );
  return context => {
    const out: { [key: string]: TemplateValue } = {};
    for (const [key, fill] of entries) {
      const value = fill(context);
      if (value !== undefined) out[key] = value;
    }
    return out;
  };
}

function lookup(
  context: TemplateContext,
  name: string,
  file: string,
): TemplateValue {
  if (!Object.prototype.hasOwnProperty.call(context, name)) {
    // parseTemplate rejects unknown names at load time; reaching this is a renderer bug.
    throw new Error(`${file}: placeholder \${${name}} has no value`);
  }
  return context[name];
}

/**
 * Deep copy of template data (plain objects, arrays, scalars): every use gets fresh objects, so
 * output never shares structure (no YAML anchors) — and cheaper than structuredClone.
 */
export function copy(value: TemplateValue): TemplateValue {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: TemplateValue } = {};
    for (const key of Object.keys(value)) out[key] = copy(value[key]);
    return out;
  }
  return value;
}
