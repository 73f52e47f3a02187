#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time each (default 10s;
# FUZZTIME=1m scripts/fuzz.sh for longer), as CI does. A failing input is
# saved under the package's testdata/fuzz/ and fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-10s}
grep -rl --include='*_test.go' '^func Fuzz' internal cmd | sort | while read -r file; do
  pkg=./$(dirname "$file")
  for target in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | cut -d' ' -f2); do
    echo "== $pkg $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
  done
done
