#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on 127.0.0.1 for the test suites and prints the connection string.
# Usage: eval "$(scripts/start-postgres.sh)"   (exports BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING)
set -euo pipefail
PORT="${PGPORT_TEST:-54329}"
DATA="${PGDATA_TEST:-/tmp/model-manager-pgdata}"
PGBIN=""
for d in /usr/local/bin /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
  if [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ]; then PGBIN="$d"; break; fi
done
if [ -z "$PGBIN" ]; then
  echo "PostgreSQL not found; installing Debian's postgresql" >&2
  "$(dirname "$0")/apt-install.sh" postgresql
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | tail -1)
fi
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if ! as_pg "$PGBIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  rm -rf "$DATA"
  mkdir -p "$DATA"
  [ "$(id -u)" = 0 ] && chown postgres "$DATA"
  echo postgres > /tmp/model-manager-pgpass
  [ "$(id -u)" = 0 ] && chown postgres /tmp/model-manager-pgpass
  as_pg "$PGBIN/initdb" -D "$DATA" -U postgres --pwfile=/tmp/model-manager-pgpass -A scram-sha-256 >/dev/null
  as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1" -w start >/dev/null
fi
echo "export BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING=postgresql://postgres:postgres@127.0.0.1:$PORT"
