/**
 * The "unique id" warnings material-table logs while `renderAndWait` runs: it checks row ids only in
 * development builds, so NODE_ENV is `development` meanwhile.
 */
export async function uniqueIdWarnings(
  renderAndWait: () => Promise<unknown>,
): Promise<unknown[][]> {
  const env = process.env.NODE_ENV;
  const warn = jest.spyOn(console, 'warn');
  try {
    (process.env as any).NODE_ENV = 'development';
    await renderAndWait();
    return warn.mock.calls.filter(c => String(c[0]).includes('unique id'));
  } finally {
    (process.env as any).NODE_ENV = env;
    warn.mockRestore();
  }
}
