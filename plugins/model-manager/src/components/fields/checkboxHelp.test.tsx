import { renderInTestApp } from '@backstage/test-utils';
import {
  extractSchemaFromStep,
  Form,
} from '@backstage/plugin-scaffolder-react/alpha';
import validator from '@rjsf/validator-ajv8';
import { screen } from '@testing-library/react';
import { loadTemplate } from '../../__testUtils__';

/** Every checkbox of the templates' steps, with its step. */
const checkboxes = ['deploy-model', 'rollout-runtime-version'].flatMap(name =>
  (loadTemplate(name).spec.parameters as any[]).flatMap(step =>
    Object.entries(step.properties ?? {})
      .filter(([, p]: [string, any]) => p.type === 'boolean')
      .map(([key, p]: [string, any]) => ({
        template: name,
        key,
        title: p.title as string,
        step,
      })),
  ),
);

describe("the templates' checkboxes", () => {
  it('are all found', () => {
    expect(checkboxes.length).toBeGreaterThanOrEqual(6);
  });

  it.each(checkboxes.map(c => [`${c.template}: ${c.title}`, c] as const))(
    '%s: what it does is said below the checkbox, not above it',
    async (_name, { step, title }) => {
      const { schema, uiSchema } = extractSchemaFromStep(step);
      await renderInTestApp(
        <Form schema={schema} uiSchema={uiSchema} validator={validator} />,
      );
      const box = screen.getByRole('checkbox', { name: title });
      const help = document.getElementById(`${box.id}__help`);
      expect(help).not.toBeNull();
      expect(help!.textContent!.length).toBeGreaterThan(20);
      // The rjsf Material UI theme puts a checkbox's `description` above it; `ui:help` follows it.
      expect(
        box.compareDocumentPosition(help!) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      expect(document.getElementById(`${box.id}__description`)).toBeNull();
      // rjsf names the help among the checkbox's descriptions (MUI puts the attribute on its root).
      expect(
        box.closest('[aria-describedby]')?.getAttribute('aria-describedby'),
      ).toContain(`${box.id}__help`);
    },
  );
});
