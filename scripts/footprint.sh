#!/usr/bin/env bash
# Measures boardbench's own footprint and writes it to docs/status.md
# (between the footprint markers):
#   - the size of each binary scripts/build-all.sh makes (board builds for
#     armv6, armv7, arm64, riscv64; the full amd64 build);
#   - start-up time and peak RSS of `info` and `version` (median of RUNS
#     runs) of this machine's board build and full build;
#   - `monitor --interval 1s`: RSS after SECS seconds and its CPU use over
#     the last 10 s (median of MRUNS runs), board build.
# It is a benchmark, not a test: times and RSS depend on the machine and
# its load. It fails (exit 1) only where a board binary is over LIMIT
# bytes (default 12,000,000: issue 22's target), because size is not
# noisy; .ci/run checks the 12 MB target. The report always says whether
# the 12 MB target is met. Needs python3 and what
# build-all.sh needs. DIST reuses build-all's binaries when they are
# there (set NOBUILD=1 to skip building them); WRITE=0 leaves
# docs/status.md alone.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-11}
mruns=${MRUNS:-3}
secs=${SECS:-13}
limit=${LIMIT:-12000000}
dist=${DIST:-dist}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
die() { echo "footprint: $*" >&2; exit 1; }
command -v python3 >/dev/null || die "python3 not found (apt-get install python3)"

if [ -z "${NOBUILD:-}" ]; then
  DIST=$dist scripts/build-all.sh >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; die "build-all.sh failed"; }
fi
# This machine's board build, with build-all's flags.
CGO_ENABLED=1 CGO_CFLAGS=-Os go build -trimpath -tags netgo,osusergo,board,nethttpomithttp2,sqlite_omit_load_extension \
  -gcflags=all=-l "-gcflags=std=" "-gcflags=boardbench/internal/probe/...=" \
  -ldflags "-s -w -linkmode external -extldflags -static" -o "$work/boardbench-board" ./cmd/boardbench 2>"$work/err" \
  || { cat "$work/err" >&2; die "the board build for this machine did not build"; }

python3 - "$dist" "$work/boardbench-board" "$runs" "$mruns" "$secs" "$limit" >"$work/report.md" <<'PY' || status=$?
import os, platform, signal, statistics, subprocess, sys, time

dist, board, runs, mruns, secs, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
full = os.path.join(dist, "boardbench-linux-amd64") if platform.machine() == "x86_64" else None
env = dict(os.environ, BOARDBENCH_STORE=os.path.join(os.path.dirname(board), "results.db"), NO_COLOR="1")
over = []

def mb(n): return f"{n/1e6:.1f} MB"

print("| binary | kind | bytes | size |")
print("| --- | --- | ---: | ---: |")
for arch in ("armv6", "armv7", "arm64", "riscv64", "amd64"):
    p = os.path.join(dist, f"boardbench-linux-{arch}")
    if not os.path.exists(p):
        print(f"| {arch} | | missing | |")
        continue
    n = os.path.getsize(p)
    kind = "full" if arch == "amd64" else "board"
    mark = " (over the 12 MB target)" if kind == "board" and n > 12_000_000 else ""
    if kind == "board" and n > limit: over.append(f"{arch} {n} bytes")
    print(f"| {arch} | {kind} | {n} | {mb(n)}{mark} |")

def once(args):
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, st, ru = os.wait4(p.pid, 0)
    return (time.perf_counter() - t0) * 1000, ru.ru_maxrss / 1024  # ms, MiB (ru_maxrss is KiB)

print()
print(f"Start-up (median of {runs} runs; wall time to exit; peak RSS):")
print()
print("| build | command | time | peak RSS |")
print("| --- | --- | ---: | ---: |")
builds = [("board", board)] + ([("full", full)] if full and os.path.exists(full) else [])
for name, b in builds:
    for cmd in (["version"], ["info"]):
        once([b] + cmd)  # warm the page cache
        res = [once([b] + cmd) for _ in range(runs)]
        t = statistics.median(r[0] for r in res)
        rss = statistics.median(r[1] for r in res)
        print(f"| {name} | `{' '.join(cmd)}` | {t:.1f} ms | {rss:.1f} MiB |")

def monitor(b):
    p = subprocess.Popen([b, "monitor", "--interval", "1s"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    def ticks():
        with open(f"/proc/{p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    time.sleep(secs - 10)
    c0, t0 = ticks(), time.monotonic()
    time.sleep(10)
    c1, t1 = ticks(), time.monotonic()
    with open(f"/proc/{p.pid}/status") as f:
        rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:")) / 1024
    p.send_signal(signal.SIGINT)
    _, st, ru = os.wait4(p.pid, 0)
    hz = os.sysconf("SC_CLK_TCK")
    return rss, ru.ru_maxrss / 1024, (c1 - c0) / hz / (t1 - t0) * 100

print()
print(f"`monitor --interval 1s`, board build (median of {mruns} runs of {secs} s; CPU over the last 10 s):")
print()
res = [monitor(board) for _ in range(mruns)]
print("| RSS at the end | peak RSS | CPU (one core) |")
print("| ---: | ---: | ---: |")
print(f"| {statistics.median(r[0] for r in res):.1f} MiB | {statistics.median(r[1] for r in res):.1f} MiB | {statistics.median(r[2] for r in res):.2f} % |")
if over:
    print(f"footprint: over {limit:,} bytes: " + ", ".join(over), file=sys.stderr)
    sys.exit(3)
PY
status=${status:-0}
[ "$status" = 0 ] || [ "$status" = 3 ] || die "measuring failed"
{
  echo "Measured by \`scripts/footprint.sh\` on $(date -u +%Y-%m-%d), $(uname -m), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown):"
  echo
  cat "$work/report.md"
} >"$work/section.md"
cat "$work/section.md"
if [ "${WRITE:-1}" != 0 ]; then
  python3 - docs/status.md "$work/section.md" <<'PY'
import sys
path, section = sys.argv[1], open(sys.argv[2]).read()
begin, end = "<!-- footprint:begin (scripts/footprint.sh writes this) -->", "<!-- footprint:end -->"
text = open(path).read()
block = f"{begin}\n{section.rstrip()}\n{end}"
if begin in text and end in text:
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(text)
PY
  echo "footprint: written to docs/status.md"
fi
[ "$status" = 0 ] || die "a board binary is over $limit bytes (see above)"
