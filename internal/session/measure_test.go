package session

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tune"
)

// TestMeasure drives whole measurements through the engine: the outcome
// printed with the verdict, the exit status of each ending, and what is
// kept in the store.
func TestMeasure(t *testing.T) {
	disturbed := finding.Finding{ID: "background_activity", Severity: finding.Invalidates,
		Title: "Other tasks took the CPU", Phases: []string{"mem"}}
	ok := func(ctx context.Context, p *result.Phase) error { return nil }
	tests := []struct {
		name       string
		plan       Plan
		findings   []finding.Finding
		wantCode   int // 0 none, else the error's ExitCode (1 for a plain error)
		wantKept   bool
		wantStdout []string
	}{
		{"valid", Plan{Steps: []Step{{Name: "mem", Title: "Memory on cpu0", Run: ok}}}, nil, 0, true,
			[]string{"figures", "Verdict: valid"}},
		{"not valid", Plan{Steps: []Step{{Name: "mem", Title: "Memory on cpu0", Run: ok}, {Name: "other", Title: "Other", Run: ok}}},
			[]finding.Finding{disturbed}, 3, true,
			[]string{"Verdict: NOT VALID: background_activity", "  disturbed: Memory on cpu0: Other tasks took the CPU (background_activity)"}},
		{"failed before measuring", Plan{Prepare: func(ctx context.Context, s *Session) ([]Step, error) {
			return nil, errors.New("no tool")
		}, Steps: []Step{{Name: "mem", Run: ok}}}, nil, 1, false, []string{"Verdict: not measured: no tool"}},
		{"only skipped", Plan{Steps: []Step{{Name: "mem", Skip: "no tool"}, {Name: "other", Skip: "no tool"}}}, nil, 1, false,
			[]string{"Verdict: not measured: nothing was measured: every step was skipped (no tool)"}},
		{"one measured, one skipped", Plan{Steps: []Step{{Name: "mem", Skip: "no tool"}, {Name: "other", Run: ok}}}, nil, 0, true, []string{"Verdict: valid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := fixture.Host(t, map[string]string{"/proc/loadavg": "0.01 0.02 0.03 1/100 42\n"})
			kept := false
			ctx := context.Background()
			keep := func(context.Context, []byte) (string, error) {
				kept = true
				return "id", nil
			}
			var stdout, stderr bytes.Buffer
			path := filepath.Join(t.TempDir(), "r.json")
			cfg := Config{Host: h, Info: inventory.Collect(h, inventory.Options{Redact: true}), Command: "test", Path: path, Warn: &stderr, Keep: keep,
				Findings: func(*result.Result) []finding.Finding { return tt.findings },
				Print:    Printer{Out: &stdout, Text: func(w io.Writer, r *result.Result) { w.Write([]byte("figures\n")) }}}
			out, err := Measure(ctx, cfg, tt.plan)
			code := 0
			var ec interface{ ExitCode() int }
			switch {
			case errors.As(err, &ec):
				code = ec.ExitCode()
			case err != nil:
				code = 1
			}
			if code != tt.wantCode {
				t.Errorf("exit %d (%v), want %d", code, err, tt.wantCode)
			}
			if kept != tt.wantKept || (out.StoreID != "") != tt.wantKept {
				t.Errorf("kept %v (id %q), want %v", kept, out.StoreID, tt.wantKept)
			}
			for _, w := range tt.wantStdout {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
			if strings.Count(stdout.String(), "disturbed:") != strings.Count(strings.Join(tt.wantStdout, "\n"), "disturbed:") {
				t.Errorf("disturbed lines:\n%s", stdout.String())
			}
			if !strings.Contains(stderr.String(), "result written to "+path) {
				t.Errorf("stderr lacks where the result went: %q", stderr.String())
			}
		})
	}
}

// TestTune: the guard a step creates through the session is closed by the
// engine at the end, which records that everything went back, and the
// machine is as it was.
func TestTune(t *testing.T) {
	root := fixture.Root(t, map[string]string{"proc/loadavg": "0.01 0.02 0.03 1/100 42\n"})
	fixture.CPUFreq(t, root, fixture.Policy{ID: 0, Attrs: map[string]string{
		"scaling_governor":              "schedutil\n",
		"scaling_available_governors":   "schedutil performance\n",
		"scaling_min_freq":              "408000\n",
		"scaling_max_freq":              "1800000\n",
		"scaling_available_frequencies": "408000 1800000\n",
	}})
	t.Setenv(tune.StateDirEnv, t.TempDir())
	h := fixture.Open(t, root)
	before := fixture.Snapshot(t, root)
	cfg := Config{Host: h, Info: inventory.Collect(h, inventory.Options{Redact: true}), Command: "test"}
	var during string
	out, err := Measure(context.Background(), cfg, Plan{Prepare: func(ctx context.Context, s *Session) ([]Step, error) {
		g, _, err := s.Tune(ctx)
		if err != nil {
			return nil, err
		}
		if err := g.SetGovernor(0, "performance"); err != nil {
			return nil, err
		}
		return []Step{{Name: "tuned", Run: func(ctx context.Context, p *result.Phase) error {
			during, _ = h.ReadString("/sys/devices/system/cpu/cpufreq/policy0/scaling_governor")
			return nil
		}}}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(during) != "performance" {
		t.Errorf("governor during the step %q", during)
	}
	if !out.Result.Replay {
		t.Error("a result made from a fixture root is not marked as a replay")
	}
	if !out.Result.Tuning.Restored {
		t.Error("the result does not say that the tuning was restored")
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("machine changed:\n%v\nwant\n%v", after, before)
	}
}
