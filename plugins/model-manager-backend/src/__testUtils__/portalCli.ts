import { mockCredentials } from '@backstage/backend-test-utils';
import { runCli } from '@model-manager/cli';

const ALICE_TOKEN = mockCredentials.user.token('user:default/alice');

/**
 * The model-manager CLI as a user runs it against the portal at `portal()`, as Alice: its exit
 * code and what it printed. `env` adds to (or overrides) the portal and token variables.
 */
export function portalCli(portal: () => string) {
  return async (args: string[], env: Record<string, string> = {}) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: t => (stdout += t),
      stderr: t => (stderr += t),
      cwd: process.cwd(),
      env: {
        MODEL_MANAGER_PORTAL: portal(),
        MODEL_MANAGER_TOKEN: ALICE_TOKEN,
        ...env,
      },
    });
    return { code, stdout, stderr };
  };
}
