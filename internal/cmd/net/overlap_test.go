package net

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/tune"
)

// TestApplyOverlapping runs two `net --apply` at once on one interface,
// the second overlap: the first holds the tuning lock with its
// RPS mask applied; a start without --wait is refused in one line naming
// the holder's pid (exit 2); one with --wait says it waits and applies
// only after the first restored. At the end the mask is the one before
// both, and no state or lock file is left. Without the lock the second
// saved the first one's mask as "previous" and put it back last.
func TestApplyOverlapping(t *testing.T) {
	needNetns(t)
	if n, _ := os.ReadFile("/sys/devices/system/cpu/online"); strings.TrimSpace(string(n)) == "0" {
		t.Skip("one CPU: nothing to spread")
	}
	l := newLab(t, "o")
	client, server := l.ns("c"), l.ns("s")
	ifc := l.prefix + "a"
	l.link(client, ifc, "10.205.0.1/24", server, l.prefix+"b", "10.205.0.2/24")
	l.iperfServer(server, "10.205.0.2")
	rps := func() string {
		return strings.TrimSpace(l.sh("ip", "netns", "exec", client, "cat", "/sys/class/net/"+ifc+"/queues/rx-0/rps_cpus"))
	}
	before := rps()
	stateDir := t.TempDir()
	env := append(os.Environ(), "BOARDBENCH_STATE_DIR="+stateDir)
	start := func(args ...string) *exec.Cmd {
		cmd := exec.Command("ip", append([]string{"netns", "exec", client, boardbenchBinary(t), "net", "--peer", "10.205.0.2", "--apply", "--no-store"}, args...)...)
		cmd.Env = env
		return cmd
	}

	// A holds the lock until it is stopped.
	a := start("--duration", "120s")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Process.Kill() })
	for deadline := time.Now().Add(time.Minute); rps() == before; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first run never applied its mask")
		}
	}
	applied := rps()

	// Without --wait: refused at once, one line naming A.
	_, stderr, code := l.boardbench(client, []string{"BOARDBENCH_STATE_DIR=" + stateDir}, "net", "--peer", "10.205.0.2", "--duration", "1s", "--apply")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "pid ") {
		t.Errorf("second --apply without --wait: exit %d, stderr %q; want a one-line refusal naming the holder, exit 2", code, stderr)
	}
	if got := rps(); got != applied {
		t.Errorf("the refused run changed rps_cpus to %s", got)
	}

	// With --wait: C waits while A holds the lock.
	c := start("--duration", "1s", "--wait")
	errPipe, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill() })
	sc := bufio.NewScanner(errPipe)
	waiting := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), "waiting for the tuning run") {
			waiting = true
			break
		}
	}
	if !waiting {
		t.Fatal("the run with --wait never said it waits")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	// A ends (SIGTERM: restored, exit 130); C then applies and restores.
	a.Process.Signal(syscall.SIGTERM)
	if err := a.Wait(); err == nil || a.ProcessState.ExitCode() != 130 {
		t.Errorf("first run after SIGTERM: %v, want exit 130", err)
	}
	if err := c.Wait(); err != nil && c.ProcessState.ExitCode() != 3 {
		t.Errorf("the waiting run: %v", err)
	}
	if got := rps(); got != before {
		t.Errorf("rps_cpus = %s after two overlapping --apply runs, want %s", got, before)
	}
	if left, _ := os.ReadDir(stateDir); len(left) != 0 {
		t.Errorf("state or lock files left: %v", left)
	}
	if _, err := os.Lstat(filepath.Join(stateDir, tune.LockFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file: %v", err)
	}
}
