package runtext

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/textfmt"
)

// checkWidth fails for every line of text wider than textfmt.MaxWidth
// columns (runes, not bytes).
func checkWidth(t *testing.T, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > textfmt.MaxWidth {
			t.Errorf("line of %d columns (max %d): %q", n, textfmt.MaxWidth, l)
		}
	}
}

// TestReportsFitWidth renders the run results of the fixtures, and the
// complete run with the machine description of every board fixture root,
// and checks that every line fits in 100 columns.
func TestReportsFitWidth(t *testing.T) {
	cases := map[string]*result.Result{
		"rk3588-complete":    completeRK3588(),
		"rk3588-interrupted": interruptedRK3588(),
		"rpi4-invalid":       invalidRPi4(),
		"monitor-command":    monitoredCommand(),
	}
	dir := filepath.Dir(fixture.BoardPath(t, "rpi4b"))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		r := completeRK3588()
		r.Info = inventory.Collect(fixture.Board(t, e.Name()), inventory.Options{Redact: true})
		cases["board "+e.Name()] = r
	}
	if len(cases) < 14 {
		t.Fatalf("only %d cases", len(cases))
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			for _, color := range []bool{false} {
				var b bytes.Buffer
				Render(&b, r, color)
				checkWidth(t, b.String())
			}
		})
	}
}

// TestVocabulary checks the shared wording: real plurals, the finding's
// title in the banner, no doubled status word, no Go error text, and the
// processor labelled as what it is.
func TestVocabulary(t *testing.T) {
	r := interruptedRK3588()
	r.Phases = append(r.Phases, result.Phase{Name: "openssl", Status: result.PhaseFailed, Reason: "context canceled"})
	r.Phases[len(r.Phases)-2].Status = result.PhaseInterrupted
	r.Phases[len(r.Phases)-2].Reason = "interrupted by SIGINT; the running benchmark was stopped"
	r.Findings = append(r.Findings, finding.Finding{ID: "quick_mode", Severity: finding.Invalidates, Title: "Quick mode: figures are not comparable"})
	var b bytes.Buffer
	Render(&b, r, false)
	text := b.String()
	for _, bad := range []string{"(s)", "INTERRUPTED: interrupted", "context canceled", "quick_mode invalidate", "(libc)"} {
		if strings.Contains(text, bad) {
			t.Errorf("report contains %q:\n%s", bad, text)
		}
	}
	for _, want := range []string{"!! NOT VALID: Quick mode: figures are not comparable", "INTERRUPTED by SIGINT",
		"FAILED: stopped before it finished", "memcpy (C library)"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}

	x86 := completeRK3588()
	x86.Info.Board.Model = ""
	x86.Info.SoC.Guess, x86.Info.SoC.Confidence = "AMD EPYC 7B13", "cpu-model"
	b.Reset()
	Render(&b, x86, false)
	if text := b.String(); strings.Contains(text, "board:") || !strings.Contains(text, "processor:    AMD EPYC 7B13") {
		t.Errorf("an x86 processor is not labelled processor:\n%s", text)
	}
}
