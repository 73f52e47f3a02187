#!/usr/bin/env bash
# Builds one static boardbench binary per architecture into dist/:
# armv6 (Raspberry Pi Zero/1), armv7, arm64, riscv64 and amd64. The binaries
# link the C library statically (cgo), which the libc memcpy/memset figures
# need; cross compilers come from Debian's gcc-<triplet> packages.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DIST:-dist}
mkdir -p "$out"
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
ldflags="-s -w -X boardbench/internal/buildinfo.Version=$version -linkmode external -extldflags -static"

# target: name GOARCH GOARM CC
targets=(
  "armv6   arm     6 arm-linux-gnueabi-gcc"
  "armv7   arm     7 arm-linux-gnueabihf-gcc"
  "arm64   arm64   - aarch64-linux-gnu-gcc"
  "riscv64 riscv64 - riscv64-linux-gnu-gcc"
  "amd64   amd64   - x86_64-linux-gnu-gcc"
)
only=${1:-}
for t in "${targets[@]}"; do
  read -r name arch arm cc <<<"$t"
  [ -n "$only" ] && [ "$only" != "$name" ] && continue
  if [ "$arch" = amd64 ] && [ "$(uname -m)" = x86_64 ]; then cc=gcc; fi
  if ! command -v "$cc" >/dev/null; then
    echo "build-all: $cc not found (apt-get install gcc-${cc%-gcc})" >&2
    exit 1
  fi
  goarm=""
  [ "$arm" != - ] && goarm=$arm
  CGO_ENABLED=1 CC=$cc GOOS=linux GOARCH=$arch GOARM=$goarm \
    go build -trimpath -tags netgo,osusergo -ldflags "$ldflags" \
    -o "$out/boardbench-linux-$name" ./cmd/boardbench
  printf '%-8s %8d bytes  %s\n' "$name" "$(stat -c %s "$out/boardbench-linux-$name")" "$out/boardbench-linux-$name"
done
