package tools

import (
	"context"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/lazyre"
	"boardbench/internal/note"
)

// FlavorZstd is the zstd command-line program (run --workloads zstd).
const FlavorZstd Flavor = "zstd"

// zstdVersionRE matches zstd's banner, "*** Zstandard CLI (64-bit) v1.5.4,
// by Yann Collet ***" (older: "*** zstd command line interface 64-bits
// v1.3.8, by Yann Collet ***").
var zstdVersionRE = lazyre.Regexp(`^\*\*\*.*\bv(\d+\.\d+\.\d+)\b`)

// ParseZstdVersion reads the output of `zstd --version`. ok is false when
// no line is zstd's banner.
func ParseZstdVersion(out string) (t Tool, ok bool) {
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(raw)
		m := zstdVersionRE.FindStringSubmatch(line)
		if m == nil || !strings.Contains(strings.ToLower(line), "zstd") && !strings.Contains(line, "Zstandard") {
			continue
		}
		t.VersionLine, t.Version, t.Flavor = line, m[1], FlavorZstd
		t.Comparable = true
		t.ComparableReason = "zstd's compression at one level changes little between versions; the version is recorded next to the figures"
		return t, true
	}
	return t, false
}

// FindZstd returns the zstd command with its version, or nil with a note
// saying why there is none.
func FindZstd(ctx context.Context, h *host.Host) (*Tool, note.List) {
	return toolSpec{name: "zstd", version: ParseZstdVersion}.find(ctx, h)
}

// FindLlamaBench returns llama.cpp's llama-bench program, or nil with a
// note saying why there is none. llama-bench prints no version of its own
// before a run: its JSON output names the build (build_number,
// build_commit), which the llama phase records.
func FindLlamaBench(ctx context.Context, h *host.Host) (*Tool, note.List) {
	return toolSpec{name: "llama-bench", fixed: Tool{Flavor: FlavorLlamaBench, Comparable: true,
		ComparableReason: "llama.cpp's speed changes between builds; the build is recorded next to the figures"}}.find(ctx, h)
}

// FlavorLlamaBench is llama.cpp's llama-bench (run --workloads llama).
const FlavorLlamaBench Flavor = "llama-bench"
