package runtext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/result"
)

func TestSummaryShowsOnlyTheCommandsFigures(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name    string
		r       result.Result
		want    []string
		notWant []string
	}{
		{
			name: "storage",
			r: result.Result{Command: "storage", Status: result.StatusComplete, Summary: result.Summary{
				StorageSummary: &result.StorageSummary{SeqReadMBs: f(45.25), SeqWriteMBs: f(21.5), RandRead4kIOPS: f(2480), RandWrite4kIOPS: f(712)}}},
			want:    []string{"sequential:   read 45.2 MB/s, write 21.5 MB/s (16 MiB records", "4 KiB random: read 2480 IOPS, write 712 IOPS"},
			notWant: []string{"7-Zip", "clock", "tuning", "tools"},
		},
		{
			name:    "storage interrupted before the table",
			r:       result.Result{Command: "storage", Status: result.StatusInterrupted},
			want:    []string{"n/a (the storage test recorded no figures)"},
			notWant: []string{"7-Zip", "clock"},
		},
		{
			name:    "writes",
			r:       result.Result{Command: "writes", Status: result.StatusComplete},
			notWant: []string{"7-Zip", "clock", "sequential"},
		},
		{
			name: "run keeps its lines",
			r:    result.Result{Command: "run", Status: result.StatusComplete},
			want: []string{"7-Zip multi", "tuning"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			Render(&b, &tt.r, false)
			out := b.String()
			summary := out[strings.Index(out, "Summary"):]
			for _, w := range tt.want {
				if !strings.Contains(summary, w) {
					t.Errorf("summary lacks %q:\n%s", w, summary)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(summary, w) {
					t.Errorf("summary shows %q, which the command does not make:\n%s", w, summary)
				}
			}
		})
	}
}
