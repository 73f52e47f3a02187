#!/usr/bin/env bash
# Integration check on a real ARM kernel: boots Debian's arm64 kernel under
# qemu-system-aarch64 (4 Cortex-A72 in 2 clusters) and runs the static arm64
# boardbench (the board build of build-all.sh) there: `info --json` and
# `capture`, then checks on this machine that
#   - the live description is right (4 × Cortex-A72, MIDR 0x41/0xd08, arm64),
#   - the capture, unpacked here, describes the same machine.
# The VM has MEM MiB of memory (default 64, the smallest boards' size;
# Debian's generic kernel leaves about 34 MiB of it as MemTotal and 16-17
# MiB available after boot; docs/architecture.md, "The 64 MiB VM as a
# board", says where the rest goes):
# there `info`, `monitor` for 10 s, `mem --quick` and `clock` must succeed,
# and the peak RSS of each (busybox time -v: the kernel's high-water mark)
# is printed, with progress lines while a command runs; a command that
# warns it did not save its result to the results store fails the check.
# With RUN=1, `run --quick` runs first while MemAvailable is sampled every
# 0.2 s: its minimum, and what boardbench took of what the VM had after
# boot, are printed, and the minimum must stay at or above 16 MB (15,625
# KiB); it is not on by default because 7-Zip and openssl under full
# emulation take long (docs/status.md, session 7, has what was seen).
# The programs are on a disk (virtio-blk), as on a board's SD card, so a
# program's pages are read from it and can be dropped again: boardbench,
# busybox and Debian's arm64 7-Zip and openssl (with their libraries).
# KERNEL picks the flavour of Debian's arm64 kernel: arm64 (the default, the
# generic kernel: MemTotal 34.4 MiB, MemAvailable about 18 MiB after boot
# at 64 MiB) or cloud-arm64 (a smaller image for virtual machines: MemTotal
# 38.0 MiB, MemAvailable about 23 MiB), closer to what a small board's own
# kernel leaves.
# DISK=squashfs (the default): a read-only squashfs root; the results and
# the results store are on the tmpfs /tmp. DISK=ext4: a read-write ext4
# root (made by mke2fs -d, without root or loop devices) where the results
# and the store (~/.local/share/boardbench/results.db) are written, as on
# a board; ext4 and its modules leave the VM about 1 MiB less, so CI keeps
# the squashfs disk (docs/status.md, session 7). /run is tmpfs. The initramfs holds busybox, the
# modules that mount the disk (Debian's kernel has virtio_blk, squashfs
# and ext4 as modules) and a short init. With everything in the
# initramfs, 64 MiB does not boot (the kernel panics "System is
# deadlocked on memory" while unpacking it: an initramfs sits in memory
# twice, packed and unpacked).
# Needs: qemu-system-arm, cpio, gzip, squashfs-tools (DISK=ext4: e2fsprogs,
# mke2fs 1.43 or later), python3, the arm64 cross compiler, and apt
# access to Debian's arm64 packages (dpkg --add-architecture arm64).
# The VM has no network card (-nic none), so no network option ROM is needed.
# KEEP=1 keeps the work directory. Every failure ends in one
# "arm-vm-check: ..." line saying what failed.
set -euo pipefail
cd "$(dirname "$0")/.."
# mke2fs is in /sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
work=$(mktemp -d); [ -n "${KEEP:-}" ] && echo "work dir: $work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

die() { echo "arm-vm-check: $*" >&2; exit 1; }
# lastline FILE: the file's last non-empty line, without carriage returns.
lastline() { tr -d '\r' <"$1" | grep -v '^[[:space:]]*$' | tail -n1 | cut -c1-300; }

disk=${DISK:-squashfs}
case $disk in
squashfs) mkfs=mksquashfs:squashfs-tools ;;
ext4) mkfs=mke2fs:e2fsprogs ;;
*) die "DISK=$disk: squashfs or ext4" ;;
esac
for tool in qemu-system-aarch64:qemu-system-arm cpio:cpio gzip:gzip python3:python3 \
  $mkfs apt-get:apt dpkg-deb:dpkg base64:coreutils timeout:coreutils; do
  command -v "${tool%%:*}" >/dev/null || die "${tool%%:*} not found (apt-get install ${tool#*:})"
done
mem=${MEM:-64}
vmtimeout=${VMTIMEOUT:-1800}

kflavour=${KERNEL:-arm64}
kpkg=$(apt-cache depends "linux-image-$kflavour:arm64" 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}' || true)
kpkg=${kpkg%:arm64}
[ -n "$kpkg" ] || die "no arm64 kernel package found (dpkg --add-architecture arm64 && apt-get update)"
# 7-Zip and openssl for `run --quick`, with the libraries they link.
pkgs="busybox-static $kpkg 7zip openssl libssl3 libc6 libstdc++6 libgcc-s1"
(cd "$work" && apt-get download -q $(printf '%s:arm64 ' $pkgs) >"$work/download.log" 2>&1) \
  || die "cannot download the arm64 packages ($pkgs): $(lastline "$work/download.log")"
sys="$work/sys"
mkdir -p "$work/k" "$sys"
for deb in "$work"/*.deb; do
  case $deb in
  */linux-image-*) dest="$work/k" ;;
  *) dest="$sys" ;;
  esac
  dpkg-deb -x "$deb" "$dest" 2>"$work/err" || die "cannot unpack $(basename "$deb"): $(lastline "$work/err")"
done
kernel=$(ls "$work"/k/boot/vmlinuz-* 2>/dev/null | head -n1 || true)
[ -n "$kernel" ] || die "$kpkg holds no /boot/vmlinuz-*"
DIST="$work/dist" scripts/build-all.sh arm64 >/dev/null || die "the arm64 binary did not build (see above)"
go build -o "$work/boardbench-host" ./cmd/boardbench 2>"$work/err" || { cat "$work/err" >&2; die "the host binary did not build: $(lastline "$work/err")"; }

# The disk: an ext4 root with boardbench, busybox, 7-Zip and openssl, where
# the results and the store are written; tmpfs on /tmp and /run (the
# tuning state) in the VM.
mkdir -p "$sys"/{bin,proc,sys,dev,tmp,run,root}
cp "$work/dist/boardbench-linux-arm64" "$sys/bin/boardbench"
# Markers on the console delimit the results; a failing command reports its
# last error line instead.
cat >"$sys/init" <<'INIT'
#!/bin/busybox sh
b=/bin/busybox
$b mount -t proc proc /proc
$b mount -t sysfs sysfs /sys
# /dev/null and friends: the shell opens /dev/null for every background job.
$b mount -t devtmpfs devtmpfs /dev
$b mount -t tmpfs tmpfs /tmp
$b mount -t tmpfs tmpfs /run
# On the ext4 disk the results, the command outputs and the store (its
# default place, ~/.local/share/boardbench/results.db) are on the disk;
# on the read-only squashfs disk they are on the tmpfs, as are the
# applets' links.
if $b touch /root/.rw 2>/dev/null; then
  $b rm /root/.rw
  home=/root links=/usr/local/bin
else
  home=/tmp links=/tmp/bin
fi
$b mkdir -p $links && $b --install -s $links
export PATH=$links:/bin:/usr/bin HOME=$home
cd $home
echo "@@MEMORY $(sed -n 's/^MemTotal:[^0-9]*\([0-9]*\).*/\1/p' /proc/meminfo) $(sed -n 's/^MemAvailable:[^0-9]*\([0-9]*\).*/\1/p' /proc/meminfo)"
# getfield FILE KEY: sets val to the first word after "KEY:" in FILE
# ("" when absent), with shell builtins only: the loops below run while
# boardbench measures, and a fork of sed or grep for every sample would
# take the emulated CPUs and memory from what is measured.
getfield() {
  val=
  { while read -r k v _; do
    [ "$k" = "$2:" ] && { val=$v; return; }
  done <"$1"; } 2>/dev/null
}
# progress NAME PID: a line now and then, so that a slow or thrashing VM
# shows how far it got: the command's RSS and MemAvailable (kB), and the
# major page faults of the whole system so far.
progress() {
  child_of "$2"
  getfield /proc/$child/status VmRSS; rss=$val
  getfield /proc/meminfo MemAvailable
  echo "@@PROGRESS $1 $(date +%s) rss=$rss available=$val $(grep '^pgmajfault ' /proc/vmstat)"
}
# child_of PID: sets child to a child process of PID (shell builtins only:
# the VM's busybox has no pgrep applet installed).
child_of() {
  child=
  for s in /proc/[0-9]*/stat; do
    { read -r cpid _ _ ppid _ <"$s"; } 2>/dev/null || continue
    [ "$ppid" = "$1" ] && { child=$cpid; return; }
  done
}
# peak NAME SECS CMD...: runs CMD under busybox's time (stopped with SIGINT
# after SECS seconds unless SECS is 0) and prints its exit status and peak
# RSS in KiB: the "Maximum resident set size" of time -v, the kernel's own
# high-water mark of the process (time ignores SIGINT while it waits).
# busybox 1.35's time takes ru_maxrss (already KiB) for a count of pages
# and multiplies it by the page size in KiB: 4 with the 4 KiB pages of
# Debian's arm64 kernel, so its figure is divided by 4 here.
peak() {
  name=$1 secs=$2; shift 2
  echo "@@START $name $(date +%s)"
  time -v -o "$name.time" "$@" >"$name.out" 2>"$name.err" &
  pid=$! n=0
  while :; do
    getfield /proc/$pid/status State
    [ -n "$val" ] && [ "$val" != Z ] || break
    sleep 1
    n=$((n + 1))
    [ "$secs" != 0 ] && [ "$n" = "$secs" ] && { child_of $pid; [ -n "$child" ] && kill -INT $child 2>/dev/null; }
    [ $((n % 60)) = 0 ] && progress "$name" $pid
  done
  wait $pid
  rc=$?
  hwm=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): *\([0-9]*\).*/\1/p' "$name.time")
  [ -n "$hwm" ] && hwm=$((hwm / 4))
  echo "@@RSS $name $rc ${hwm:-0} $(grep -v '^[[:space:]]*$' "$name.err" | tail -n1)"
  grep 'warning:' "$name.err" | sed "s/^/@@WARN $name /"
}
if grep -q 'boardbench.run=1' /proc/cmdline; then
  # run --quick with MemAvailable sampled every 0.2 s (kB): its minimum is
  # what the board had left at the worst moment. At each new minimum the
  # script notes what held the memory then: run's and its child's
  # anonymous and file RSS, and the system's anonymous pages, shmem
  # (tmpfs), slab, kernel stacks and page tables (kB).
  getfield /proc/meminfo MemAvailable; before=$val
  echo "@@START run $(date +%s)"
  /bin/boardbench run --quick -o run.json >run.out 2>run.err &
  pid=$! low= n=0 at=
  while :; do
    getfield /proc/$pid/status State
    [ -n "$val" ] && [ "$val" != Z ] || break
    getfield /proc/meminfo MemAvailable
    if [ -n "$val" ] && { [ -z "$low" ] || [ "$val" -lt "$low" ]; }; then
      low=$val
      getfield /proc/$pid/status RssAnon; at="run=anon:$val"
      getfield /proc/$pid/status RssFile; at="$at,file:$val"
      child_of $pid
      if [ -n "$child" ]; then
        { read -r cname <"/proc/$child/comm"; } 2>/dev/null || cname=?
        getfield /proc/$child/status RssAnon; at="$at $cname=anon:$val"
        getfield /proc/$child/status RssFile; at="$at,file:$val"
      fi
      # The system's share, in one read of /proc/meminfo.
      { while read -r mk mv _; do
        case $mk in AnonPages:|Shmem:|Slab:|KernelStack:|PageTables:) at="$at ${mk%:}=$mv" ;; esac
      done </proc/meminfo; } 2>/dev/null
    fi
    # The minimum so far, now and then: a run cut off by the host's
    # timeout still reports it.
    n=$((n + 1))
    [ $((n % 50)) = 0 ] && echo "@@RUNLOW $(date +%s) $low $(tail -n1 run.err 2>/dev/null)"
    sleep 0.2
  done
  wait $pid
  rc=$?
  echo "@@RUN $rc ${low:-unknown} ${before:-unknown} $(grep -v '^[[:space:]]*$' run.err | tail -n1)"
  echo "@@RUNAT $at"
  grep 'warning:' run.err | sed 's/^/@@WARN run /'
  grep -E '^(7-Zip|openssl|memory)' run.out | head -n 6 | sed 's/^/@@RUNOUT /'
fi
peak info 0 /bin/boardbench info
peak monitor 0 /bin/boardbench monitor --interval 1s --count 10
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
sync
poweroff -f
INIT
chmod +x "$sys/init"
# ext4 in 4 KiB blocks, filled from the directory by mke2fs -d (no root,
# no loop device), every file owned by root, with 64 MiB free for the
# results and the store; the image file is sparse.
# DISK=squashfs (the default): read-only, uncompressed, in 4 KiB blocks,
# so a page fault reads pages from the disk with no compressed block to
# unpack in the emulated CPU.
if [ "$disk" = ext4 ]; then
  size=$(( $(du -sk "$sys" | cut -f1) / 1024 + 64 ))
  truncate -s "${size}M" "$work/sys.img" 2>"$work/err" || die "cannot make the disk image: $(lastline "$work/err")"
  mke2fs -q -F -t ext4 -b 4096 -m 0 -E root_owner=0:0 -d "$sys" "$work/sys.img" >"$work/err" 2>&1 \
    || die "cannot make the ext4 disk (mke2fs -d): $(lastline "$work/err")"
  fsmods="lib/crc16 crypto/crc32c_generic fs/mbcache fs/jbd2/jbd2 fs/ext4/ext4" mountopts="-t ext4" ro=
else
  mksquashfs "$sys" "$work/sys.img" -noappend -noI -noId -noD -noF -noX -b 4096 -all-root -quiet >"$work/err" 2>&1 \
    || die "cannot make the squashfs disk: $(lastline "$work/err")"
  fsmods=fs/squashfs/squashfs mountopts="-t squashfs -o ro" ro=",readonly=on"
fi

# The initramfs: busybox, the modules that mount the disk, and an init that
# mounts it and switches to it.
init="$work/initrd"
mods=$(ls -d "$work"/k/lib/modules/*/kernel)
mkdir -p "$init"/{bin,proc,dev,new,lib}
cp "$sys/bin/busybox" "$init/bin/"
# ext4 needs jbd2, mbcache and crc16, and crc32c for its checksums; the
# init loads the modules in the order of /lib/order.
for m in drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci \
  drivers/block/virtio_blk $fsmods; do
  # A flavour that builds the driver in has no module to load.
  grep -qx "kernel/$m.ko" "$mods/../modules.builtin" 2>/dev/null && continue
  cp "$mods/$m.ko" "$init/lib/" 2>"$work/err" || die "$kpkg lacks the module $m: $(lastline "$work/err")"
  echo "${m##*/}" >>"$init/lib/order"
done
echo "$mountopts" >"$init/lib/mount"
cat >"$init/init" <<'INIT'
#!/bin/busybox sh
b=/bin/busybox
$b mount -t proc proc /proc
$b mount -t devtmpfs devtmpfs /dev
for m in $($b cat /lib/order); do
  $b insmod /lib/$m.ko || echo "@@BOOT-FAILED insmod $m"
done
n=0
while [ ! -b /dev/vda ] && [ $n -lt 100 ]; do $b sleep 0.1; n=$((n + 1)); done
$b mount $($b cat /lib/mount) /dev/vda /new || echo "@@BOOT-FAILED cannot mount the disk ($($b cat /lib/mount))"
$b umount /dev /proc
exec $b switch_root /new /init
INIT
chmod +x "$init/init"
(cd "$init" && find . | cpio -o -H newc 2>"$work/err" | gzip -9 >"$work/initrd.gz") \
  || die "cannot pack the initramfs: $(lastline "$work/err")"

rc=0
run_arg=; [ "${RUN:-0}" = 1 ] && run_arg=" boardbench.run=1"
timeout "$vmtimeout" qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 4,clusters=2,cores=2 -m "$mem" \
  -nic none -nographic -no-reboot -kernel "$kernel" -initrd "$work/initrd.gz" \
  -drive "file=$work/sys.img,if=none,format=raw,id=sys$ro" -device virtio-blk-pci,drive=sys \
  -append "console=ttyAMA0 quiet panic=-1$run_arg" </dev/null >"$work/console.log" 2>&1 || rc=$?
tr -d '\r' <"$work/console.log" >"$work/console.txt"
if ! grep -q '^@@' "$work/console.txt"; then
  [ "$rc" = 124 ] && die "the VM printed no result within $vmtimeout s: $(lastline "$work/console.txt")"
  [ "$rc" != 0 ] && die "qemu did not start (exit $rc): $(lastline "$work/console.txt")"
  why=$(grep -m1 'Kernel panic' "$work/console.txt" | cut -c1-300 || true)
  die "the VM printed no result: ${why:-$(lastline "$work/console.txt")}"
fi
boot=$(sed -n 's/^@@BOOT-FAILED //p' "$work/console.txt" | head -n1)
[ -z "$boot" ] || die "the VM could not mount its disk: $boot"
line=$(grep -m1 '^@@MEMORY ' "$work/console.txt" || true)
[ -z "$line" ] || { read -r _ total avail <<<"$line"; printf 'ok   arm64 VM, %s MiB: booted, MemTotal %.1f MiB, MemAvailable %.1f MiB\n' "$mem" "$(awk -v k="$total" 'BEGIN{print k/1024}')" "$(awk -v k="$avail" 'BEGIN{print k/1024}')"; }
# The small-memory run: each command succeeded (monitor stopped by SIGINT
# may say so with 130; a measurement whose verdict is "not valid" in an
# emulated machine exits 3, still measured), with its peak RSS.
for name in info monitor mem clock; do
  line=$(grep -m1 "^@@RSS $name " "$work/console.txt" || true)
  [ -n "$line" ] || die "the VM did not run $name (qemu exit $rc): $(lastline "$work/console.txt")"
  read -r _ _ code hwm why <<<"$line"
  if [ "$code" != 0 ] && ! { [ "$name" = monitor ] && [ "$code" = 130 ]; } \
    && ! { [ "$code" = 3 ] && [ "$name" != info ] && [ "$name" != monitor ]; }; then
    die "boardbench $name failed in the $mem MiB VM (exit $code): $why"
  fi
  printf 'ok   arm64 VM, %s MiB: %-8s exit %-3s peak RSS %6.1f MiB\n' "$mem" "$name" "$code" "$(awk -v k="$hwm" 'BEGIN{print k/1024}')"
done
# A measuring command that could not save its result to the store (the
# whole warning line, cause and all).
warn=$(grep -m1 '^@@WARN [a-z]* .*not saved to the results store' "$work/console.txt" || true)
if [ -n "$warn" ]; then
  read -r _ name why <<<"$warn"
  die "boardbench $name in the $mem MiB VM: $why"
fi
# run --quick: measured (0, or 3 when its verdict in an emulated machine
# is "not valid"), and MemAvailable never below 16 MB (/proc/meminfo's
# "kB" are KiB: 16,000,000 bytes are 15,625 of them).
if [ "${RUN:-0}" = 1 ]; then
  line=$(grep -m1 "^@@RUN " "$work/console.txt" || true)
  if [ -z "$line" ]; then
    # Cut off (the host's timeout): the lowest MemAvailable seen until then.
    low=$(grep '^@@RUNLOW ' "$work/console.txt" | tail -n1 | cut -d' ' -f3)
    [ -z "$low" ] || printf 'info arm64 VM, %s MiB: run --quick did not finish; MemAvailable at least %.1f MB (%.1f MiB) until then\n' "$mem" "$(awk -v k="$low" 'BEGIN{print k*1024/1e6}')" "$(awk -v k="$low" 'BEGIN{print k/1024}')"
    die "the VM did not finish run --quick (qemu exit $rc): $(lastline "$work/console.txt")"
  fi
  read -r _ code low before why <<<"$line"
  [ "$code" = 0 ] || [ "$code" = 3 ] || die "boardbench run --quick failed in the $mem MiB VM (exit $code): $why"
  grep '^@@RUNOUT ' "$work/console.txt" | sed 's/^@@RUNOUT /     /' || true
  case $low in ''|*[!0-9]*) die "run --quick: MemAvailable was not sampled ($low)" ;; esac
  case $before in
  ''|*[!0-9]*) ;;
  *) printf 'info arm64 VM, %s MiB: run --quick: MemAvailable %.1f MiB before, %.1f MiB at its lowest (boardbench took %.1f MiB)\n' "$mem" \
    "$(awk -v k="$before" 'BEGIN{print k/1024}')" "$(awk -v k="$low" 'BEGIN{print k/1024}')" "$(awk -v a="$before" -v b="$low" 'BEGIN{print (a-b)/1024}')" ;;
  esac
  at=$(sed -n 's/^@@RUNAT //p' "$work/console.txt" | head -n1)
  [ -z "$at" ] || echo "info arm64 VM, $mem MiB: at the lowest (kB): $at"
  warn=$(grep -m1 '^@@WARN run .*not saved to the results store' "$work/console.txt" || true)
  [ -z "$warn" ] || die "boardbench run in the $mem MiB VM: ${warn#@@WARN run }"
  [ "$low" -ge 15625 ] || die "run --quick left $(awk -v k="$low" 'BEGIN{printf "%.1f", k*1024/1e6}') MB available in the $mem MiB VM (at least 16 MB wanted)"
  printf 'ok   arm64 VM, %s MiB: run --quick (exit %s), MemAvailable at least %.1f MB (%.1f MiB) throughout\n' "$mem" "$code" "$(awk -v k="$low" 'BEGIN{print k*1024/1e6}')" "$(awk -v k="$low" 'BEGIN{print k/1024}')"
fi
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
