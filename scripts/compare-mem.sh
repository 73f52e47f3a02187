#!/usr/bin/env bash
# Accuracy check of `boardbench mem` against a plain C program on this
# machine, in the same run: the C library's memcpy and memset bandwidth and
# the pointer-chasing latency at 64 MiB. Builds boardbench (with cgo) and
# scripts/compare-mem.c into a temporary directory, then alternates the two
# ROUNDS times (default 3) on the same CPU with the same buffer size and
# prints the figures side by side with boardbench's deviation in percent.
#
# usage: scripts/compare-mem.sh [CPU] [ROUNDS]
# Needs go, a C compiler (CC, default gcc) and python3 (to read the JSON).
set -euo pipefail
cd "$(dirname "$0")/.."
cpu=${1:-0}
rounds=${2:-3}
cc=${CC:-gcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

CGO_ENABLED=1 go build -o "$tmp/boardbench" ./cmd/boardbench
"$cc" -O2 -Wall -o "$tmp/compare-mem" scripts/compare-mem.c

block=$((64 << 20))
printf 'cpu%s, %s rounds; load average: %s\n' "$cpu" "$rounds" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-22s %14s %14s %9s\n' round figure boardbench "C program" deviation
for r in $(seq 1 "$rounds"); do
  # boardbench first: its JSON gives the buffer size the C program then uses.
  "$tmp/boardbench" mem --cpu "$cpu" --json --max-size 64M >"$tmp/bb.json"
  read -r size bb_cpy bb_set bb_lat < <(python3 - "$tmp/bb.json" "$block" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
lat = [p["ns"] for p in r["latency"] if p["size_bytes"] == int(sys.argv[2])]
f = lambda v: "nan" if v is None else repr(v)
print(r["buffer_bytes"], f(r["memcpy_mb_s"]), f(r["memset_mb_s"]), f(lat[0] if lat else None))
PY
)
  "$tmp/compare-mem" "$cpu" "$size" "$block" >"$tmp/c.txt"
  c_cpy=$(sed -n 's/^memcpy_mb_s=//p' "$tmp/c.txt")
  c_set=$(sed -n 's/^memset_mb_s=//p' "$tmp/c.txt")
  c_lat=$(sed -n 's/^latency_ns=//p' "$tmp/c.txt")
  python3 - "$r" "$size" "$bb_cpy" "$c_cpy" "$bb_set" "$c_set" "$bb_lat" "$c_lat" <<'PY' | tee -a "$tmp/rows"
import sys
r, size = sys.argv[1], int(sys.argv[2])
rows = [("memcpy_MB/s_(%dMiB)" % (size >> 20), sys.argv[3], sys.argv[4]),
        ("memset_MB/s_(%dMiB)" % (size >> 20), sys.argv[5], sys.argv[6]),
        ("latency_ns_(64MiB)", sys.argv[7], sys.argv[8])]
for name, b, c in rows:
    b, c = float(b), float(c)
    dev = 100 * (b - c) / c if c else float("nan")
    print("%-5s %-22s %14.1f %14.1f %+8.1f%%" % (r, name, b, c, dev))
PY
done
# Medians over the rounds: noise from other processes hits both sides.
python3 - "$tmp/rows" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    _, name, b, c, _ = line.split()
    rows.setdefault(name, []).append((float(b), float(c)))
for name, v in rows.items():
    b = statistics.median(x for x, _ in v)
    c = statistics.median(y for _, y in v)
    print("%-5s %-22s %14.1f %14.1f %+8.1f%%" % ("med", name, b, c, 100 * (b - c) / c))
PY
