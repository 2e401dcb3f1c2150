#!/usr/bin/env bash
# Runs the whole model-manager backend suite again against PostgreSQL (part of `npm test`).
# Needs BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING: `eval "$(scripts/start-postgres.sh)"`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING:-}" ]; then
  if [ -n "${CI:-}" ]; then
    echo "CI needs PostgreSQL: BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING is not set" >&2
    exit 1
  fi
  echo "Skipping the PostgreSQL pass of the backend suite: run eval \"\$(scripts/start-postgres.sh)\" first to include it."
  exit 0
fi
cd plugins/model-manager-backend
MODEL_MANAGER_TEST_DB=POSTGRES_15 npx backstage-cli package test --watchAll=false
