#!/usr/bin/env bash
# Cross-architecture check: builds the static binaries for armv6, armv7,
# arm64, riscv64 and amd64, runs `boardbench info --json` with each under
# qemu-user-static (on this machine and on a board fixture), and runs the
# inventory and probe tests compiled for each architecture under qemu.
# armv6 runs on an emulated ARM1176 (Raspberry Pi Zero/1), so an instruction
# the Pi Zero lacks fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
export DIST=${DIST:-$(mktemp -d)}
scripts/build-all.sh

# name GOARCH GOARM qemu cpu-flag
targets=(
  "armv6   arm     6 qemu-arm-static     -cpu arm1176"
  "armv7   arm     7 qemu-arm-static     -cpu cortex-a7"
  "arm64   arm64   - qemu-aarch64-static -cpu cortex-a72"
  "riscv64 riscv64 - qemu-riscv64-static"
  "amd64   amd64   - env"
)
# Packages whose tests run under emulation: parsers and measurement kernels.
pkgs=(
  ./internal/host
  ./internal/inventory/...
  ./internal/probe/...
)
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "${targets[@]}"; do
  read -r name arch arm qemu cpuflag cpu <<<"$t"
  runner=("$qemu")
  [ -n "${cpuflag:-}" ] && runner+=("$cpuflag" "$cpu")
  [ "$qemu" = env ] && runner=(env)
  bin="$DIST/boardbench-linux-$name"
  for root in / testdata/boards/rock5b; do
    if ! "${runner[@]}" "$bin" info --json --root "$root" >"$tmp/info.json" 2>"$tmp/err"; then
      echo "FAIL $name: info --root $root: $(head -c 300 "$tmp/err")"; fail=1; continue
    fi
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema_version"]; assert len(d["cpu"]["cpus"])>0' "$tmp/info.json" \
      || { echo "FAIL $name: info --root $root produced bad JSON"; fail=1; continue; }
  done
  echo "ok   $name: info --json (live and fixture)"
  goarm=""
  [ "$arm" != - ] && goarm=$arm
  for pkgpat in "${pkgs[@]}"; do
    for pkg in $(go list "$pkgpat"); do
      dir=$(go list -f '{{.Dir}}' "$pkg")
      [ -n "$(go list -f '{{join .TestGoFiles " "}}{{join .XTestGoFiles " "}}' "$pkg")" ] || continue
      testbin="$tmp/$(basename "$dir")-$name.test"
      CGO_ENABLED=0 GOARCH=$arch GOARM=$goarm go test -c -o "$testbin" "$pkg"
      if (cd "$dir" && "${runner[@]}" "$testbin" -test.short -test.count=1 >"$tmp/out" 2>&1); then
        echo "ok   $name: $pkg"
      else
        echo "FAIL $name: $pkg"; tail -20 "$tmp/out"; fail=1
      fi
    done
  done
done
# The portable clock kernel (used on architectures without assembly).
if go test -count=1 -tags purego ./internal/probe/clock >"$tmp/out" 2>&1; then
  echo "ok   portable clock kernel (purego)"
else
  echo "FAIL portable clock kernel (purego)"; tail -20 "$tmp/out"; fail=1
fi
exit $fail
