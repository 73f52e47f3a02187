#!/usr/bin/env bash
# Builds one static boardbench binary per architecture into dist/:
# armv6 (Raspberry Pi Zero/1), armv7, arm64, riscv64 and amd64. The binaries
# link the C library statically (cgo), which the libc memcpy/memset figures
# need; cross compilers come from Debian's gcc-<triplet> packages.
# The four board architectures get board builds (-tags board: no serve,
# charts, report --html or PostgreSQL driver; no HTTP/2 or TLS; SQLite
# from its C source, -Os; no inlining outside the probes and the
# standard library), amd64 the full
# build for a lab machine; FULL=1 makes every binary a full build
# (docs/architecture.md, "Board builds"). Prints each binary's size.
#
# usage: scripts/build-all.sh [armv6|armv7|arm64|riscv64|amd64]
# DIST sets the output directory, VERSION the version stamped in.
# On failure the last line says which build failed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DIST:-dist}
mkdir -p "$out"
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
commit=$(git rev-parse HEAD 2>/dev/null || true)
if [ -n "$commit" ] && [ -n "$(git status --porcelain 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ldflags="-s -w -X boardbench/internal/buildinfo.Version=$version -X boardbench/internal/buildinfo.Commit=$commit -X boardbench/internal/buildinfo.Date=$built -linkmode external -extldflags -static"

# target: name GOARCH GOARM CC cross-package
targets=(
  "armv6   arm     6 arm-linux-gnueabi-gcc   gcc-arm-linux-gnueabi libc6-dev-armel-cross"
  "armv7   arm     7 arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf libc6-dev-armhf-cross"
  "arm64   arm64   - aarch64-linux-gnu-gcc   gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
  "riscv64 riscv64 - riscv64-linux-gnu-gcc   gcc-riscv64-linux-gnu libc6-dev-riscv64-cross"
  "amd64   amd64   - x86_64-linux-gnu-gcc    gcc-x86-64-linux-gnu libc6-dev-amd64-cross"
)
only=${1:-}
if [ -n "$only" ] && ! printf '%s\n' "${targets[@]}" | grep -q "^$only "; then
  echo "build-all: unknown target $only (armv6, armv7, arm64, riscv64 or amd64)" >&2
  exit 2
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  read -r name arch arm cc pkgs <<<"$t"
  [ -n "$only" ] && [ "$only" != "$name" ] && continue
  if [ "$arch" = amd64 ] && [ "$(uname -m)" = x86_64 ]; then cc=gcc; pkgs="gcc libc6-dev"; fi
  if ! command -v "$cc" >/dev/null; then
    echo "build-all: $name: $cc not found (apt-get install $pkgs)" >&2
    exit 1
  fi
  goarm=""
  [ "$arm" != - ] && goarm=$arm
  tags=netgo,osusergo
  gcflags=()
  cflags=${CGO_CFLAGS:-"-O2 -g"}
  if [ "$name" != amd64 ] && [ -z "${FULL:-}" ]; then
    # SQLite's C source (mattn/go-sqlite3) compiled for size, without
    # loadable extensions (no dlopen in a static binary).
    tags=$tags,board,nethttpomithttp2,sqlite_omit_load_extension
    cflags="-Os"
    # No inlining (-l) in boardbench's and the modules' code, but in the
    # probes, whose loops are what is measured; the standard library keeps
    # its inlining (start-up and the runtime). The latest matching pattern
    # wins.
    gcflags=(-gcflags=all=-l "-gcflags=std=" "-gcflags=boardbench/internal/probe/...=")
  fi
  if ! CGO_ENABLED=1 CGO_CFLAGS=$cflags CC=$cc GOOS=linux GOARCH=$arch GOARM=$goarm \
    go build -trimpath -tags "$tags" "${gcflags[@]}" -ldflags "$ldflags" \
    -o "$out/boardbench-linux-$name" ./cmd/boardbench >"$log" 2>&1; then
    cat "$log" >&2
    echo "build-all: $name: go build failed: $(grep -v '^[[:space:]]*$' "$log" | tail -n1)" >&2
    exit 1
  fi
  size=$(stat -c %s "$out/boardbench-linux-$name")
  kind=full; case $tags in *board*) kind=board;; esac
  printf '%-8s %9d bytes  %5.1f MB  %-5s  %s\n' "$name" "$size" "$(awk -v s="$size" 'BEGIN{print s/1e6}')" "$kind" "$out/boardbench-linux-$name"
done
