package runtext

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/result"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	// Sample lines and start times are printed in local time; the golden
	// files are in UTC.
	time.Local = time.UTC
	os.Exit(m.Run())
}

func TestRenderGolden(t *testing.T) {
	cases := []struct {
		name string
		r    *result.Result
	}{
		{"rk3588-complete", completeRK3588()},
		{"rk3588-interrupted", interruptedRK3588()},
		{"rpi4-invalid", invalidRPi4()},
		{"monitor-command", monitoredCommand()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			Render(&b, c.r, false)
			golden := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("output differs from %s (run with -update after checking):\n%s", golden, firstDiff(got, string(want)))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return "(no line differs)"
}

func render(r *result.Result, color bool) string {
	var b bytes.Buffer
	Render(&b, r, color)
	return b.String()
}

// TestStatusAndVerdictComeFirst checks that an interrupted or invalid run
// says so in the first lines, before any figure.
func TestStatusAndVerdictComeFirst(t *testing.T) {
	cases := []struct {
		name string
		r    *result.Result
		want []string
	}{
		{"interrupted", interruptedRK3588(), []string{"!! INTERRUPTED", "2 phases finished: clock, memory"}},
		{"invalid", invalidRPi4(), []string{"!! NOT VALID: The machine swapped during the run; Under-voltage during the run;"}},
	}
	for _, c := range cases {
		head := strings.Join(strings.SplitN(render(c.r, false), "\n", 4)[:3], "\n")
		for _, w := range c.want {
			if !strings.Contains(head, w) {
				t.Errorf("%s: first lines lack %q:\n%s", c.name, w, head)
			}
		}
	}
	if head := strings.SplitN(render(completeRK3588(), false), "\n", 3)[1]; strings.HasPrefix(head, "!!") {
		t.Errorf("complete valid run has a warning line: %q", head)
	}
}

func TestMissingFiguresSayWhy(t *testing.T) {
	out := render(invalidRPi4(), false)
	for _, want := range []string{
		"AES-256 16 KiB: n/a (skipped: openssl not installed; install with: sudo apt install openssl)",
		"FAILED: oom_killed",
		"swap: 18211 pages swapped in, 156433 pages swapped out",
		"[under_voltage] [ 8412.031845] hwmon hwmon1: Undervoltage detected!",
		"after 0x50005 (under-voltage detected",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	out = render(interruptedRK3588(), false)
	if !strings.Contains(squeeze(out), "7-Zip multi: n/a (the run ended before this phase)") {
		t.Error("interrupted run: missing 7-Zip multi without its reason")
	}
}

func TestColor(t *testing.T) {
	if out := render(invalidRPi4(), true); !strings.Contains(out, "\x1b[1;31m!! NOT VALID") || !strings.Contains(out, "\x1b[1mSummary") {
		t.Error("colour: no red verdict or bold heading")
	}
	if out := render(invalidRPi4(), false); strings.Contains(out, "\x1b[") {
		t.Error("no colour requested, escape codes written")
	}
}

// TestOddResultsDoNotPanic renders results that are empty, partial or hold
// figures of the wrong shape.
func TestOddResultsDoNotPanic(t *testing.T) {
	broken := completeRK3588()
	broken.Phases[0].Figures = []byte(`{"clusters": "not a list"}`)
	broken.Phases[1].Figures = []byte(`null`)
	broken.Phases[2].Name = "something-new"
	broken.Phases[3].Samples[0].ClockMHz = nil
	broken.Info = nil
	cases := map[string]*result.Result{
		"nil":    nil,
		"empty":  {},
		"broken": broken,
	}
	for name, r := range cases {
		out := render(r, false)
		if out == "" {
			t.Errorf("%s: no output", name)
		}
	}
	out := render(broken, false)
	for _, want := range []string{"figures: n/a (not readable as clock figures", "figures: n/a (none recorded)", `no text view for phase kind "something-new"`, "kernel: n/a (machine description missing)"} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("broken result: lacks %q", want)
		}
	}
}

// squeeze collapses runs of spaces, so that checks do not depend on the
// alignment of key/value lists.
func squeeze(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}
