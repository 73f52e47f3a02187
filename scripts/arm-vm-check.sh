#!/usr/bin/env bash
# Integration check on a real ARM kernel: boots Debian's arm64 kernel under
# qemu-system-aarch64 (4 Cortex-A72 in 2 clusters) with a busybox initramfs
# holding the static arm64 boardbench, runs `info --json` and `capture`
# there, then checks on this machine that
#   - the live description is right (4 × Cortex-A72, MIDR 0x41/0xd08, arm64),
#   - the capture, unpacked here, describes the same machine.
# Needs: qemu-system-arm, cpio, the arm64 cross compiler, and apt access to
# Debian's arm64 packages (dpkg --add-architecture arm64).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d); [ -n "${KEEP:-}" ] && echo "work dir: $work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
kpkg=${kpkg%:arm64}
[ -n "$kpkg" ] || { echo "arm-vm-check: no arm64 kernel package found (dpkg --add-architecture arm64 && apt-get update)" >&2; exit 1; }
(cd "$work" && apt-get download -q "busybox-static:arm64" "$kpkg:arm64" >/dev/null 2>&1) \
  || { echo "arm-vm-check: cannot download $kpkg:arm64 and busybox-static:arm64" >&2; exit 1; }
dpkg-deb -x "$work"/busybox-static_*.deb "$work/bb"
dpkg-deb -x "$work"/linux-image-*.deb "$work/k"
DIST="$work/dist" scripts/build-all.sh arm64 >/dev/null
go build -o "$work/boardbench-host" ./cmd/boardbench

init="$work/initrd"
mkdir -p "$init"/{bin,proc,sys,dev,tmp}
cp "$work/bb/bin/busybox" "$init/bin/"
cp "$work/dist/boardbench-linux-arm64" "$init/bin/boardbench"
cat >"$init/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
echo "@@JSON-BEGIN"
/bin/boardbench info --json
echo "@@JSON-END"
cd /tmp
if /bin/boardbench capture -o c.tar.gz 2>/dev/null; then
  echo "@@CAPTURE-BEGIN"; base64 c.tar.gz; echo "@@CAPTURE-END"
fi
poweroff -f
INIT
chmod +x "$init/init"
(cd "$init" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$work/initrd.gz")

timeout 300 qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 4,clusters=2,cores=2 -m 512 \
  -nographic -no-reboot -kernel "$work"/k/boot/vmlinuz-* -initrd "$work/initrd.gz" \
  -append "console=ttyAMA0 quiet panic=-1" </dev/null >"$work/console.log" 2>&1 || true
tr -d '\r' <"$work/console.log" >"$work/console.txt"
sed -n '/^@@JSON-BEGIN/,/^@@JSON-END/p' "$work/console.txt" | sed '1d;$d' >"$work/live.json"
sed -n '/^@@CAPTURE-BEGIN/,/^@@CAPTURE-END/p' "$work/console.txt" | sed '1d;$d' | base64 -d >"$work/c.tar.gz"
mkdir "$work/root" && tar -xzf "$work/c.tar.gz" -C "$work/root"
"$work/boardbench-host" info --json --root "$work/root" >"$work/replayed.json"

python3 - "$work/live.json" "$work/replayed.json" "$work/root/.boardbench/commands/boardbench_info_--json" <<'PY'
import json, sys
live = json.load(open(sys.argv[1]))
replayed = json.load(open(sys.argv[2]))
# The capture holds the description made from exactly the reads it packed.
captured = json.load(open(sys.argv[3]))
cpus = live["cpu"]["cpus"]
errors = []
if len(cpus) != 4: errors.append(f"{len(cpus)} CPUs, want 4")
for c in cpus:
    if c["core_name"] != "Cortex-A72" or c["implementer"] != "0x41" or c["part"] != "0xd08":
        errors.append(f"cpu{c['id']}: {c['core']} {c['implementer']}/{c['part']}")
if sorted({c.get("topology_cluster") for c in cpus}) != [0, 1]:
    errors.append("kernel topology clusters are not 0 and 1")
if live["cpu"]["arch"] != "arm64" or live["os"]["kernel"]["machine"] != "aarch64":
    errors.append("architecture not arm64/aarch64")
if "QEMU" not in live["soc"]["guess"]:
    errors.append(f"soc guess {live['soc']['guess']!r}")
for doc in (captured, replayed):
    for k in ("collected_at", "root", "tool"):
        doc.pop(k, None)
if captured != replayed:
    for k in captured:
        if captured[k] != replayed.get(k):
            errors.append(f"capture replayed differently in section {k!r}")
if errors:
    print("arm-vm-check FAILED:\n  " + "\n  ".join(errors)); sys.exit(1)
print("ok   arm64 VM: info on a real ARM kernel, capture replays identically")
PY
