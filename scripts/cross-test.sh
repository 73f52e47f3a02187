#!/usr/bin/env bash
# Runs the clock probe's kernel tests compiled for each architecture with an
# assembly kernel under qemu-user-static: armv6 on an emulated ARM1176
# (Raspberry Pi Zero/1), armv7 on a Cortex-A7, arm64 on a Cortex-A53 and
# riscv64; plus the portable Go kernel (purego) natively. The tests check
# that each kernel runs exactly the expected chain of adds; they never
# assert speed (emulated clocks mean nothing).
#
#   scripts/cross-test.sh            # all targets
#   scripts/cross-test.sh arm64      # one target
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=./internal/probe/clock
only=${1:-}

# name GOARCH GOARM build-tags runner...
targets=(
  "armv6   arm     6 - qemu-arm-static -cpu arm1176"
  "armv7   arm     7 - qemu-arm-static -cpu cortex-a7"
  "arm64   arm64   - - qemu-aarch64-static -cpu cortex-a53"
  "riscv64 riscv64 - - qemu-riscv64-static"
  "purego  $(go env GOHOSTARCH) - purego env"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in "${targets[@]}"; do
  read -r name arch arm tags runner <<<"$t"
  [ -n "$only" ] && [ "$only" != "$name" ] && continue
  read -r -a run <<<"$runner"
  if ! command -v "${run[0]}" >/dev/null; then
    echo "FAIL $name: ${run[0]} not found (apt-get install qemu-user-static)"; fail=1; continue
  fi
  goarm=""
  [ "$arm" != - ] && goarm=$arm
  tagflag=()
  [ "$tags" != - ] && tagflag=(-tags "$tags")
  bin="$tmp/clock-$name.test"
  if ! CGO_ENABLED=0 GOOS=linux GOARCH=$arch GOARM=$goarm go test -c "${tagflag[@]}" -o "$bin" "$pkg" 2>"$tmp/build"; then
    echo "FAIL $name: build"; cat "$tmp/build"; fail=1; continue
  fi
  # Kernel and Chain tests check the instructions; Measure tests check that
  # pinning and timing work under emulation (structure only).
  if "${run[@]}" "$bin" -test.run 'Kernel|Chain|Method|Measure' -test.count=1 -test.v >"$tmp/out" 2>&1; then
    echo "ok   $name: $(grep -c '^--- PASS' "$tmp/out") tests passed ($(grep -m1 -o 'kernel: .*' "$tmp/out" || echo "$arch"))"
    # Under emulation the clock means nothing; shown to prove timing works.
    grep -m1 -o '[0-9.]* MHz on cpu[0-9]* ([a-z0-9-]*)' "$tmp/out" | sed "s/^/       timed: /" || true
  else
    echo "FAIL $name"; tail -20 "$tmp/out"; fail=1
  fi
done
exit $fail
