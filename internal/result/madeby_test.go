package result

import (
	"testing"

	"boardbench/internal/buildinfo"
)

func TestMaker(t *testing.T) {
	for _, tc := range []struct {
		name            string
		r               Result
		maker, importer string
	}{
		{"measured", Result{Command: "run", Tool: buildinfo.Info{Version: "0.1.0-dev"}}, "boardbench 0.1.0-dev", ""},
		{"imported", Result{Command: CommandImport, Tool: buildinfo.Info{Version: "0.2.0"},
			Summary: Summary{ImportedSummary: &ImportedSummary{ImportedFormat: ImportedFormat, ImportedFormatVersion: "0.9.72"}}},
			"sbc-bench 0.9.72", "imported by boardbench 0.2.0"},
		{"imported, options only", Result{Command: CommandImport, Options: map[string]any{"format": ImportedFormat, "format_version": "0.9.41"}},
			"sbc-bench 0.9.41", "imported by boardbench unknown"},
		{"imported, no version", Result{Command: CommandImport, Summary: Summary{ImportedSummary: &ImportedSummary{ImportedFormat: ImportedFormat}}},
			"sbc-bench (version not recorded in the log)", "imported by boardbench unknown"},
	} {
		if got := Maker(&tc.r); got != tc.maker {
			t.Errorf("%s: Maker = %q, want %q", tc.name, got, tc.maker)
		}
		if got := Importer(&tc.r); got != tc.importer {
			t.Errorf("%s: Importer = %q, want %q", tc.name, got, tc.importer)
		}
	}
}
