#!/usr/bin/env bash
# Integration check on a real ARM kernel: boots Debian's arm64 kernel under
# qemu-system-aarch64 (4 Cortex-A72 in 2 clusters) with a busybox initramfs
# holding the static arm64 boardbench (the board build of build-all.sh),
# runs `info --json` and `capture` there, then checks on this machine that
#   - the live description is right (4 × Cortex-A72, MIDR 0x41/0xd08, arm64),
#   - the capture, unpacked here, describes the same machine.
# The VM has MEM MiB of memory (default 128, the small boards' size): there
# `info`, `monitor` for 10 s, `mem --quick` and `clock` must succeed, and
# the peak RSS of each (VmHWM, polled every 0.1 s) is printed.
# Needs: qemu-system-arm, cpio, gzip, python3, the arm64 cross compiler, and
# apt access to Debian's arm64 packages (dpkg --add-architecture arm64).
# The VM has no network card (-nic none), so no network option ROM is needed.
# KEEP=1 keeps the work directory. Every failure ends in one
# "arm-vm-check: ..." line saying what failed.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d); [ -n "${KEEP:-}" ] && echo "work dir: $work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

die() { echo "arm-vm-check: $*" >&2; exit 1; }
# lastline FILE: the file's last non-empty line, without carriage returns.
lastline() { tr -d '\r' <"$1" | grep -v '^[[:space:]]*$' | tail -n1 | cut -c1-300; }

for tool in qemu-system-aarch64:qemu-system-arm cpio:cpio gzip:gzip python3:python3 \
  apt-get:apt dpkg-deb:dpkg base64:coreutils timeout:coreutils; do
  command -v "${tool%%:*}" >/dev/null || die "${tool%%:*} not found (apt-get install ${tool#*:})"
done

kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}' || true)
kpkg=${kpkg%:arm64}
[ -n "$kpkg" ] || die "no arm64 kernel package found (dpkg --add-architecture arm64 && apt-get update)"
(cd "$work" && apt-get download -q "busybox-static:arm64" "$kpkg:arm64" >"$work/download.log" 2>&1) \
  || die "cannot download $kpkg:arm64 and busybox-static:arm64: $(lastline "$work/download.log")"
dpkg-deb -x "$work"/busybox-static_*.deb "$work/bb" 2>"$work/err" || die "cannot unpack busybox-static: $(lastline "$work/err")"
dpkg-deb -x "$work"/linux-image-*.deb "$work/k" 2>"$work/err" || die "cannot unpack $kpkg: $(lastline "$work/err")"
kernel=$(ls "$work"/k/boot/vmlinuz-* 2>/dev/null | head -n1 || true)
[ -n "$kernel" ] || die "$kpkg holds no /boot/vmlinuz-*"
DIST="$work/dist" scripts/build-all.sh arm64 >/dev/null || die "the arm64 binary did not build (see above)"
go build -o "$work/boardbench-host" ./cmd/boardbench 2>"$work/err" || { cat "$work/err" >&2; die "the host binary did not build: $(lastline "$work/err")"; }

init="$work/initrd"
mkdir -p "$init"/{bin,proc,sys,dev,tmp}
cp "$work/bb/bin/busybox" "$init/bin/"
cp "$work/dist/boardbench-linux-arm64" "$init/bin/boardbench"
# Markers on the console delimit the results; a failing command reports its
# last error line instead.
cat >"$init/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# /dev/null and friends: the shell opens /dev/null for every background job.
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
cd /tmp
export HOME=/tmp BOARDBENCH_STORE=/tmp/results.db
# peak NAME SECS CMD...: runs CMD (stopped with SIGINT after SECS seconds
# unless SECS is 0) and prints its exit status and peak RSS in kB.
peak() {
  name=$1 secs=$2; shift 2
  "$@" >"$name.out" 2>"$name.err" &
  pid=$! hwm=0 n=0
  while [ -d /proc/$pid ] && ! grep -q '^State:.*Z' /proc/$pid/status 2>/dev/null; do
    v=$(sed -n 's/^VmHWM:[^0-9]*\([0-9]*\).*/\1/p' /proc/$pid/status 2>/dev/null)
    [ -n "$v" ] && hwm=$v
    n=$((n + 1))
    [ "$secs" != 0 ] && [ "$n" = $((secs * 10)) ] && kill -INT $pid
    sleep 0.1
  done
  wait $pid
  rc=$?
  echo "@@RSS $name $rc $hwm $(grep -v '^[[:space:]]*$' "$name.err" | tail -n1)"
}
peak info 0 /bin/boardbench info
peak monitor 10 /bin/boardbench monitor --interval 1s
peak mem 0 /bin/boardbench mem --quick -o mem.json
peak clock 0 /bin/boardbench clock -o clock.json
echo "@@MEMAVAILABLE $(sed -n 's/^MemAvailable:[^0-9]*\([0-9]*\).*/\1/p' /proc/meminfo)"
if /bin/boardbench info --json >info.json 2>info.err; then
  echo "@@JSON-BEGIN"; cat info.json; echo "@@JSON-END"
else
  echo "@@JSON-FAILED $(tail -n1 info.err)"
fi
if /bin/boardbench capture -o c.tar.gz 2>capture.err; then
  echo "@@CAPTURE-BEGIN"; base64 c.tar.gz; echo "@@CAPTURE-END"
else
  echo "@@CAPTURE-FAILED $(tail -n1 capture.err)"
fi
poweroff -f
INIT
chmod +x "$init/init"
(cd "$init" && find . | cpio -o -H newc 2>"$work/err" | gzip -1 >"$work/initrd.gz") \
  || die "cannot pack the initramfs: $(lastline "$work/err")"

rc=0
timeout 900 qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 4,clusters=2,cores=2 -m "${MEM:-128}" \
  -nic none -nographic -no-reboot -kernel "$kernel" -initrd "$work/initrd.gz" \
  -append "console=ttyAMA0 quiet panic=-1" </dev/null >"$work/console.log" 2>&1 || rc=$?
tr -d '\r' <"$work/console.log" >"$work/console.txt"
if ! grep -q '^@@' "$work/console.txt"; then
  [ "$rc" = 124 ] && die "the VM printed no result within 900 s: $(lastline "$work/console.txt")"
  [ "$rc" != 0 ] && die "qemu did not start (exit $rc): $(lastline "$work/console.txt")"
  why=$(grep -m1 'Kernel panic' "$work/console.txt" | cut -c1-300 || true)
  die "the VM printed no result: ${why:-$(lastline "$work/console.txt")}"
fi
# The small-memory run: each command succeeded (monitor stopped by SIGINT
# may say so with 130; a measurement whose verdict is "not valid" in an
# emulated machine exits 3, still measured), with its peak RSS.
for name in info monitor mem clock; do
  line=$(grep -m1 "^@@RSS $name " "$work/console.txt" || true)
  [ -n "$line" ] || die "the VM did not run $name (qemu exit $rc): $(lastline "$work/console.txt")"
  read -r _ _ code hwm why <<<"$line"
  if [ "$code" != 0 ] && ! { [ "$name" = monitor ] && [ "$code" = 130 ]; } \
    && ! { [ "$code" = 3 ] && [ "$name" != info ] && [ "$name" != monitor ]; }; then
    die "boardbench $name failed in the ${MEM:-128} MiB VM (exit $code): $why"
  fi
  printf 'ok   arm64 VM, %s MiB: %-8s peak RSS %6.1f MiB\n' "${MEM:-128}" "$name" "$(awk -v k="$hwm" 'BEGIN{print k/1024}')"
done
failed=$(sed -n 's/^@@JSON-FAILED //p' "$work/console.txt")
[ -z "$failed" ] || die "boardbench info --json failed in the VM: $failed"
grep -q '^@@JSON-END' "$work/console.txt" || die "the VM's info --json output is cut off (qemu exit $rc)"
sed -n '/^@@JSON-BEGIN/,/^@@JSON-END/p' "$work/console.txt" | sed '1d;$d' >"$work/live.json"
failed=$(sed -n 's/^@@CAPTURE-FAILED //p' "$work/console.txt")
[ -z "$failed" ] || die "boardbench capture failed in the VM: $failed"
grep -q '^@@CAPTURE-END' "$work/console.txt" || die "the VM's capture output is cut off (qemu exit $rc)"
sed -n '/^@@CAPTURE-BEGIN/,/^@@CAPTURE-END/p' "$work/console.txt" | sed '1d;$d' >"$work/c.b64"
base64 -d "$work/c.b64" >"$work/c.tar.gz" 2>"$work/err" || die "the VM's capture is not valid base64: $(lastline "$work/err")"
mkdir "$work/root"
tar -xzf "$work/c.tar.gz" -C "$work/root" 2>"$work/err" || die "the VM's capture is not a readable tar.gz: $(lastline "$work/err")"
"$work/boardbench-host" info --json --root "$work/root" >"$work/replayed.json" 2>"$work/err" \
  || die "info --root on the VM's capture failed: $(lastline "$work/err")"

python3 - "$work/live.json" "$work/replayed.json" "$work/root/.boardbench/commands/boardbench_info_--json" <<'PY'
import json, sys

def load(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"arm-vm-check: {what} is not readable JSON: {e}", file=sys.stderr)
        sys.exit(1)

live = load(sys.argv[1], "the VM's info --json")
replayed = load(sys.argv[2], "info --root on the capture")
# The capture holds the description made from exactly the reads it packed.
captured = load(sys.argv[3], "the capture's own description")
errors = []
try:
    cpus = live["cpu"]["cpus"]
    if len(cpus) != 4: errors.append(f"{len(cpus)} CPUs, want 4")
    for c in cpus:
        if c.get("core_name") != "Cortex-A72" or c.get("implementer") != "0x41" or c.get("part") != "0xd08":
            errors.append(f"cpu{c.get('id')}: {c.get('core_name')} {c.get('implementer')}/{c.get('part')}")
    if sorted({c.get("topology_cluster") for c in cpus}, key=str) != [0, 1]:
        errors.append("kernel topology clusters are not 0 and 1")
    if live["cpu"].get("arch") != "arm64" or live.get("os", {}).get("kernel", {}).get("machine") != "aarch64":
        errors.append("architecture not arm64/aarch64")
    if "QEMU" not in (live.get("soc", {}).get("guess") or ""):
        errors.append(f"soc guess {live.get('soc', {}).get('guess')!r}")
except (KeyError, TypeError) as e:
    errors.append(f"the VM's description lacks {e}")
for doc in (captured, replayed):
    for k in ("collected_at", "root", "tool"):
        doc.pop(k, None)
if captured != replayed:
    for k in sorted(set(captured) | set(replayed)):
        if captured.get(k) != replayed.get(k):
            errors.append(f"capture replayed differently in section {k!r}")
if errors:
    print("arm-vm-check: FAILED: " + "; ".join(errors), file=sys.stderr)
    sys.exit(1)
print("ok   arm64 VM: info on a real ARM kernel, capture replays identically")
PY
