#!/usr/bin/env bash
# Measures boardbench's own footprint and writes it to docs/status.md
# (between the footprint markers):
#   - the size of each binary scripts/build-all.sh makes (board builds for
#     armv6, armv7, arm64, riscv64; the full amd64 build);
#   - start-up time and peak RSS of `info` and `version` (median of RUNS
#     runs) of this machine's board build and of the full build the
#     README's one command makes (`go build -o boardbench ./cmd/boardbench`);
#   - `monitor --interval 1s`: RSS after SECS seconds and its CPU use over
#     the last 10 s (median of MRUNS runs), board build.
# Peak RSS counts the binary's own file pages that the process mapped, and
# how many those are depends on how the binary came into the page cache:
#   - "from storage": the binary's cached pages are dropped first (fsync,
#     then posix_fadvise DONTNEED on that one file), so the kernel reads
#     it as a board reads an installed program; this is the figure the
#     targets are judged by;
#   - "as linked": the binary just built, cached as the linker wrote it.
#     Kernels with large folios in the page cache (ext4 since 6.16, XFS,
#     tmpfs) keep it in folios of up to 2 MiB, and Linux 6.18 maps a whole
#     folio at a fault, so nearly the whole binary counts.
# It is a benchmark, not a test: times and RSS depend on the machine and
# its load. It fails (exit 1) only where a board binary is over LIMIT
# bytes (default 12,000,000: issue 22's target), because size is not
# noisy; .ci/run checks the 12 MB target. The report always says whether
# the 12 MB target is met. Needs python3, GNU time and what
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
[ -x /usr/bin/time ] || die "/usr/bin/time not found (apt-get install time)"

if [ -z "${NOBUILD:-}" ]; then
  DIST=$dist scripts/build-all.sh >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; die "build-all.sh failed"; }
fi
# The README's build (full), and this machine's board build with build-all's flags.
go build -o "$work/boardbench-full" ./cmd/boardbench 2>"$work/err" \
  || { cat "$work/err" >&2; die "the README's build did not build"; }
CGO_ENABLED=1 CGO_CFLAGS=-Os go build -trimpath -tags netgo,osusergo,board,nethttpomithttp2,sqlite_omit_load_extension \
  -gcflags=all=-l "-gcflags=std=" "-gcflags=boardbench/internal/probe/...=" \
  -ldflags "-s -w -linkmode external -extldflags -static" -o "$work/boardbench-board" ./cmd/boardbench 2>"$work/err" \
  || { cat "$work/err" >&2; die "the board build for this machine did not build"; }

python3 - "$dist" "$work/boardbench-board" "$runs" "$mruns" "$secs" "$limit" "$work/boardbench-full" >"$work/report.md" <<'PY' || status=$?
import os, shutil, signal, statistics, subprocess, sys, time

dist, board, runs, mruns, secs, limit, full = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
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
    """Wall time to exit in ms (args run as this script's child)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    p.wait()
    return (time.perf_counter() - t0) * 1000

def peak(args):
    """Peak RSS in MiB, as GNU time reports it for its own child. This
    script's own child would not do: Linux carries the RSS high-water mark
    of the process that called exec (python, about 14 MiB) into the
    child's ru_maxrss."""
    out = os.path.join(os.path.dirname(board), "time.out")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    with open(out) as f:
        return int(f.read().split()[-1]) / 1024  # KiB

def from_storage(b):
    """Drops b's cached pages: the next run reads it from storage."""
    fd = os.open(b, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return b

def mib(x): return f"{x:.1f} MiB"

print()
print(f"Start-up (median of {runs} runs; wall time to exit; peak RSS with the binary read from storage,")
print("and as the linker left it in the page cache — see scripts/footprint.sh; 12 MB = 11.4 MiB):")
print()
print("| build | command | time | peak RSS, from storage | peak RSS, as linked |")
print("| --- | --- | ---: | ---: | ---: |")
builds = [("board", board), ("full (README build)", full)]
cmds = (["version"], ["info"])
for name, b in builds:
    # First as the linker left the binary in the page cache, then read
    # from storage (the first run of each command after dropping it).
    linked = {c[0]: statistics.median(peak([b] + c) for _ in range(runs)) for c in cmds}
    for cmd in cmds:
        cold = [peak([from_storage(b)] + cmd)]
        cold += [peak([b] + cmd) for _ in range(runs - 1)]
        t = statistics.median(once([b] + cmd) for _ in range(runs))
        print(f"| {name} | `{' '.join(cmd)}` | {t:.1f} ms | {mib(statistics.median(cold))} | {mib(linked[cmd[0]])} |")

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
        st = {l.split(":")[0]: int(l.split()[1]) for l in f if l.startswith(("VmRSS:", "VmHWM:", "RssAnon:"))}
    p.send_signal(signal.SIGINT)
    p.wait()
    hz = os.sysconf("SC_CLK_TCK")
    # VmHWM, the process's own peak so far (ru_maxrss would carry python's).
    return st["VmRSS"] / 1024, st["RssAnon"] / 1024, st["VmHWM"] / 1024, (c1 - c0) / hz / (t1 - t0) * 100

print()
print(f"`monitor --interval 1s`, board build read from storage (median of {mruns} runs of {secs} s; CPU over the last 10 s):")
print()
print("| RSS at the end | of it anonymous | peak RSS until then | CPU (one core) |")
print("| ---: | ---: | ---: | ---: |")
res = [monitor(from_storage(board)) for _ in range(mruns)]
med = lambda i: statistics.median(r[i] for r in res)
print(f"| {mib(med(0))} | {mib(med(1))} | {mib(med(2))} | {med(3):.2f} % |")
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
