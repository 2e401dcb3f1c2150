import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  ReviewState,
  type ReviewStateProps,
} from '@backstage/plugin-scaffolder-react/alpha';
import { renderInTestApp } from '@backstage/test-utils';

/** The scaffolder template `name` (its folder under scaffolder-templates/), as the catalog serves it. */
export function loadTemplate(name: string): any {
  return parse(
    readFileSync(
      path.resolve(
        __dirname,
        `../../../../scaffolder-templates/${name}/template.yaml`,
      ),
      'utf8',
    ),
  );
}

/** Renders the Review step of a template whose steps (`spec.parameters`) are `steps`, for `formState`. */
export function renderReviewStep(
  steps: any[],
  formState: ReviewStateProps['formState'],
) {
  return renderInTestApp(
    <ReviewState
      schemas={steps.map(step => ({
        title: step.title,
        schema: step,
        uiSchema: {},
        mergedSchema: step,
      }))}
      formState={formState}
    />,
  );
}
