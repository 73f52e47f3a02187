#!/usr/bin/env bash
# bench-lab.sh: how boardbench's store and `serve` answer with many results
# (a benchmark, not a test: CI does not run it; docs/status.md keeps the
# numbers).
#
#   scripts/bench-lab.sh [--generate N] [--runs R] STORE
#
# STORE is a PostgreSQL URL or a SQLite path. --generate N first fills it
# up to N results with variations of real results: the sbc-bench logs under
# ../shared/data/sbc-bench-logs (or $BENCHLAB_LOGS) imported with
# `boardbench import` into a seed store, then varied (new id, date, figures
# scaled by up to 10%) and written through the store's own write path
# (scripts/benchlab, store.PutAll). Then it measures, as medians of R runs
# (default 5): serve's start (until the first page has answered) and its
# first page, every table page (first, filtered, sorted by each figure
# column, combined, deep), serve's peak RSS, `results list --board`,
# `results show SHORTID`, and `results list` of every result (wall time and
# peak RSS), and prints a markdown table with the load average before and
# after.
#
# Generating is long (a million results: hours on a loaded 2-core machine);
# run it under `nice`. Needs curl and GNU time (/usr/bin/time).
set -euo pipefail
runs=5
generate=0
while [ $# -gt 1 ]; do
  case $1 in
    --generate) generate=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "usage: bench-lab.sh [--generate N] [--runs R] STORE" >&2; exit 2 ;;
  esac
done
[ $# = 1 ] || { echo "usage: bench-lab.sh [--generate N] [--runs R] STORE" >&2; exit 2; }
store=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
logs=${BENCHLAB_LOGS:-$repo/../shared/data/sbc-bench-logs}
tmp=$(mktemp -d)
serve_pid=
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$repo" && go build -o "$tmp/boardbench" ./cmd/boardbench && go build -o "$tmp/benchlab" ./scripts/benchlab)

if [ "$generate" -gt 0 ]; then
  "$tmp/boardbench" --store "$tmp/seed.db" import "$logs" >/dev/null || true
  "$tmp/benchlab" -seed "$tmp/seed.db" -store "$store" -total "$generate" -workers 3
fi

# median of the numbers on standard input
median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
# wall seconds of a command, median of $runs
wall() {
  for _ in $(seq "$runs"); do
    "/usr/bin/time" -f %e -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { echo "bench-lab: $* failed:" >&2; cat "$tmp/err" >&2; }
    tail -n1 "$tmp/t"
  done | median
}
ms() { awk '{printf "%.0f ms", $1*1000}'; }

# serve opens the store read-only: a store of an older schema version is
# migrated first by a command that may write it.
"$tmp/boardbench" --store "$store" results list --limit 1 >/dev/null
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

port=$(( 20000 + RANDOM % 20000 ))
url=http://127.0.0.1:$port

# serve: start until the first page has answered, then that first page alone.
start_serve() {
  "$tmp/boardbench" --store "$store" serve --listen "127.0.0.1:$port" >/dev/null 2>"$tmp/serve.log" &
  serve_pid=$!
}
# wait_serve waits until serve answers; it fails when serve has exited.
wait_serve() {
  until curl -s -o /dev/null "$url/version-probe-404" 2>/dev/null; do
    kill -0 "$serve_pid" 2>/dev/null || { cat "$tmp/serve.log" >&2; echo "bench-lab: serve exited" >&2; exit 1; }
    sleep 0.01
  done
}
stop_serve() { kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=; }
starts=() firsts=()
for _ in $(seq "$runs"); do
  t0=$(date +%s.%N)
  start_serve
  wait_serve
  t1=$(date +%s.%N)
  first=$(curl -s -o /dev/null -w '%{time_total}' "$url/")
  starts+=("$(echo "$t1 - $t0" | bc)") firsts+=("$first")
  stop_serve
done
start=$(printf '%s\n' "${starts[@]}" | median)
first=$(printf '%s\n' "${firsts[@]}" | median)

start_serve
wait_serve
page() { # median time_total of a page, with its status
  local status
  status=$(curl -s -o /dev/null -w '%{http_code}' "$url$1")
  for _ in $(seq "$runs"); do curl -s -o /dev/null -w '%{time_total}\n' "$url$1"; done | median | ms
  [ "$status" = 200 ] || printf ' (status %s)' "$status"
}
declare -A pages
order=("/" "/?soc=RK3588" "/?sort=7zip-multi" "/?sort=7zip-single" "/?sort=aes" "/?sort=memcpy" "/?sort=memset"
  "/?sort=clock" "/?sort=7zip-multi&dir=asc" "/?soc=RK3588&sort=7zip-multi" "/?q=raspberry" "/?kernel=6.1"
  "/?core=a76" "/?valid=1&sort=7zip-multi" "/?page=2000" "/?soc=RK3588&page=200" "/?q=raspberry&page=100"
  "/?kernel=6.1&page=100" "/?core=a76&page=100" "/?valid=1&page=2000" "/?soc=RK3588&page=80" "/?soc=RK3588&valid=1&page=60"
  "/?soc=RK3588&sort=7zip-multi&page=200" "/?soc=RK3588&sort=7zip-multi&dir=asc&page=80"
  "/?q=raspberry&sort=7zip-multi&page=100" "/?soc=BCM2835&sort=7zip-multi&dir=asc&page=20")
for p in "${order[@]}"; do pages[$p]=$(page "$p"); done
rows=$(curl -s "$url/" | grep -o '[0-9][0-9]* results' | head -1 | cut -d' ' -f1)
rss=$(awk '/VmHWM/ {printf "%.0f MB", $2*1024/1e6}' "/proc/$serve_pid/status")
stop_serve

id=$("$tmp/boardbench" --store "$store" results list --limit 1 --json | awk -F'"' '/"id"/ {print $4}')
[ -n "$id" ] || { echo "bench-lab: the store holds no result" >&2; exit 1; }
board=${BENCHLAB_BOARD:-rock 5b}
list_board=$(wall "$tmp/boardbench" --store "$store" results list --board "$board" | ms)
show=$(wall "$tmp/boardbench" --store "$store" results show "${id:0:12}" | ms)
/usr/bin/time -f '%e %M' -o "$tmp/all" "$tmp/boardbench" --store "$store" results list >/dev/null
list_all=$(awk '{printf "%.1f s, %.0f MB", $1, $2*1024/1e6}' "$tmp/all")

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "Load average (1, 5, 15 min): $load_before before, $load_after after."
echo
echo "| operation ($rows results, $(basename "${store%%\?*}"), medians of $runs) | time |"
echo "|---|---|"
echo "| \`serve\` start, until the first page answered | $(echo "$start" | ms) |"
echo "| \`serve\`, first page after start | $(echo "$first" | ms) |"
for p in "${order[@]}"; do echo "| \`serve\`, \`$p\` (warm) | ${pages[$p]} |"; done
echo "| \`serve\`, peak RSS | $rss |"
echo "| \`results list --board '$board'\` | $list_board |"
echo "| \`results show SHORTID\` | $show |"
echo "| \`results list\` (all), wall and peak RSS | $list_all |"
