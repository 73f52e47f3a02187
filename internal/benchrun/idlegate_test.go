package benchrun

import (
	"context"
	"io"
	"reflect"
	"testing"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/prepare"
	"boardbench/internal/testutil/fixture"
)

// TestOneIdleGate: run's idle gate and the one sweep and thermal call
// (prepare.IdleGate) give the same finding, id, severity, title, evidence
// and advice, for a gate skipped by --force under load, a machine whose
// CPU statistics cannot be read, and a machine still busy when the wait
// ends (a fixture's /proc does not change, so its load average is all
// there is to judge by).
func TestOneIdleGate(t *testing.T) {
	busy := map[string]string{"proc/loadavg": "3.50 2.00 1.00 3/80 999\n"}
	stat := map[string]string{"proc/stat": "cpu  100 0 100 1000 0 0 0 0 0 0\ncpu0 100 0 100 1000 0 0 0 0 0 0\n"}
	tests := []struct {
		name   string
		files  map[string]string
		force  bool
		wantID string
		wantSv finding.Severity
	}{
		{"forced under load", fixture.Merge(busy, stat), true, "idle_gate_skipped", finding.Warning},
		{"no CPU statistics", busy, false, "idle_unknown", finding.Info},
		{"still busy", fixture.Merge(busy, stat), false, "not_quiet", finding.Warning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := fixture.Host(t, tt.files)
			limit := time.Millisecond // one look, then the finding
			r := &runner{h: h, opt: Options{Force: tt.force, IdleTimeout: limit}, now: time.Now,
				prog: newProgress(io.Discard, false, 80, time.Now)}
			r.idleGate(context.Background())
			shared := prepare.IdleGate(context.Background(), h, tt.force, limit, nil)
			if len(r.runFindings) != 1 || shared == nil {
				t.Fatalf("run's gate %v, the shared gate %v: want one finding each", r.runFindings, shared)
			}
			got := r.runFindings[0]
			if got.ID != tt.wantID || got.Severity != tt.wantSv {
				t.Errorf("finding %s (%s), want %s (%s)", got.ID, got.Severity, tt.wantID, tt.wantSv)
			}
			if !reflect.DeepEqual(got, *shared) {
				t.Errorf("run's gate gives\n%+v\nthe shared gate\n%+v", got, *shared)
			}
		})
	}
}
