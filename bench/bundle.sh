#!/usr/bin/env bash
# Benchmark: the gzip size our frontend plugin adds to the app bundle. Builds packages/app with and
# without @model-manager/plugin-model-manager (discovered from its package.json) and compares.
set -euo pipefail
cd "$(dirname "$0")/.."
size() { find packages/app/dist/static -name '*.js' -print0 | xargs -0 cat | gzip -9 | wc -c; }
restore() { cp /tmp/mm-app-package.json packages/app/package.json; }
cp packages/app/package.json /tmp/mm-app-package.json
trap restore EXIT
(cd packages/app && npx backstage-cli package build >/dev/null 2>&1)
with=$(size)
node -e 'const f="packages/app/package.json";const p=JSON.parse(require("fs").readFileSync(f));delete p.dependencies["@model-manager/plugin-model-manager"];require("fs").writeFileSync(f,JSON.stringify(p,null,2))'
(cd packages/app && npx backstage-cli package build >/dev/null 2>&1)
without=$(size)
restore
(cd packages/app && npx backstage-cli package build >/dev/null 2>&1)
echo "app bundle (all JS, gzip -9): with model-manager $((with / 1024)) KiB, without $((without / 1024)) KiB, added by the plugin $(((with - without) / 1024)) KiB"
