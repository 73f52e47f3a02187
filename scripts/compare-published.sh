#!/usr/bin/env bash
# Compares the figures boardbench imports from sbc-bench result logs with
# the published results table of the bash tool sbc-bench (its Results.md,
# which you download yourself; boardbench does not ship it):
#
#   scripts/compare-published.sh Results.md [LOGDIR]
#
# LOGDIR defaults to ../shared/data/sbc-bench-logs. For each log whose id a
# table row links to (results/ID.txt, ix.io/ID, sprunge.us/ID) it prints the
# share of rows whose 7-zip multi, 7-zip single, AES, memcpy and memset
# agree to the table's rounding and whose clock agrees within 2%, then lists
# every disagreement. docs/import.md records the agreement reached.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/compare-published.sh RESULTS.md [LOGDIR]" >&2
  exit 2
fi
table=$(realpath -- "$1")
cd "$(dirname "$0")/.."
logs=${2:-../shared/data/sbc-bench-logs}
logs=$(realpath -- "$logs")
[ -f "$table" ] || { echo "compare-published: $1: no such file" >&2; exit 2; }
[ -d "$logs" ] || { echo "compare-published: $logs: no such directory" >&2; exit 2; }
exec go run ./scripts/comparepublished "$table" "$logs"
