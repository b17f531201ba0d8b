#!/bin/sh
# Runs the machine, view and API suites under another Node than the machine's: Node 24 unless told
# otherwise, fetched by scripts/with-node.sh (the npm registry's `node` package, in a cache folder outside
# the project; the project's node_modules stays as installed).
#   sh scripts/node-test.sh                            Node 24: tests/machines tests/views tests/api
#   sh scripts/node-test.sh 22 tests/api/upload.test.ts
set -eu

MAJOR=24
case "${1:-}" in
  [0-9]|[0-9][0-9]) MAJOR=$1; shift ;;
esac
if [ "$#" -eq 0 ]; then
  set -- tests/machines tests/views tests/api
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WITH_NODE="$ROOT/scripts/with-node.sh"
now() { date +%s; }
started=$(now)
sh "$WITH_NODE" "$MAJOR"
echo "node-test: Node $(sh "$WITH_NODE" "$MAJOR" node -p 'process.versions.node')"

cd "$ROOT"
mkdir -p test-results
REPORT="test-results/node$MAJOR-report.json"
rm -f "$REPORT"
step=$(now)
status=0
sh "$WITH_NODE" "$MAJOR" node node_modules/vitest/vitest.mjs run \
  --reporter=default --reporter=json --outputFile.json="$REPORT" "$@" || status=$?
echo "node-test: tests on Node $MAJOR took $(($(now) - step)) s; $(($(now) - started)) s in all"

# One plain closing line, as npm test prints one.
node -e '
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
