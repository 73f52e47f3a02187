// Command gen builds the reference set from directories of sbc-bench
// result logs and writes it gzip-compressed:
//
//	go run ./internal/reference/gen -o internal/reference/data/reference.json.gz DIR...
//
// scripts/build-reference.sh runs it on ../shared/data/sbc-bench-logs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"boardbench/internal/reference/refbuild"
)

func main() {
	out := flag.String("o", "", "write the compressed set to `FILE` (required)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -o FILE DIR...")
		os.Exit(2)
	}
	s, err := refbuild.Build(flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	var buf bytes.Buffer
	if err := s.Encode(&buf); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d entries from %d files, %d bytes\n", *out, len(s.Entries), s.Files, buf.Len())
}
