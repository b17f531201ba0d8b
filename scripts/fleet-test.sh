#!/bin/sh
# The fleet test: two Paraph instances behind a round-robin proxy, sharing one PostgreSQL database and one
# real S3 bucket, while PostgreSQL restarts and one instance is stopped (SIGTERM) and started again.
# This script starts the infrastructure in a throwaway folder, on free loopback ports:
#   - a private PostgreSQL cluster (Debian's PostgreSQL, as scripts/pg-test.sh does);
#   - Ceph's radosgw as the S3 store: one monitor, one memory-backed OSD (memstore) and the gateway, with
#     an S3 user made by radosgw-admin. radosgw checks presigned POST signatures and policies for real,
#     which s3rver does not (docs: /work/shared/STACK.md);
# then runs the driver, tests/fleet/fleet.ts, which creates the bucket (with a CORS rule for the proxy's
# origin), starts the instances and the proxy, runs the journeys and says which promise broke, if any.
# Missing packages are installed with apt-get (as root). FLEET_SECONDS sets how long journeys run (60);
# FLEET_DISRUPTIONS=sigterm or =database runs one disruption alone (the other's check then fails);
# FLEET_KEEP=1 keeps the folder (logs of every daemon and instance) for a look afterwards.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRIPT_START=$(date +%s)

elapsed() { echo $(($(date +%s) - $1)); }
say() { echo "[fleet-test +$(elapsed "$SCRIPT_START")s] $*"; }

# ---------------------------------------------------------------- packages
need=""
command -v ceph-mon >/dev/null 2>&1 || need="$need ceph-mon"
command -v ceph-osd >/dev/null 2>&1 || need="$need ceph-osd"
command -v radosgw >/dev/null 2>&1 || need="$need radosgw"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
if [ -n "$need" ]; then
  if [ "$(id -u)" != "0" ]; then
    echo "fleet-test: missing packages:$need (apt-get install -y$need, as root)" >&2
    exit 1
  fi
  say "installing$need"
  apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
  say "installed$need"
fi

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ ! -x "$PGBIN/initdb" ]; then
  echo "fleet-test: PostgreSQL binaries not found in $PGBIN" >&2
  exit 1
fi

WORK=$(mktemp -d /tmp/paraph-fleet.XXXXXX)
CEPH="$WORK/ceph"
CONF="$CEPH/ceph.conf"
CLUSTER="$WORK/pg/data"
PGLOG="$WORK/pg/postgres.log"

# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
if [ "$(id -u)" = "0" ]; then
  chown postgres "$WORK"
  as_pg() { su postgres -s /bin/sh -c "$*"; }
  PG_AS="su postgres -s /bin/sh -c"
else
  as_pg() { sh -c "$*"; }
  PG_AS="sh -c"
fi

# Stops one Ceph daemon by its pid file: TERM, then KILL if it is still there after 15 s.
stop_daemon() {
  pidfile="$CEPH/run/$1.pid"
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || return 0
  i=0
  while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 30 ]; do
    sleep 0.5
    i=$((i + 1))
  done
  kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
  stop_daemon client.rgw.a
  stop_daemon osd.0
  stop_daemon mon.a
  as_pg "'$PGBIN/pg_ctl' -D '$CLUSTER' -m fast -w stop" >/dev/null 2>&1 || true
  if [ "${FLEET_KEEP:-0}" = "1" ]; then
    echo "fleet-test: kept $WORK (logs of PostgreSQL, Ceph and both instances)"
  else
    rm -rf "$WORK"
  fi
  say "whole script took $(elapsed "$SCRIPT_START")s"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- ports
# Nine consecutive free loopback ports: PostgreSQL, the monitor, the gateway, and six for the OSD's
# messengers (public, cluster and two heartbeats; the rest is slack).
BASE=$(node -e '
const net = require("node:net");
const free = (port) => new Promise((resolve) => {
  const server = net.createServer();
  server.once("error", () => resolve(false));
  server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
});
(async () => {
  for (let tries = 0; tries < 200; tries += 1) {
    const base = 20000 + Math.floor(Math.random() * 12000);
    let ok = true;
    for (let port = base; port < base + 9 && ok; port += 1) ok = await free(port);
    if (ok) { console.log(base); return; }
  }
  process.exit(1);
})();
')
PG_PORT=$BASE
MON_PORT=$((BASE + 1))
RGW_PORT=$((BASE + 2))
MSGR_MIN=$((BASE + 3))
MSGR_MAX=$((BASE + 8))

# ---------------------------------------------------------------- PostgreSQL
T=$(date +%s)
mkdir -p "$WORK/pg"
chown -R "$(stat -c %u "$WORK")" "$WORK/pg"
as_pg "'$PGBIN/initdb' -D '$CLUSTER' -U paraph --auth=trust --encoding=UTF8 --locale=C.UTF-8" >/dev/null
as_pg "'$PGBIN/pg_ctl' -D '$CLUSTER' -l '$PGLOG' -w -o \"-p $PG_PORT -k '$WORK/pg' -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\" start" >/dev/null
as_pg "'$PGBIN/createdb' -h 127.0.0.1 -p $PG_PORT -U paraph paraph_fleet"
# The driver restarts PostgreSQL through this, as its owner; pg_ctl restart reuses the options above.
cat >"$WORK/pg-restart.sh" <<EOF
#!/bin/sh
exec $PG_AS "'$PGBIN/pg_ctl' -D '$CLUSTER' -l '$PGLOG' -m fast -w restart" >/dev/null
EOF
say "PostgreSQL ready on 127.0.0.1:$PG_PORT in $(elapsed "$T")s"

# ---------------------------------------------------------------- Ceph: monitor, OSD, radosgw
RGW_START=$(date +%s)
mkdir -p "$CEPH/run" "$CEPH/log" "$CEPH/mon" "$CEPH/osd/ceph-0"
FSID=$(cat /proc/sys/kernel/random/uuid)
# `auth none` is for a throwaway cluster on loopback only. radosgw asks for a secure (cephx) connection
# to the monitor by default, which never comes with auth none: "ms mon client mode = crc" lets it in
# (without it radosgw hangs for 300 s and exits with "failed to fetch mon config").
cat >"$CONF" <<EOF
[global]
fsid = $FSID
mon host = [v2:127.0.0.1:$MON_PORT]
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
ms client mode = crc
ms bind msgr1 = false
ms bind port min = $MSGR_MIN
ms bind port max = $MSGR_MAX
client mount timeout = 30
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 2
mon data avail crit = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon max pg per osd = 1000
run dir = $CEPH/run
admin socket = $CEPH/run/\$name.asok
log file = $CEPH/log/\$name.log
pid file = $CEPH/run/\$name.pid
keyring = $CEPH/keyring
mon data = $CEPH/mon/\$cluster-\$id
osd data = $CEPH/osd/\$cluster-\$id
osd objectstore = memstore
memstore device bytes = 1073741824

[mon.a]
public addr = 127.0.0.1

[osd.0]
public addr = 127.0.0.1
cluster addr = 127.0.0.1

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw dns name = 127.0.0.1
rgw thread pool size = 32
EOF

ceph_fail() {
  echo "fleet-test: $1; the last lines of $2's log:" >&2
  tail -n 30 "$CEPH/log/$2.log" >&2 2>/dev/null || true
  exit 1
}

# Waits up to $2 seconds for the command $1 to succeed.
wait_for() {
  i=0
  while ! sh -c "$1" >/dev/null 2>&1; do
    i=$((i + 1))
    [ "$i" -ge "$2" ] && return 1
    sleep 1
  done
}

monmaptool --create --addv a "[v2:127.0.0.1:$MON_PORT]" --fsid "$FSID" "$CEPH/monmap" >/dev/null
ceph-mon -c "$CONF" --mkfs -i a --monmap "$CEPH/monmap" 2>"$CEPH/log/mkfs-mon.err" ||
  ceph_fail "the monitor could not be created" mon.a
ceph-mon -c "$CONF" -i a || ceph_fail "the monitor did not start" mon.a
wait_for "ceph -c '$CONF' --connect-timeout 5 -s" 30 || ceph_fail "the monitor did not answer in 30 s" mon.a

OSD_ID=$(ceph -c "$CONF" osd create)
[ "$OSD_ID" = "0" ] || ceph_fail "the monitor gave OSD id $OSD_ID, not 0" mon.a
ceph-osd -c "$CONF" -i 0 --mkfs >"$CEPH/log/mkfs-osd.out" 2>&1 || ceph_fail "the OSD could not be created" osd.0
ceph-osd -c "$CONF" -i 0 2>>"$CEPH/log/osd-start.err" || ceph_fail "the OSD did not start" osd.0
wait_for "ceph -c '$CONF' --connect-timeout 5 osd stat | grep -q '1 up'" 60 ||
  ceph_fail "the OSD was not up in 60 s" osd.0

# radosgw forks once it has reached the monitor; it answers HTTP once it has created its pools.
radosgw -c "$CONF" -n client.rgw.a || ceph_fail "radosgw did not start" client.rgw.a
wait_for "node -e 'fetch(\"http://127.0.0.1:$RGW_PORT/\").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))'" 90 ||
  ceph_fail "radosgw did not answer HTTP in 90 s" client.rgw.a

ACCESS_KEY="FLEET$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr 'a-f' 'A-F')"
SECRET_KEY=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
radosgw-admin -c "$CONF" user create --uid fleet --display-name "Paraph fleet test" \
  --access-key "$ACCESS_KEY" --secret "$SECRET_KEY" >"$CEPH/log/user-create.out" 2>&1 ||
  ceph_fail "radosgw-admin could not create the S3 user" client.rgw.a
say "radosgw (monitor, memstore OSD, gateway, S3 user) ready on 127.0.0.1:$RGW_PORT in $(elapsed "$RGW_START")s"

# ---------------------------------------------------------------- the driver
cd "$ROOT"
status=0
FLEET_WORK="$WORK" \
  FLEET_DATABASE_URL="postgres://paraph@127.0.0.1:$PG_PORT/paraph_fleet" \
  FLEET_PG_RESTART="$WORK/pg-restart.sh" \
  FLEET_S3_ENDPOINT="http://127.0.0.1:$RGW_PORT" \
  FLEET_S3_ACCESS_KEY_ID="$ACCESS_KEY" \
  FLEET_S3_SECRET_ACCESS_KEY="$SECRET_KEY" \
  node --import tsx tests/fleet/fleet.ts || status=$?
if [ "$status" -ne 0 ]; then
  echo "fleet-test: failed (exit $status); the last lines of PostgreSQL's log:" >&2
  tail -n 15 "$PGLOG" >&2 || true
fi
exit "$status"
