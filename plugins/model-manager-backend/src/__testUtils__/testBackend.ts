import { startModelManager, type StartModelManagerOptions } from '../testUtils';

// The harness is exported as `@model-manager/plugin-model-manager-backend/testUtils` for the
// modules that call this plugin; these are the jest hooks this plugin's own tests use with it.
export { REPO_ROOT, startModelManager } from '../testUtils';

export type ModelManagerTestContext = Awaited<
  ReturnType<typeof startModelManager>
>;

/**
 * One backend (and API test server) for a describe block: started before its tests, stopped
 * after. The returned object is filled in by `beforeAll`.
 */
export function useModelManager(
  options: StartModelManagerOptions | (() => StartModelManagerOptions) = {},
): ModelManagerTestContext {
  const ctx = {} as ModelManagerTestContext;
  beforeAll(async () => {
    Object.assign(
      ctx,
      await startModelManager(
        typeof options === 'function' ? options() : options,
      ),
    );
  }, 120_000);
  afterAll(() => ctx.stop(), 120_000);
  return ctx;
}
