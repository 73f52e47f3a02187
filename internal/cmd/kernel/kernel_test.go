package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	tbl := july2025(t)
	now := time.Date(2025, time.August, 1, 0, 0, 0, 0, time.UTC)
	k := kernelinfo.Judge(kernelinfo.Input{
		Release: "5.10.66-11-rockchip-geee2b32138fd",
		Build:   "#rockchip SMP Mon Jul 4 02:04:48 UTC 2022",
		Now:     now,
		Table:   &tbl,
	})
	ios, out, _ := iostreams.Test()
	Render(cmdutil.NewFactory(ios), k, tbl, now)
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
	want := "as of the table's date (2025-07-01)"
	if !strings.Contains(strings.Join(strings.Fields(kernel), " "), "age: 35 months behind the newest release of its series, "+want) {
		t.Errorf("age does not say it is measured %s:\n%s", want, kernel)
	}
}

// july2025 is a table file as of July 2025, written where the test runs.
func july2025(t *testing.T) kernelinfo.Table {
	t.Helper()
	p := filepath.Join(t.TempDir(), "july2025.txt")
	if err := os.WriteFile(p, []byte("date 2025-07-01\nmainline 6.15\nlongterm 6.12 2024-11-17 2026-12\nlongterm 5.10 2020-12-13 2026-12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tbl, err := LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestKernelTableFlag: --kernel-table judges by the file's table and the
// view names it and its age; a bad file is bad input (exit 2) in one line.
func TestKernelTableFlag(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "table.txt")
	os.WriteFile(good, []byte("date 2026-08-22\nmainline 7.2\nlongterm 6.18 2025-11-30 2028-12\n"), 0o644)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("date 2026-08-22\nmainline 7.2\nlongterm 6.18 yesterday 2028-12\n"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		ios, out, _ := iostreams.Test()
		cmd := NewCmd(cmdutil.NewFactory(ios))
		cmd.SetArgs(args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		return out.String(), err
	}
	out, err := run("--kernel-table", good)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Longterm series ("+good+" table of 2026-08-22, ") || !strings.Contains(out, "6.18") {
		t.Errorf("view by the file's table:\n%s", out)
	}
	for _, tc := range []struct{ file, want string }{
		{bad, bad + ":3: release day"},
		{filepath.Join(dir, "missing.txt"), "no such file"},
		{fifo, "not a regular file"},
	} {
		_, err := run("--kernel-table", tc.file)
		if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--kernel-table %s: exit %d, error %v; want 2 and %q", tc.file, cmdutil.ExitCode(err), err, tc.want)
		}
	}
}
