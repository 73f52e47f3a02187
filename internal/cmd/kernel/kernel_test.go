package kernel

import (
	"strings"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/kernelinfo"
)

// TestRenderEvidenceUnderTree: the evidence of the tree's judgement
// follows the tree line directly (no blank line, not under age), and the
// age says what it is measured against.
func TestRenderEvidenceUnderTree(t *testing.T) {
	k := kernelinfo.Judge(kernelinfo.Input{
		Release: "5.10.66-11-rockchip-geee2b32138fd",
		Build:   "#rockchip SMP Mon Jul 4 02:04:48 UTC 2022",
		Now:     time.Date(2025, time.August, 1, 0, 0, 0, 0, time.UTC),
	})
	ios, out, _ := iostreams.Test()
	Render(cmdutil.NewFactory(ios), k)
	lines := strings.Split(out.String(), "\n")
	tree := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "tree:") {
			tree = i
		}
	}
	if tree < 0 || tree+1 >= len(lines) {
		t.Fatalf("no tree line:\n%s", out)
	}
	if next := strings.TrimSpace(lines[tree+1]); !strings.HasPrefix(next, "because release") {
		t.Errorf("line after tree: %q, want the evidence:\n%s", next, out)
	}
	kernel := out.String()[:strings.Index(out.String(), "Longterm series")]
	if strings.Contains(strings.TrimSpace(kernel), "\n\n") {
		t.Errorf("blank line inside the kernel block:\n%s", kernel)
	}
	want := "as of the table's date (" + kernelinfo.TableDate.Format("2006-01-02") + ")"
	if !strings.Contains(strings.Join(strings.Fields(kernel), " "), "age: 35 months behind the newest release of its series, "+want) {
		t.Errorf("age does not say it is measured %s:\n%s", want, kernel)
	}
}
