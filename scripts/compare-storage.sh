#!/usr/bin/env bash
# compare-storage.sh [DIR] [RUNS]: boardbench storage's sequential (16 MiB
# records) and 4 KiB random figures next to fio's for the same patterns
# (O_DIRECT, psync, one request at a time) on the same filesystem, run
# alternately RUNS times (default 3); then the whole storage run's time next
# to the time `iozone -e -I -a -s 100M -r 4k -r 16k -r 512k -r 1024k -r 16384k
# -i 0 -i 1 -i 2` would need at the measured throughputs (6 tests x 100 MiB per
# record size). Needs fio, python3 and a boardbench binary (BOARDBENCH, default:
# built from this tree).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-$PWD}
runs=${2:-3}
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
  start=$(date +%s.%N)
  "$bb" storage --json "$dir" >"$work/bb-$i.json" 2>"$work/bb-$i.err" || { cat "$work/bb-$i.err" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$start $end" >"$work/bb-$i.time"
  f="$dir/.compare-storage-fio.$$"
  fio --output-format=json --filename="$f" --size=100m --direct=1 --ioengine=psync --iodepth=1 \
    --runtime=5 --end_fsync=1 --randrepeat=0 \
    --name=seq_write_16m --rw=write --bs=16m --stonewall \
    --name=seq_read_16m --rw=read --bs=16m --stonewall \
    --name=rand_read_4k --rw=randread --bs=4k --stonewall \
    --name=rand_write_4k --rw=randwrite --bs=4k --stonewall >"$work/fio-$i.json" 2>"$work/fio-$i.err" \
    || { rm -f "$f"; cat "$work/fio-$i.err" >&2; exit 1; }
  rm -f "$f"
done
python3 - "$work" "$runs" <<'PY'
import json, sys, statistics as st
work, runs = sys.argv[1], int(sys.argv[2])
rows = {"seq_write_16m": [], "seq_read_16m": [], "rand_read_4k": [], "rand_write_4k": []}
fio = {k: [] for k in rows}
times, iozone = [], []
for i in range(1, runs + 1):
    r = json.load(open(f"{work}/bb-{i}.json"))
    t = next(p for p in r["phases"] if p["name"] == "storage")["figures"]["table"]
    by = {x["record_kib"]: x for x in t}
    rows["seq_write_16m"].append(by[16384]["write_kb_s"])
    rows["seq_read_16m"].append(by[16384]["read_kb_s"])
    rows["rand_read_4k"].append(by[4]["random_read_kb_s"])
    rows["rand_write_4k"].append(by[4]["random_write_kb_s"])
    a, b = map(float, open(f"{work}/bb-{i}.time").read().split())
    times.append(b - a)
    # iozone moves 100 MiB per test and record size: its time at our throughputs.
    s = 0.0
    for x in t:
        for k in ("write_kb_s", "rewrite_kb_s", "read_kb_s", "reread_kb_s", "random_read_kb_s", "random_write_kb_s"):
            s += 100 * 1024 / x[k]
    iozone.append(s)
    f = json.load(open(f"{work}/fio-{i}.json"))
    for j in f["jobs"]:
        side = j["write"] if "write" in j["jobname"] else j["read"]
        fio[j["jobname"]].append(side["bw"])
print(f"boardbench storage vs fio, {runs} alternating runs each, kB/s (1 kB = 1024 B), medians")
print(f"{'pattern':<16}{'boardbench':>12}{'fio':>12}{'diff':>9}")
for k in rows:
    b, f = st.median(rows[k]), st.median(fio[k])
    print(f"{k:<16}{b:>12.0f}{f:>12.0f}{(b / f - 1) * 100:>+8.1f}%")
tb, ti = st.median(times), st.median(iozone)
print(f"storage run time: {tb:.1f} s (whole command); iozone at these throughputs: {ti:.1f} s; ratio {tb / ti:.2f}")
PY
