#!/usr/bin/env bash
# Fuzz smoke test: finds every Fuzz target of the module and fuzzes each for
# a short time (FUZZTIME, default 4s; Go fuzzes one target per invocation).
# Prints one line per target; a target that finds a crashing input fails the
# script with a line naming the target and the saved input (Go writes it to
# the package's testdata/fuzz/<target>/, where `go test` then replays it).
#
# usage: scripts/fuzz-smoke.sh [PACKAGES...]   (default ./...)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-4s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ $# -gt 0 ] || set -- ./...

# `go test -list` prints a package's matching names, then "ok <package>".
if ! go test -list '^Fuzz' "$@" >"$tmp/list" 2>&1; then
  sed 's/^/    /' "$tmp/list" | tail -20
  echo "fuzz-smoke: cannot list the fuzz targets: $(grep -v -E '^(ok|\?|FAIL|#)|^[[:space:]]*$' "$tmp/list" | head -n1 | cut -c1-300)" >&2
  exit 1
fi
awk '/^Fuzz/ {names[n++] = $1; next}
     /^ok[ \t]/ {for (i = 0; i < n; i++) print $2, names[i]; n = 0}' "$tmp/list" >"$tmp/targets"
total=$(wc -l <"$tmp/targets")
if [ "$total" = 0 ]; then
  echo "fuzz-smoke: no Fuzz targets found in $*" >&2
  exit 1
fi

# deadline_race OUT: whether go test's output OUT is Go's fuzz deadline race:
# "--- FAIL: Name (Ts)" with T at least the fuzz time, followed only by
# "context deadline exceeded", no crashing input and no panic.
deadline_race() {
  grep -q 'Failing input written\|panic:' "$1" && return 1
  awk -v want="${fuzztime%s}" '
    /^--- FAIL: / { secs = $4; gsub(/[()s]/, "", secs); fails++; getline msg
                    if (msg ~ /^[ \t]*context deadline exceeded[ \t]*$/ && want ~ /^[0-9.]+$/ && secs + 0 >= want + 0) race++ }
    END { exit !(fails == 1 && race == 1) }' "$1"
}

start=$(date +%s)
failed=0
while read -r pkg name; do
  t0=$(date +%s)
  if go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" "$pkg" >"$tmp/out" 2>&1 </dev/null; then
    printf 'ok   %-28s %-44s %3ds\n' "$name" "$pkg" $(( $(date +%s) - t0 ))
    continue
  fi
  # Go before 1.27 may fail a target with a bare "context deadline exceeded"
  # when -fuzztime ends while a worker is mid-call (go.dev/issue/75804). The
  # target fuzzed its full time and wrote no crashing input: not a finding.
  if deadline_race "$tmp/out"; then
    printf 'ok   %-28s %-44s %3ds (Go ended fuzzing with its own deadline error, go.dev/issue/75804; no crashing input)\n' \
      "$name" "$pkg" $(( $(date +%s) - t0 ))
    continue
  fi
  failed=$((failed + 1))
  sed 's/^/    /' "$tmp/out" | tail -30
  saved=$(sed -n 's/.*Failing input written to \(testdata\/fuzz\/[^ ]*\).*/\1/p' "$tmp/out" | head -n1)
  if [ -n "$saved" ]; then
    dir=$(go list -f '{{.Dir}}' "$pkg")
    echo "FAIL $name ($pkg) found a crashing input: $dir/$saved; replay with: go test -run '^$name\$' $pkg"
  else
    # The first message line, e.g. "testing.go:1927: panic: ...".
    why=$(grep -v -E '^[[:space:]]*($|fuzz:|--- FAIL|FAIL|exit status|failure while)' "$tmp/out" | head -n1 | sed 's/^[[:space:]]*//' | cut -c1-300)
    seed=$(sed -n 's/^failure while testing seed corpus entry: //p' "$tmp/out" | head -n1)
    [ -n "$seed" ] && why="seed corpus entry $seed fails: $why"
    echo "FAIL $name ($pkg): $why"
  fi
done <"$tmp/targets"
elapsed=$(( $(date +%s) - start ))
if [ "$failed" -gt 0 ]; then
  echo "fuzz-smoke: $failed of $total fuzz targets failed (FAIL lines above) in ${elapsed}s" >&2
  exit 1
fi
echo "fuzz-smoke: $total fuzz targets ran $fuzztime each without a crash in ${elapsed}s"
