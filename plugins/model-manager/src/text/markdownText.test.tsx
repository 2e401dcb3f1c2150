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
    // Markup the first version let through: a level-2 heading, a thematic break, a heading's
    // underline, a star list, an entity, a table.
    '## not a heading either',
    'not a heading\n---\nnor this\n===\n* * *\n___\n* nor a list',
    '&lt;key&gt; and &#60; stay as written',
    'a | b\n--|--\nc | d',
    // A pair that straddles a URL.
    'one *star https://example.com/a and another* star',
  ];

  /** What needs no backslash: the page's plain-text views (the expanded error, its copy button) show the message as it is. */
  const plain = [
    'preflight refused the deploy to dev/ml/llama, nothing was applied: Secrets: secret hf-token not found in namespace ml (fix: kubectl -n ml create secret generic hf-token --from-literal=token=...)',
    'HF_TOKEN and VLLM_CPU_KVCACHE_SPACE are set by the runtime',
    'cpu 8 < 16 requested, and a lone * or _ or ` or ~ or [ is text',
    'R&D owns it; C:\\path\\file stays',
    'a dash - inside a line, 1. a number inside a line, # a hash inside a line',
    'see https://github.com/backstage/backstage/blob/master/x_y_.md',
  ];

  /** Renders the task page's error panel with `title` (Markdown), as the scaffolder does. */
  function showPanel(title: string) {
    return renderInTestApp(
      <ErrorPanel
        error={new Error('x')}
        titleFormat="markdown"
        title={title}
      />,
    );
  }

  /** The panel's title as shown: its summary, after the severity; a link's screen-reader note left out. */
  async function shownTitle() {
    // The panel's summary holds the title (its details hold the error's name, message and stack).
    const [summary] = screen.getAllByRole('button');
    return summary
      .textContent!.replace(/^Error: /, '')
      .replace(/, Opens in a new window/g, '');
  }

  it('without it, the page would drop the placeholders of a fix (the defect it prevents)', async () => {
    await showPanel(messages[0]);
    expect(await shownTitle()).toBe(
      'fix: kubectl -n default create secret generic hf-token --from-literal==',
    );
  });

  it.each(plain)('%j needs no backslash', async message => {
    expect(markdownText(message)).toBe(message);
    await showPanel(markdownText(message));
    expect(await shownTitle()).toBe(message);
  });

  it.each(messages)('%j shows as written', async message => {
    await showPanel(markdownText(message));
    expect(await shownTitle()).toBe(message);
    // A URL stays a link.
    for (const url of message.match(/https:\/\/\S+/g) ?? [])
      expect(screen.getByRole('link')).toHaveAttribute('href', url);
  });
});
