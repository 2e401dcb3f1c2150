import { modelManagerContract } from '@model-manager/plugin-model-manager-common';
import { createRouter } from './createRouter';
import type { RouterOptions } from './types';

describe('createRouter', () => {
  it('serves exactly the routes of the contract', async () => {
    // Only the route table is read: no request reaches these.
    const router = await createRouter({} as RouterOptions);
    const served = router.stack
      .filter(layer => layer.route)
      .flatMap(layer =>
        Object.keys((layer.route as any).methods).map(
          m => `${m.toUpperCase()} ${layer.route!.path}`,
        ),
      )
      .sort();
    // Event streams are served beside it, when the watch cache is on (fleetEventsRouter).
    const contract = Object.values(modelManagerContract)
      .filter(r => !('events' in r))
      .map(r => `${r.method} ${r.path}`)
      .sort();
    expect(served).toEqual(contract);
  });
});
