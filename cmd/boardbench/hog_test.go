package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// startHog starts one busy-looping shell per CPU, at the default nice
// level 0, in a process group of its own; the returned function stops
// them all. Such a hog takes most of every CPU from a benchmark whatever
// the machine's speed: the assertions below are about the verdict only.
func startHog(t *testing.T) func() {
	t.Helper()
	var cmds []*exec.Cmd
	stop := func() {
		for _, c := range cmds {
			_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			_ = c.Wait()
		}
	}
	for i := 0; i < runtime.NumCPU(); i++ {
		c := exec.Command("sh", "-c", "while :; do :; done")
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			stop()
			t.Fatalf("starting the CPU hog: %v", err)
		}
		cmds = append(cmds, c)
	}
	return stop
}

// TestHogMakesResultNotValid runs `run --quick` and `mem --quick` on the
// built binary while a CPU hog takes every CPU: both must end not valid,
// with exit status 3 and the verdict on standard output.
//
// Whether a hog makes a measurement "not valid" is decided by the check
// rules of issue 19 (background activity beyond a stated share of the CPU
// time loses the figure, docs/verdicts.md), which the verdicts work
// brings; with the earlier rules background activity was only a warning,
// so `mem --quick` under a hog ended "valid with warnings" (exit 0) and
// this test fails for mem until those rules are in.
func TestHogMakesResultNotValid(t *testing.T) {
	if testing.Short() {
		t.Skip("runs run --quick and mem --quick under a CPU hog (a few minutes on a loaded machine); skipped with -short")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"run --quick", []string{"run", "--quick", "--force", "--no-install", "-o", filepath.Join(dir, "run.json")}},
		{"mem --quick", []string{"mem", "--quick", "--max-size", "16M", "-o", filepath.Join(dir, "mem.json")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stop := startHog(t)
			r := runBinary(t, dir, tc.args...)
			stop()
			if r.code != 3 {
				t.Errorf("boardbench %s under a CPU hog: exit %d, want 3 (not valid)\nstdout:\n%s\nstderr:\n%s",
					strings.Join(tc.args, " "), r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "NOT VALID") {
				t.Errorf("stdout lacks the verdict NOT VALID:\n%s", r.stdout)
			}
			if _, err := os.Stat(tc.args[len(tc.args)-1]); err != nil {
				t.Errorf("result file: %v", err)
			}
		})
	}
}
