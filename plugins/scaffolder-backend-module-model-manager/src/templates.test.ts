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
  createRolloutBatchesAction,
  createRolloutCanaryAction,
  createRolloutPlanAction,
  createRolloutSummaryAction,
  createRolloutWaitCanaryAction,
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
    createRolloutPlanAction(deps),
    createRolloutCanaryAction(deps),
    createRolloutWaitCanaryAction(deps),
    createRolloutBatchesAction(deps),
    createRolloutSummaryAction(deps),
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

  it("reads only outputs that an earlier step's action declares (a later or unknown step renders as nothing)", () => {
    const template = yaml.parse(text);
    const steps: Array<{ id: string; action: string; input?: unknown }> =
      template.spec.steps;
    const reads = (node: unknown) =>
      [
        ...JSON.stringify(node ?? {}).matchAll(
          /steps\.([A-Za-z_][A-Za-z0-9_]*)\.output\.([A-Za-z_][A-Za-z0-9_]*)/g,
        ),
      ].map(m => ({ step: m[1], output: m[2] }));
    const problems: string[] = [];
    const check = (at: string, before: typeof steps, node: unknown) => {
      for (const { step, output } of reads(node)) {
        const source = before.find(s => s.id === step);
        if (!source)
          problems.push(`${at} reads steps.${step}, not an earlier step`);
        else if (
          actions[source.action] &&
          !(
            output in
            (
              actions[source.action].schema?.output as {
                properties: Record<string, unknown>;
              }
            ).properties
          )
        )
          problems.push(
            `${at} reads ${output}, not an output of ${source.action}`,
          );
      }
    };
    steps.forEach((step, i) =>
      check(`step ${step.id}`, steps.slice(0, i), step.input),
    );
    check('output', steps, template.spec.output);
    expect(problems).toEqual([]);
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

// The rollout in steps (issue 26): the task page shows one entry per step, so the phases are steps
// of their own; a dry run runs only the plan, and each phase after it is skipped on a dry run.
it('rollout-runtime-version: plan, canary, the canary Ready wait, the rest and the summary, one step each; only the plan on a dry run', () => {
  const template = yaml.parse(
    fs.readFileSync(
      path.join(TEMPLATES_DIR, 'rollout-runtime-version/template.yaml'),
      'utf8',
    ),
  );
  expect(
    template.spec.steps.map(
      (s: { id: string; action: string; if?: string }) => [
        s.id,
        s.action,
        s.if ?? 'always',
      ],
    ),
  ).toEqual([
    ['plan', 'model-manager:rollout:plan', 'always'],
    ['canary', 'model-manager:rollout:canary', '${{ not parameters.dryRun }}'],
    [
      'canaryReady',
      'model-manager:rollout:wait-canary',
      '${{ not parameters.dryRun }}',
    ],
    ['rest', 'model-manager:rollout:batches', '${{ not parameters.dryRun }}'],
    [
      'summary',
      'model-manager:rollout:summary',
      '${{ not parameters.dryRun }}',
    ],
  ]);
  // The phases hand the plan on: the canary targets to the canary, the rest to the batches, the
  // canary's applied targets to the wait, every moved target to the summary.
  const input = (id: string) =>
    template.spec.steps.find((s: { id: string }) => s.id === id).input;
  expect(input('canary').moves).toBe('${{ steps.plan.output.canary }}');
  expect(input('canaryReady').applied).toBe(
    '${{ steps.canary.output.applied }}',
  );
  expect(input('rest').moves).toBe('${{ steps.plan.output.rest }}');
  expect(input('summary').moved).toEqual([
    '${{ steps.canary.output.moved }}',
    '${{ steps.rest.output.moved }}',
  ]);
  // Every form field reaches the step that uses it.
  const wired = new Set(
    [...JSON.stringify(template.spec.steps).matchAll(/parameters\.(\w+)/g)].map(
      m => m[1],
    ),
  );
  const fields = template.spec.parameters.flatMap(
    (p: { properties: Record<string, unknown> }) => Object.keys(p.properties),
  );
  expect(fields.filter((f: string) => !wired.has(f))).toEqual([]);
});
