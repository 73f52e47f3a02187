#!/bin/sh
# Rebuild boardbench's embedded reference set from directories of sbc-bench
# result logs (default: ../shared/data/sbc-bench-logs). A lab rebuilds it
# from its own logs: scripts/build-reference.sh ~/logs [MORE_DIRS...]
# then `go build ./cmd/boardbench` ships the new set. docs/reference.md.
set -eu
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || set -- ../shared/data/sbc-bench-logs
exec go run ./internal/reference/gen -o internal/reference/data/reference.json.gz "$@"
