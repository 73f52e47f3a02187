#!/usr/bin/env bash
# Cross-architecture check: builds the static binaries for armv6, armv7,
# arm64, riscv64 and amd64, runs `boardbench info --json` with each under
# qemu-user-static (on this machine and on a board fixture), and runs the
# inventory and probe tests compiled for each architecture under qemu.
# armv6 runs on an emulated ARM1176 (Raspberry Pi Zero/1), so an instruction
# the Pi Zero lacks fails here.
#
# qemu is called explicitly (qemu-arm-static BINARY), so the check needs no
# binfmt_misc registration. Needs: the cross compilers (see build-all.sh),
# qemu-user-static and python3. Every failure is one "FAIL ..." line; the
# last line says how many checks failed.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DIST=${DIST:-$tmp/dist}

for tool in qemu-arm-static qemu-aarch64-static qemu-riscv64-static; do
  command -v "$tool" >/dev/null || { echo "cross-check: $tool not found (apt-get install qemu-user-static)" >&2; exit 1; }
done
command -v python3 >/dev/null || { echo "cross-check: python3 not found (apt-get install python3)" >&2; exit 1; }
scripts/build-all.sh || { echo "cross-check: the static binaries did not build (see above)" >&2; exit 1; }

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
# lastline FILE: the file's last non-empty line, for one-line failure reports.
lastline() { grep -v '^[[:space:]]*$' "$1" | tail -n1 | cut -c1-300; }

failed=0 checks=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
for t in "${targets[@]}"; do
  read -r name arch arm qemu cpuflag cpu <<<"$t"
  runner=("$qemu")
  [ -n "${cpuflag:-}" ] && runner+=("$cpuflag" "$cpu")
  bin="$DIST/boardbench-linux-$name"
  info_ok=1
  for root in / testdata/boards/rock5b; do
    checks=$((checks + 1))
    if ! "${runner[@]}" "$bin" info --json --root "$root" >"$tmp/info.json" 2>"$tmp/err"; then
      fail "$name: info --root $root: $(lastline "$tmp/err")"; info_ok=0; continue
    fi
    if ! why=$(python3 - "$tmp/info.json" 2>&1 <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit(f"not JSON ({e})")
if not d.get("schema_version"):
    sys.exit("no schema_version")
if not d.get("cpu", {}).get("cpus"):
    sys.exit("no CPUs")
PY
    ); then
      fail "$name: info --root $root produced bad JSON: $(tail -n1 <<<"$why")"; info_ok=0
    fi
  done
  [ "$info_ok" = 1 ] && echo "ok   $name: info --json (live and fixture)"
  goarm=""
  [ "$arm" != - ] && goarm=$arm
  for pkgpat in "${pkgs[@]}"; do
    for pkg in $(go list "$pkgpat"); do
      dir=$(go list -f '{{.Dir}}' "$pkg")
      [ -n "$(go list -f '{{join .TestGoFiles " "}}{{join .XTestGoFiles " "}}' "$pkg")" ] || continue
      checks=$((checks + 1))
      testbin="$tmp/$(basename "$dir")-$name.test"
      if ! CGO_ENABLED=0 GOARCH=$arch GOARM=$goarm go test -c -o "$testbin" "$pkg" >"$tmp/out" 2>&1; then
        sed 's/^/    /' "$tmp/out" | tail -20
        fail "$name: $pkg: tests do not compile: $(lastline "$tmp/out")"; continue
      fi
      if (cd "$dir" && "${runner[@]}" "$testbin" -test.short -test.count=1 >"$tmp/out" 2>&1); then
        echo "ok   $name: $pkg"
      else
        sed 's/^/    /' "$tmp/out" | tail -20
        fail "$name: $pkg: tests failed under ${runner[*]}: $(grep -m1 -- '--- FAIL' "$tmp/out" || lastline "$tmp/out")"
      fi
    done
  done
done
# The portable clock kernel (used on architectures without assembly).
checks=$((checks + 1))
if go test -count=1 -tags purego ./internal/probe/clock >"$tmp/out" 2>&1; then
  echo "ok   portable clock kernel (purego)"
else
  sed 's/^/    /' "$tmp/out" | tail -20
  fail "portable clock kernel (purego): $(grep -m1 -- '--- FAIL' "$tmp/out" || lastline "$tmp/out")"
fi
if [ "$failed" -gt 0 ]; then
  echo "cross-check: $failed of $checks checks failed (FAIL lines above)" >&2
  exit 1
fi
echo "cross-check: all $checks checks passed"
