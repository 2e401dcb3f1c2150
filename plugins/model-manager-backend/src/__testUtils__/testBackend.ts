import {
  startModelManager as startWithPlugin,
  type StartModelManagerOptions as HarnessOptions,
} from '@model-manager/test-harness';
import { modelManagerPlugin } from '../plugin';

// This plugin's own tests: the harness (`@model-manager/test-harness`, dev only) with this
// package's plugin, and the jest hooks around it.
export { REPO_ROOT } from '@model-manager/test-harness';

export type StartModelManagerOptions = Omit<HarnessOptions, 'plugin'>;

/** `startModelManager` of the harness with this package's plugin. */
export function startModelManager(options: StartModelManagerOptions = {}) {
  return startWithPlugin({ plugin: modelManagerPlugin, ...options });
}

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
