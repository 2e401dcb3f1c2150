import { expect, test as base, type ConsoleMessage } from '@playwright/test';

/**
 * Console noise that is not ours, each with why it is tolerated. Anything else logged as an error
 * (or an uncaught page error) fails the test, as do the warnings of `OUR_WARNINGS`.
 */
const THIRD_PARTY_NOISE: Array<{
  pattern: RegExp;
  /** Only from this URL, when given. */
  url?: RegExp;
  why: string;
}> = [
  {
    pattern:
      /Failed to load resource: the server responded with a status of 404/,
    why: 'the browser logs every 404 response; a missing page is asserted by the tests themselves',
  },
  {
    pattern:
      /Failed to load resource: the server responded with a status of 401/,
    why: 'Backstage probes the session (refresh) before the guest signs in',
  },
  {
    pattern:
      /Failed to load resource: the server responded with a status of 400/,
    url: /\/api\/model-manager\/models\/[^/]+\/resolved\?/,
    why: 'the Deploy model flags field asks the resolver whether the chosen model takes the typed flags; a refused flag is a 400 answer, said beside the row',
  },
];

/** Warnings that our code caused before (issue 15): they must not come back. */
const OUR_WARNINGS: RegExp[] = [
  /requires all rows to have an unique id/, // material-table rows without `id`
  /out-of-range value/, // MUI Select given a value it does not list (version picker)
  /AlertApi.*deprecated|deprecated.*AlertApi/i, // use toastApiRef
  // rjsf 5 (@rjsf/utils optionsList) on a template boolean with enumNames but no ui:enumNames
  /"enumNames" property in the schema is deprecated/,
];

export type ConsoleProblem = { type: string; text: string; where?: string };

function isProblem(type: string, text: string, url = ''): boolean {
  if (type === 'warning') return OUR_WARNINGS.some(p => p.test(text));
  if (type !== 'error') return false;
  return !THIRD_PARTY_NOISE.some(
    n => n.pattern.test(text) && (!n.url || n.url.test(url)),
  );
}

/**
 * `test` with an automatic fixture that collects console errors, page errors and our known
 * warnings during the test and fails it when there are any (the list is in the failure).
 */
export const test = base.extend<{ consoleProblems: ConsoleProblem[] }>({
  consoleProblems: [
    async ({ page }, use) => {
      const problems: ConsoleProblem[] = [];
      page.on('console', (msg: ConsoleMessage) => {
        const text = msg.text();
        const { url, lineNumber } = msg.location();
        if (isProblem(msg.type(), text, url)) {
          problems.push({
            type: msg.type(),
            text,
            where: url ? `${url}:${lineNumber}` : undefined,
          });
        }
      });
      page.on('pageerror', error => {
        problems.push({
          type: 'pageerror',
          text: `${error.name}: ${error.message}`,
        });
      });
      await use(problems);
      expect(problems, 'console errors and warnings from the portal').toEqual(
        [],
      );
    },
    { auto: true },
  ],
});

export { expect };
