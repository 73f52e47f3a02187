#!/usr/bin/env bash
# The project's test command: vet, then every test of the module (fixture
# trees in testdata/ and ../shared reference data; integration tests with the
# real 7-Zip and openssl run when those are installed).
set -euo pipefail
cd "$(dirname "$0")/.."
unformatted=$(gofmt -l cmd internal)
if [ -n "$unformatted" ]; then
  echo "gofmt needed:" $unformatted >&2
  exit 1
fi
go vet ./...
go test -count=1 ./... "$@"
