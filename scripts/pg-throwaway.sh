#!/usr/bin/env bash
# pg-throwaway.sh: start a throwaway PostgreSQL cluster for the store's
# integration tests and print its URL on standard output.
#
#   scripts/pg-throwaway.sh            start one; prints postgres://...
#   scripts/pg-throwaway.sh stop DIR   stop the cluster in DIR and remove DIR
#
# As root, with Debian's postgresql (15) installed. The cluster lives in a
# new temporary directory owned by the postgres user, listens only on a unix
# socket in that directory (no TCP), and trusts local connections. The
# directory is named on standard error; nothing else on the machine is
# touched.
set -euo pipefail
bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "pg-throwaway: PostgreSQL's initdb not found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "pg-throwaway: run as root (the cluster runs as the postgres user)" >&2
  exit 1
fi
if [ "${1:-}" = stop ]; then
  dir=${2:?usage: pg-throwaway.sh stop DIR}
  [ -f "$dir/data/PG_VERSION" ] || { echo "pg-throwaway: $dir holds no cluster" >&2; exit 1; }
  runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  rm -rf "$dir"
  exit 0
fi
dir=$(mktemp -d /tmp/boardbench-pg.XXXXXX)
chown postgres: "$dir"
chmod 700 "$dir"
# The port only names the socket file: no TCP listener is opened.
port=$(( 20000 + RANDOM % 20000 ))
runuser -u postgres -- "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
  || { tail -5 "$dir/initdb.log" >&2; echo "pg-throwaway: initdb failed" >&2; exit 1; }
runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses='' -k $dir -p $port -c fsync=off -c max_connections=50" start >/dev/null \
  || { tail -5 "$dir/server.log" >&2; echo "pg-throwaway: the server did not start" >&2; exit 1; }
echo "pg-throwaway: cluster in $dir (stop: scripts/pg-throwaway.sh stop $dir)" >&2
echo "postgres://postgres@/postgres?host=$dir&port=$port&sslmode=disable"
