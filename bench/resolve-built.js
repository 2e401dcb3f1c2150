/*
 * Preload (`node -r ./bench/resolve-built.js`) for measuring the backend as it runs in production:
 * our workspace packages resolve to their built `publishConfig.main` (dist/index.cjs.js), as in a
 * packed production bundle, instead of their TypeScript sources. Build them first with
 * `npx backstage-cli repo build`.
 */
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const original = Module._resolveFilename;
const cache = new Map();
Module._resolveFilename = function resolveBuilt(request, parent, ...rest) {
  if (/^@model-manager\/[a-z-]+$/.test(request)) {
    let target = cache.get(request);
    if (!target) {
      const manifest = original.call(
        this,
        `${request}/package.json`,
        parent,
        ...rest,
      );
      const { publishConfig } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      if (!publishConfig?.main)
        throw new Error(`${request} has no publishConfig.main`);
      target = path.join(path.dirname(manifest), publishConfig.main);
      if (!fs.existsSync(target))
        throw new Error(
          `${target} is missing: run npx backstage-cli repo build`,
        );
      cache.set(request, target);
    }
    return target;
  }
  return original.call(this, request, parent, ...rest);
};
