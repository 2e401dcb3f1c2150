/** Default users of the test server (mirroring the recorded reference cluster). */
import { UserSpec } from './types';

/** Bearer token of `admin` (group system:masters, may do anything and impersonate). */
export const ADMIN_TOKEN = 'admin-token';
/** Bearer token of `kserve-dev` (get/list/watch/patch serving.kserve.io objects in namespace `demo`). */
export const KSERVE_DEV_TOKEN = 'kserve-dev-token';

export const DEFAULT_USERS: Record<string, UserSpec> = {
  [ADMIN_TOKEN]: {
    name: 'admin',
    groups: ['system:masters'],
    rules: [{ namespaces: '*', verbs: '*', resources: '*', apiGroups: '*' }],
    canImpersonate: true,
  },
  [KSERVE_DEV_TOKEN]: {
    name: 'kserve-dev',
    rules: [
      {
        namespaces: ['demo'],
        verbs: ['get', 'list', 'watch', 'patch'],
        resources: '*',
        apiGroups: ['serving.kserve.io'],
      },
    ],
  },
};
