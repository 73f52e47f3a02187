#!/usr/bin/env bash
# compare-storage.sh [DIR] [RUNS]: boardbench storage's cells next to fio
# repeating exactly the same cells (`boardbench storage --fio`: same record
# size, same region, same number of bytes, O_DIRECT, psync, one request at a
# time, a fresh file written with the same records before it is read), RUNS
# times (default 5) on the same filesystem; then the storage test's time next
# to the time `iozone -e -I -a -s 100M -r 4k -r 16k -r 512k -r 1024k -r 16384k
# -i 0 -i 1 -i 2` would need at the measured throughputs (6 tests x 100 MiB
# per record size); then the completion latency percentiles (p50, p99,
# p99.9) of 4 KiB random reads and writes at queue depths 1 and 32
# (boardbench's latency cells, fio's clat with ioengine=libaio and the
# same depth, region and number of requests). Needs fio, python3 and a boardbench binary (BOARDBENCH,
# default: built from this tree).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-$PWD}
runs=${2:-5}
command -v fio >/dev/null || { echo "compare-storage: fio not found (apt install fio)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "compare-storage: python3 not found" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bb=${BOARDBENCH:-}
if [ -z "$bb" ]; then
  go build -o "$work/boardbench" ./cmd/boardbench
  bb=$work/boardbench
fi
for i in $(seq 1 "$runs"); do
  "$bb" storage --fio --no-install --json "$dir" >"$work/bb-$i.json" 2>"$work/bb-$i.err" || { cat "$work/bb-$i.err" >&2; exit 1; }
done
python3 - "$work" "$runs" <<'PY'
import json, sys, statistics as st
from datetime import datetime
work, runs = sys.argv[1], int(sys.argv[2])
names = ["seq_write_16m", "seq_read_16m", "write_4k", "rand_read_4k", "rand_write_4k"]
bb = {k: [] for k in names}
fio = {k: [] for k in names}
ratio = {k: [] for k in names}
times, iozone = [], []
lat = {}
def ts(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))
for i in range(1, runs + 1):
    r = json.load(open(f"{work}/bb-{i}.json"))
    ph = {p["name"]: p for p in r["phases"]}
    st_ph, fio_ph = ph["storage"], ph.get("storage-fio")
    if not fio_ph or not fio_ph.get("figures"):
        sys.exit(f"run {i}: no fio figures: {fio_ph and fio_ph.get('skip_reason') or fio_ph}")
    times.append((ts(st_ph["ended_at"]) - ts(st_ph["started_at"])).total_seconds())
    # iozone moves 100 MiB per test and record size: its time at our throughputs.
    s = 0.0
    for x in st_ph["figures"]["table"]:
        for k in ("write_kb_s", "rewrite_kb_s", "read_kb_s", "reread_kb_s", "random_read_kb_s", "random_write_kb_s"):
            s += 100 * 1024 / x[k]
    iozone.append(s)
    for j in fio_ph["figures"]["jobs"]:
        if j.get("queue_depth"):
            for q in ("p50", "p99", "p99_9"):
                b, f = j.get(f"boardbench_{q}_us"), j.get(f"clat_{q}_us")
                if b is not None and f is not None:
                    lat.setdefault((j["name"], q), []).append((b, f))
            continue
        bb[j["name"]].append(j["boardbench_kb_s"])
        fio[j["name"]].append(j["kb_s"])
        ratio[j["name"]].append(j["boardbench_kb_s"] / j["kb_s"])
print(f"boardbench storage vs fio repeating the same cells, {runs} runs, kB/s (1 kB = 1024 B)")
print(f"{'pattern':<15}{'boardbench':>12}{'fio':>12}{'diff of':>10}{'paired':>9}{'spread of':>12}")
print(f"{'':<15}{'median':>12}{'median':>12}{'medians':>10}{'median':>9}{'fio runs':>12}")
for k in names:
    if not fio[k]:
        continue
    b, f = st.median(bb[k]), st.median(fio[k])
    spread = (max(fio[k]) - min(fio[k])) / f * 100
    print(f"{k:<15}{b:>12.0f}{f:>12.0f}{(b / f - 1) * 100:>+9.1f}%{(st.median(ratio[k]) - 1) * 100:>+8.1f}%{spread:>11.0f}%")
tb, ti = st.median(times), st.median(iozone)
print(f"storage test time: {tb:.1f} s; iozone at these throughputs: {ti:.1f} s; ratio {tb / ti:.2f}")
if lat:
    print()
    print(f"completion latency, 4 KiB random, median of {runs} runs, microseconds (fio: clat percentiles, libaio)")
    print(f"{'job':<20}{'pct':>6}{'boardbench':>12}{'fio':>12}{'diff':>9}")
    for (name, q), pairs in sorted(lat.items(), key=lambda kv: (kv[0][0], ["p50", "p99", "p99_9"].index(kv[0][1]))):
        b, f = st.median(p[0] for p in pairs), st.median(p[1] for p in pairs)
        print(f"{name:<20}{q.replace('_', '.'):>6}{b:>12.1f}{f:>12.1f}{(b / f - 1) * 100 if f else float('nan'):>+8.1f}%")
PY
