/*
 * The portal backend of packages/backend/src/index.ts, with the model-manager plugins only when
 * WITH_MODEL_MANAGER is set (for bench/backend-memory.js). Config from APP_CONFIG_FILES.
 */
const { createBackend } = require('@backstage/backend-defaults');

process.argv.push(
  ...(process.env.APP_CONFIG_FILES ?? '')
    .split(',')
    .filter(Boolean)
    .flatMap(f => ['--config', f]),
);
const backend = createBackend();
backend.add(require('@backstage/plugin-app-backend'));
backend.add(require('@backstage/plugin-proxy-backend'));
backend.add(require('@backstage/plugin-auth-backend'));
backend.add(require('@backstage/plugin-auth-backend-module-guest-provider'));
backend.add(require('@backstage/plugin-catalog-backend'));
backend.add(
  require('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'),
);
backend.add(require('@backstage/plugin-catalog-backend-module-logs'));
backend.add(require('@backstage/plugin-permission-backend'));
backend.add(
  require('@backstage/plugin-permission-backend-module-allow-all-policy'),
);
backend.add(require('@backstage/plugin-scaffolder-backend'));
backend.add(require('@backstage/plugin-kubernetes-backend'));

if (process.env.WITH_MODEL_MANAGER) {
  if (process.env.WITH_MODEL_MANAGER !== 'no-entities')
    backend.add(
      require('@model-manager/plugin-catalog-backend-module-model-manager'),
    );
  backend.add(
    require('@model-manager/plugin-scaffolder-backend-module-model-manager'),
  );
  backend.add(require('@model-manager/plugin-model-manager-backend'));
}
backend.start();

// bench/backend-memory.js sends SIGUSR2 to take a reading after a full garbage collection.
if (global.gc) process.on('SIGUSR2', () => global.gc());
// BENCH_HEAP_LOG=<file>: append the process's memory figures to <file> every second.
if (process.env.BENCH_HEAP_LOG) {
  setInterval(() => {
    const m = process.memoryUsage();
    const mib = b => Math.round(b / 1048576);
    require('fs').appendFileSync(
      process.env.BENCH_HEAP_LOG,
      `heap ${JSON.stringify({
        rss: mib(m.rss),
        heapTotal: mib(m.heapTotal),
        heapUsed: mib(m.heapUsed),
        external: mib(m.external),
        arrayBuffers: mib(m.arrayBuffers),
      })}\n`,
    );
  }, 1000).unref();
}
