import {
  ScaffolderFieldExtensions,
  useCustomFieldExtensions,
  type FieldExtensionOptions,
} from '@backstage/plugin-scaffolder-react';
import { renderHook } from '@testing-library/react';
import { TestApiProvider } from '@backstage/test-utils';
import { featureFlagsApiRef } from '@backstage/core-plugin-api';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import * as legacy from './index';
import { envEditorValidation } from './components/fields/EnvEditor';
import { argsEditorValidation } from './components/fields/ArgsEditor';
import { clusterPickerValidation } from './components/fields/ClusterPicker';
import { pullRequestCheckValidation } from './components/fields/PullRequestCheck';

const TEMPLATES = path.resolve(__dirname, '../../../scaffolder-templates');

/** Every `ui:field` the shipped templates use, with the template that uses it. */
function uiFields(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const walk = (node: unknown, template: string) => {
    if (Array.isArray(node)) node.forEach(n => walk(n, template));
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        if (k === 'ui:field' && typeof v === 'string')
          found.push([v, template]);
        walk(v, template);
      }
  };
  for (const dir of fs.readdirSync(TEMPLATES)) {
    const file = path.join(TEMPLATES, dir, 'template.yaml');
    if (fs.existsSync(file)) walk(parse(fs.readFileSync(file, 'utf8')), dir);
  }
  return found;
}

/** The field extensions a legacy app collects from `<ScaffolderFieldExtensions>` with all of ours. */
function collected(): FieldExtensionOptions[] {
  const extensions = Object.entries(legacy)
    .filter(([name]) => name.endsWith('FieldExtension'))
    .map(([name, Extension]: [string, any]) => <Extension key={name} />);
  const { result } = renderHook(
    () =>
      useCustomFieldExtensions(
        <ScaffolderFieldExtensions>{extensions}</ScaffolderFieldExtensions>,
      ),
    {
      wrapper: ({ children }) => (
        <TestApiProvider
          apis={[[featureFlagsApiRef, { isActive: () => false } as any]]}
        >
          {children}
        </TestApiProvider>
      ),
    },
  );
  return result.current;
}

describe('the form fields for a legacy-frontend app', () => {
  const byName = new Map(collected().map(e => [e.name, e]));

  // Stock Backstage fields (EntityPicker, RepoUrlPicker) come with the scaffolder itself.
  const ours = uiFields().filter(([name]) => name.startsWith('Model'));

  it('the shipped templates use our fields', () => {
    expect(ours.length).toBeGreaterThan(0);
  });

  it.each(ours)(
    '%s (template %s) is collected by <ScaffolderFieldExtensions>',
    name => {
      const extension = byName.get(name);
      expect(extension).toBeDefined();
      expect(typeof extension!.component).toBe('function');
    },
  );

  it.each([
    ['ModelEnvEditor', envEditorValidation],
    ['ModelArgsEditor', argsEditorValidation],
    ['ModelClusterPicker', clusterPickerValidation],
    ['ModelPullRequestCheck', pullRequestCheckValidation],
  ])('%s validates as in the new frontend system', (name, validation) => {
    expect(byName.get(name)?.validation).toBe(validation);
  });
});
