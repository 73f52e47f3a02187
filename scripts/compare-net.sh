#!/usr/bin/env bash
# compare-net.sh: TCP throughput measured by iperf3 run directly against the
# same tests run through `boardbench net --peer` (with its per-step sampling
# and the session monitor), over a veth pair between two network namespaces
# this script creates and removes. The monitoring must not cost more than
# MAX_COST_PCT (default 2) percent of the throughput; the script exits 1
# when it does.
#
# Direct and boardbench runs alternate, REPEAT times each (default 5), and
# the medians are compared, so that a slow moment of a shared machine
# weighs on both sides.
#
# usage: sudo scripts/compare-net.sh   (needs root, ip, iperf3, python3, go)
#   DURATION=5 REPEAT=5 MAX_COST_PCT=2 BOARDBENCH=path/to/boardbench
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-5}
repeat=${REPEAT:-5}
max_cost=${MAX_COST_PCT:-2}
[ "$(id -u)" = 0 ] || { echo "compare-net: needs root (network namespaces)" >&2; exit 1; }
for t in ip iperf3 python3; do
  command -v "$t" >/dev/null || { echo "compare-net: $t not found" >&2; exit 1; }
done
tmp=$(mktemp -d)
a=bbcmpA$$ b=bbcmpB$$
cleanup() {
  if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
bb=${BOARDBENCH:-}
if [ -z "$bb" ]; then
  bb=$tmp/boardbench
  go build -o "$bb" ./cmd/boardbench
fi

ip netns add "$a"; ip netns add "$b"
ip link add va$$ netns "$a" type veth peer name vb$$ netns "$b"
ip -n "$a" addr add 10.205.0.1/24 dev va$$; ip -n "$b" addr add 10.205.0.2/24 dev vb$$
ip -n "$a" link set va$$ up; ip -n "$b" link set vb$$ up
ip -n "$a" link set lo up; ip -n "$b" link set lo up
# No TCP metrics cached between connections: a small-MSS or bidirectional
# test must not change the start of the next one.
ip netns exec "$a" sysctl -qw net.ipv4.tcp_no_metrics_save=1
ip netns exec "$b" sysctl -qw net.ipv4.tcp_no_metrics_save=1
ip netns exec "$b" iperf3 -s -B 10.205.0.2 >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do
  ip netns exec "$b" ss -Hltn sport = :5201 | grep -q 5201 && break
  sleep 0.05
done

# mbit FILE KEY: Mbit/s of an iperf3 JSON report's end.KEY.
mbit() { python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["end"][sys.argv[2]]["bits_per_second"]/1e6))' "$1" "$2"; }
# summary FILE KEY: a boardbench result's summary figure.
summary() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["summary"][sys.argv[2]]; print("%.1f" % v)' "$1" "$2"; }

echo "compare-net: $repeat alternating rounds of ${duration}s tests over a veth pair"
printf '%-6s %12s %12s %12s %12s\n' round "direct tx" "bb tx" "direct rx" "bb rx"
direct() {
  ip netns exec "$a" iperf3 -c 10.205.0.2 -t "$duration" -J >"$tmp/f.json"
  ip netns exec "$a" iperf3 -c 10.205.0.2 -t "$duration" -R -J >"$tmp/r.json"
}
through() {
  ip netns exec "$a" "$bb" net --peer 10.205.0.2 --duration "${duration}s" --no-install -o "$tmp/bb.json" >/dev/null 2>"$tmp/bb.err" \
    || { cat "$tmp/bb.err" >&2; echo "compare-net: boardbench net failed" >&2; exit 1; }
}
for i in $(seq "$repeat"); do
  # Which side goes first alternates from round to round.
  if [ $((i % 2)) = 1 ]; then direct; through; else through; direct; fi
  dt=$(mbit "$tmp/f.json" sum_received); dr=$(mbit "$tmp/r.json" sum_received)
  bt=$(summary "$tmp/bb.json" tcp_tx_mbit_s); br=$(summary "$tmp/bb.json" tcp_rx_mbit_s)
  printf '%-6s %12s %12s %12s %12s\n' "$i" "$dt" "$bt" "$dr" "$br"
  echo "$dt $bt $dr $br" >>"$tmp/rows"
done
python3 - "$tmp/rows" "$max_cost" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
limit = float(sys.argv[2])
worst = None
for name, d, b in (("tx", 0, 1), ("rx", 2, 3)):
    md, mb = statistics.median(r[d] for r in rows), statistics.median(r[b] for r in rows)
    cost = 100 * (md - mb) / md
    worst = cost if worst is None else max(worst, cost)
    print(f"median {name}: direct {md:.1f} Mbit/s, through boardbench {mb:.1f} Mbit/s, cost {cost:+.2f}%")
verdict = "within" if worst < limit else "ABOVE"
print(f"monitoring cost {worst:+.2f}% ({verdict} the {limit:g}% limit)")
sys.exit(0 if worst < limit else 1)
PY
