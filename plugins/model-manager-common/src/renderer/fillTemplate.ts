import { PLACEHOLDER } from './parseTemplate';
import type { ParsedTemplate, TemplateContext, TemplateValue } from './types';

const WHOLE = /^\$\{([^}]*)\}$/;

type Filler = (context: TemplateContext) => TemplateValue;

const compiled = new WeakMap<ParsedTemplate, Filler>();

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
 * `<<: ${name}` in a mapping: the keys of the map `name` holds, then the mapping's own keys, which
 * win (YAML 1.1's merge key, https://yaml.org/type/merge.html, over a placeholder): e.g. an
 * object's `${annotations}` plus one of its own. Templates are read as YAML 1.2, where `<<` is an
 * ordinary key; the rendered object never has it.
 */
const MERGE_KEY = '<<';

function compileMerge(
  node: unknown,
  file: string,
): (context: TemplateContext) => { [key: string]: TemplateValue } {
  const whole = typeof node === 'string' ? WHOLE.exec(node) : null;
  if (!whole)
    throw new Error(
      `${file}: <<: takes a whole placeholder of a map, e.g. <<: \${annotations}`,
    );
  const name = whole[1];
  return context => {
    const value = lookup(context, name, file);
    if (value === undefined) return {};
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new Error(
        `${file}: <<: \${${name}} merges a map, but its value is ${
          Array.isArray(value) ? 'a list' : typeof value
        }`,
      );
    return copy(value) as { [key: string]: TemplateValue };
  };
}

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
  const entries = Object.entries(node as Record<string, unknown>)
    .filter(([key]) => key !== MERGE_KEY)
    .map(([key, value]) => [key, compile(value, file)] as const);
  const merged = Object.prototype.hasOwnProperty.call(node, MERGE_KEY)
    ? compileMerge((node as Record<string, unknown>)[MERGE_KEY], file)
    : undefined;
  return context => {
    const out: { [key: string]: TemplateValue } = merged ? merged(context) : {};
    for (const [key, fill] of entries) {
      const value = fill(context);
      if (value !== undefined) out[key] = value;
    }
    return out;
  };
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
