import fs from 'node:fs';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import yaml from 'yaml';
import {
  labelValueProblem,
  namespaceProblem,
} from '@model-manager/plugin-model-manager-common';
import {
  createDeployModelAction,
  createRenderModelAction,
  createRolloutAction,
  createUndeployModelAction,
} from './actions';

/**
 * The templates the portal registers (scaffolder-templates/*) against the actions they call: each file is
 * valid YAML (an unquoted `: ` in a title makes the catalog drop the whole template), each step's
 * inputs are inputs of its action, and each `parameters.x` it reads is a declared parameter.
 */
const TEMPLATES_DIR = path.resolve(__dirname, '../../../scaffolder-templates');
const deps = {
  discovery: mockServices.discovery.mock(),
  auth: mockServices.auth(),
};
const actions = Object.fromEntries(
  [
    createDeployModelAction(deps),
    createUndeployModelAction(deps),
    createRolloutAction(deps),
    createRenderModelAction(deps),
  ].map(a => [a.id, a]),
);
const templates = fs
  .readdirSync(TEMPLATES_DIR)
  .map(name => path.join(TEMPLATES_DIR, name, 'template.yaml'))
  .filter(file => fs.existsSync(file));

describe.each(
  templates.map(file => [path.relative(TEMPLATES_DIR, file), file] as const),
)('%s', (_name, file) => {
  const text = fs.readFileSync(file, 'utf8');

  it('is a valid scaffolder Template', () => {
    const doc = yaml.parseDocument(text, { prettyErrors: true });
    expect(doc.errors.map(e => e.message)).toEqual([]);
    expect(doc.toJS()).toMatchObject({
      apiVersion: 'scaffolder.backstage.io/v1beta3',
      kind: 'Template',
      spec: { steps: expect.any(Array) },
    });
  });

  it('shows placeholders such as <cluster> in its texts (outside code spans the markdown renderer drops them as HTML tags)', () => {
    const template = yaml.parse(text);
    const texts: Array<{ at: string; text: string }> = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}[${i}]`));
      else if (node && typeof node === 'object')
        for (const [k, v] of Object.entries(node)) {
          if (
            (k === 'description' || k === 'ui:description') &&
            typeof v === 'string'
          )
            texts.push({ at: `${at}.${k}`, text: v });
          else walk(v, `${at}.${k}`);
        }
    };
    walk(template, 'template');
    const bare = texts.filter(t =>
      /<[a-z][^>]*>/.test(t.text.replace(/`[^`]*`/g, '')),
    );
    expect(bare).toEqual([]);
  });

  it('gives each step only inputs its action declares, and every required one', () => {
    const template = yaml.parse(text);
    for (const step of template.spec.steps) {
      const action = actions[step.action];
      if (!action) continue; // a stock action
      const schema = action.schema?.input as {
        properties: Record<string, unknown>;
        required?: string[];
      };
      expect({
        step: step.id,
        unknown: Object.keys(step.input ?? {}).filter(
          k => !(k in schema.properties),
        ),
      }).toEqual({ step: step.id, unknown: [] });
      expect({
        step: step.id,
        missing: (schema.required ?? []).filter(
          k => !(k in (step.input ?? {})),
        ),
      }).toEqual({ step: step.id, missing: [] });
    }
  });

  it('reads only parameters it declares', () => {
    const template = yaml.parse(text);
    const declared = new Set(
      (
        template.spec.parameters as Array<{
          properties?: Record<string, unknown>;
        }>
      ).flatMap(p => Object.keys(p.properties ?? {})),
    );
    const used = [
      ...text.matchAll(/parameters\.([A-Za-z_][A-Za-z0-9_]*)/g),
    ].map(m => m[1]);
    expect(used.filter(p => !declared.has(p))).toEqual([]);
  });
});

// The form's JSON-schema patterns are the one place the rules cannot be called as functions: each
// must accept exactly what the common package's rule accepts (namespaceProblem: IsDNS1123Label;
// labelValueProblem: a server version becomes a label value).
const SAMPLES = [
  'models',
  'team-a',
  '0.24.0',
  '0.24.0-rc1',
  'a_x',
  'Models',
  'team_a',
  'ns-',
  '-rc1',
  '_x',
  'ns.sub',
  'a b',
  '0.11.0+cpu',
  'n'.repeat(63),
  'n'.repeat(64),
];
const RULES: Record<string, (v: string) => boolean> = {
  namespace: v => namespaceProblem(v) === undefined,
  serverVersion: v => v !== '' && labelValueProblem(v) === undefined,
  version: v => v !== '' && labelValueProblem(v) === undefined,
};

describe.each(
  templates.map(file => [path.relative(TEMPLATES_DIR, file), file] as const),
)('%s form fields follow the common rules', (_name, file) => {
  const fields = (
    yaml.parse(fs.readFileSync(file, 'utf8')).spec.parameters as Array<{
      properties?: Record<string, { pattern?: string; maxLength?: number }>;
    }>
  ).flatMap(p => Object.entries(p.properties ?? {}));
  const checked = fields.filter(([key, f]) => key in RULES && f.pattern);
  it.each(checked)('%s', (key, field) => {
    for (const value of SAMPLES) {
      const form =
        new RegExp(field.pattern!).test(value) &&
        value.length <= (field.maxLength ?? Infinity);
      expect({ value, form }).toEqual({ value, form: RULES[key](value) });
    }
  });
});

it('finds the templates', () => {
  expect(templates.map(f => path.basename(path.dirname(f))).sort()).toEqual([
    'deploy-model',
    'propose-model-deployment',
    'rollout-runtime-version',
  ]);
});
