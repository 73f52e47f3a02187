package tools

import (
	"context"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// TestFindTools checks the shared finder (toolSpec) through each tool
// found by it: found with its version, installed but without a version
// line (a note, no tool), and not installed.
func TestFindTools(t *testing.T) {
	type find func(context.Context, *host.Host) (*Tool, note.List)
	tests := []struct {
		name        string
		find        find
		out         string // `NAME --version`
		wantVersion string
		wantFlavor  Flavor
		asksVersion bool
	}{
		{"fio", FindFio, "fio-3.33\n", "3.33", FlavorFio, true},
		{"iperf3", FindIperf3, "iperf 3.12 (cJSON 1.7.15)\nLinux host 6.1.0\n", "3.12", FlavorIperf3, true},
		{"zstd", FindZstd, "*** Zstandard CLI (64-bit) v1.5.4, by Yann Collet ***\n", "1.5.4", FlavorZstd, true},
		{"llama-bench", FindLlamaBench, "", "", FlavorLlamaBench, false},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := "/usr/bin/" + tt.name
			h := toolsHost(t, map[string]string{bin: elfHead}, map[string]string{tt.name + "_--version": tt.out})
			got, notes := tt.find(ctx, h)
			if got == nil || len(notes) != 0 {
				t.Fatalf("found = %+v, %v", got, notes)
			}
			if got.Name != tt.name || got.Path != bin || got.RealPath != bin || got.Version != tt.wantVersion || got.Flavor != tt.wantFlavor || !got.Comparable || got.ComparableReason == "" {
				t.Errorf("found = %+v", got)
			}

			none, notes := tt.find(ctx, toolsHost(t, nil, nil))
			if none != nil || len(notes) != 1 || notes[0].Item != tt.name || notes[0].Reason != note.NotInstalled {
				t.Errorf("not installed: %+v, %+v", none, notes)
			}

			if !tt.asksVersion {
				return
			}
			h = toolsHost(t, map[string]string{bin: elfHead}, map[string]string{tt.name + "_--version": "something else\n"})
			bad, notes := tt.find(ctx, h)
			want := note.Malformed + ": no version line in `" + tt.name + " --version`"
			if bad != nil || len(notes) != 1 || notes[0].Item != tt.name || notes[0].Reason != want {
				t.Errorf("no version line: %+v, %+v; want the note %q", bad, notes, want)
			}
		})
	}
}
