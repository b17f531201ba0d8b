#!/bin/sh
# Runs the API tests against PostgreSQL: starts a private, throwaway cluster of Debian's PostgreSQL 15
# (apt-get install postgresql-15), points TEST_DATABASE_URL at it, runs the API files that reach the
# database server (vitest.config.ts, POSTGRES_API_TESTS), stops it, and exits with the tests' status. Each
# test app works in a schema of its own inside the one database.
# Files or filters given as arguments go to vitest instead of the whole of tests/api:
#   sh scripts/pg-test.sh tests/api/database-outage.pg.test.ts
set -eu

# Read before anything else can change the arguments.
if [ "$#" -eq 0 ]; then
  set -- tests/api
fi

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
PORT=${PG_TEST_PORT:-55432}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -x "$PGBIN/initdb" ]; then
  echo "PostgreSQL binaries not found in $PGBIN (apt-get install -y postgresql-15)" >&2
  exit 1
fi

WORK=$(mktemp -d /tmp/paraph-pg.XXXXXX)
CLUSTER="$WORK/data"
LOG="$WORK/postgres.log"

# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
if [ "$(id -u)" = "0" ]; then
  chown postgres "$WORK"
  as_pg() { su postgres -s /bin/sh -c "$*"; }
else
  as_pg() { sh -c "$*"; }
fi

cleanup() {
  as_pg "'$PGBIN/pg_ctl' -D '$CLUSTER' -m fast -w stop" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

as_pg "'$PGBIN/initdb' -D '$CLUSTER' -U paraph --auth=trust --encoding=UTF8 --locale=C.UTF-8" >/dev/null
as_pg "'$PGBIN/pg_ctl' -D '$CLUSTER' -l '$LOG' -w -o \"-p $PORT -k '$WORK' -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\" start" >/dev/null
# A database per vitest worker (tests/api/pg-worker-setup.ts points each worker at its own): Kysely's
# migrator lists every schema's tables of its database, and fails with "schema does not exist" when
# another test drops its schema at that moment, so two workers never share one. As a database
# administrator would, each gets pg_trgm for the document search's trigram index: installed in one test's
# schema, it would go when that schema is dropped (server/db/search-index.ts).
WORKERS=${PG_TEST_WORKERS:-2}
i=1
while [ "$i" -le "$WORKERS" ]; do
  as_pg "'$PGBIN/createdb' -h 127.0.0.1 -p $PORT -U paraph paraph_test_$i"
  as_pg "'$PGBIN/psql' -q -h 127.0.0.1 -p $PORT -U paraph -d paraph_test_$i -c 'CREATE EXTENSION pg_trgm SCHEMA public'"
  i=$((i + 1))
done
echo "PostgreSQL running on 127.0.0.1:$PORT (cluster in $CLUSTER), $WORKERS test databases"

cd "$ROOT"
status=0
TEST_DATABASE_URL="postgres://paraph@127.0.0.1:$PORT/paraph_test" PG_TEST_WORKERS=$WORKERS \
  npx vitest run --project node --project api --maxWorkers="$WORKERS" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "API tests failed against PostgreSQL (exit $status); last lines of the server log:" >&2
  tail -n 40 "$LOG" >&2 || true
fi
exit "$status"
