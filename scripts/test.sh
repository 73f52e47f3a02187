#!/usr/bin/env bash
# The project's test command: vet, then every test of the module (fixture
# trees in testdata/ and ../shared reference data; integration tests with the
# real 7-Zip and openssl run when those are installed). Extra arguments go to
# `go test`. On failure the last line says which step failed. The timeout of
# each test binary is an hour, not go test's 10 minutes: it only guards
# against a hang, and a package's tests may take longer on a loaded machine.
set -euo pipefail
cd "$(dirname "$0")/.."
unformatted=$(gofmt -l cmd internal)
if [ -n "$unformatted" ]; then
  echo "test: gofmt needed:" $unformatted >&2
  exit 1
fi
go vet ./... || { echo "test: go vet reported problems (above)" >&2; exit 1; }
go test -count=1 -timeout 60m ./... "$@" || { echo "test: go test failed (FAIL lines above)" >&2; exit 1; }
