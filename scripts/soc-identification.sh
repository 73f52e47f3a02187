#!/usr/bin/env bash
# Measures how well boardbench names the SoC from /proc/cpuinfo alone (no
# device tree): runs the identification over every file of
# ../shared/data/cpuinfo and prints the share of each class (single right,
# right among candidates, vague, none, wrong) for the development half, the
# held-out half and all files. DETAIL=1 also lists the development half's
# misses (never look at the held-out half's misses when tuning rules).
# The truth per file is socTruth in internal/inventory/soc/identify_test.go.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d ../shared/data/cpuinfo ] || { echo "soc-identification: ../shared/data/cpuinfo absent" >&2; exit 1; }
SOC_SHARES_DETAIL=${DETAIL:-} go test ./internal/inventory/soc -run '^TestIdentificationShares$' -count=1 -v |
	sed -n 's/^ *identify_test.go:[0-9]*: //p'
