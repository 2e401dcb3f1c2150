import { ErrorPanel } from '@backstage/core-components';
import { markdownText } from '@model-manager/plugin-model-manager-common';
import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';

/**
 * The scaffolder's task page shows a failed task's error message as Markdown
 * (`<ErrorPanel titleFormat="markdown" title={error.message}>`, OngoingTask of
 * @backstage/plugin-scaffolder); the scaffolder module's actions send `markdownText(message)` so
 * the page shows the message as the backend wrote it. Rendered here by the same component.
 */
describe('markdownText, shown as the scaffolder shows a task error', () => {
  const messages = [
    // The preflight fix and the secret refusal: placeholders in angle brackets (HTML to Markdown).
    'fix: kubectl -n default create secret generic hf-token --from-literal=<key>=<value>',
    'reference it: --env-secret HF_TOKEN=<secret>/<key> (CLI), or env: { HF_TOKEN: { secretKeyRef: { name: <secret>, key: <key> } } }',
    '<request>: args[0]: arg must be a single line',
    // Emphasis, code, strikethrough and links that are not meant.
    'a *glob* and **bold**, `code`, ~~struck~~, ~one~ and [link](x) and [ref]',
    '_private_ and snake_case_name and __dunder__ and HF_TOKEN_',
    'a backslash \\ stays, and C:\\path\\_x too',
    // Block starts at a line's beginning.
    '# not a heading\n> not a quote\n- not a list\n+ nor this\n1. nor this\n2) nor this',
    'a URL stays a link: https://github.com/backstage/backstage/blob/master/x_y_.md',
  ];

  /** The panel's title as shown: its summary, after the severity; a link's screen-reader note left out. */
  async function shownTitle() {
    // The panel's summary holds the title (its details hold the error's name, message and stack).
    const [summary] = screen.getAllByRole('button');
    return summary
      .textContent!.replace(/^Error: /, '')
      .replace(/, Opens in a new window/g, '');
  }

  it('without it, the page would drop the placeholders of a fix (the defect it prevents)', async () => {
    await renderInTestApp(
      <ErrorPanel
        error={new Error('x')}
        titleFormat="markdown"
        title={messages[0]}
      />,
    );
    expect(await shownTitle()).toBe(
      'fix: kubectl -n default create secret generic hf-token --from-literal==',
    );
  });

  it.each(messages)('%j shows as written', async message => {
    await renderInTestApp(
      <ErrorPanel
        error={new Error('x')}
        titleFormat="markdown"
        title={markdownText(message)}
      />,
    );
    expect(await shownTitle()).toBe(message);
    // A URL stays a link.
    for (const url of message.match(/https:\/\/\S+/g) ?? [])
      expect(screen.getByRole('link')).toHaveAttribute('href', url);
  });
});
