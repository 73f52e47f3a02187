// Tests of boardbench's exit statuses, run on the built binary.
package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	testwait "boardbench/internal/testutil/wait"
)

// binary is the boardbench binary built once for the tests in this file.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "boardbench-exit-test-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "boardbench")
	// The binary's results go to a store of the test's own, never the developer's.
	os.Setenv("BOARDBENCH_STORE", filepath.Join(dir, "results.db"))
	// Its state files and tuning lock too: a live tuning run of another
	// test package (go test runs packages at once) must not make this
	// one's refuse as busy, nor the other way round.
	if os.Getenv("BOARDBENCH_STATE_DIR") == "" {
		os.Setenv("BOARDBENCH_STATE_DIR", filepath.Join(dir, "state"))
	}
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building boardbench: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the binary left.
type result struct {
	code           int
	stdout, stderr string
}

// start prepares the binary with args, run in dir.
func start(dir string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr
}

// wait waits for cmd and returns its exit status and output.
func wait(t *testing.T, cmd *exec.Cmd, stdout, stderr *bytes.Buffer) result {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// runBinary runs the binary with args in dir.
func runBinary(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd, stdout, stderr := start(dir, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return wait(t, cmd, stdout, stderr)
}

// TestExitStatus runs the built binary and checks the exit status of each
// kind of outcome, and that an error is exactly one line on stderr.
func TestExitStatus(t *testing.T) {
	fixture, err := filepath.Abs("../../testdata/boards/rpi4b")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fixture); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	tmp := t.TempDir()
	resultFile := filepath.Join(tmp, "r.json")
	// A benchmark whose own output says its figures are wrong (an HPL run
	// whose residual check FAILED): measured, but not valid.
	hplLog, err := filepath.Abs("../../internal/benchtool/wrapped/testdata/hpl-failed.txt")
	if err != nil {
		t.Fatal(err)
	}
	xhpl := filepath.Join(tmp, "xhpl")
	if err := os.WriteFile(xhpl, []byte("#!/bin/sh\ncat '"+hplLog+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A recorded root without cpufreq: nothing for sweep to set.
	noCpufreq := filepath.Join(tmp, "no-cpufreq")
	if err := os.MkdirAll(filepath.Join(noCpufreq, "proc"), 0o755); err != nil {
		t.Fatal(err)
	}
	sweepOut := filepath.Join(tmp, "sweep.json")
	tests := []struct {
		name string
		args []string
		want int
		// wantErr is part of the one error line (for statuses 1 and 2).
		wantErr string
	}{
		{"version", []string{"version"}, 0, ""},
		{"--version", []string{"--version"}, 0, ""},
		{"no command: help", nil, 0, ""},
		{"help on a command", []string{"help", "info"}, 0, ""},
		{"info on a fixture", []string{"info", "--root", fixture}, 0, ""},

		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"misspelt command", []string{"inof"}, 2, "did you mean info?"},
		{"unknown flag", []string{"info", "--bogus"}, 2, "unknown flag: --bogus"},
		{"unknown root flag", []string{"--bogus"}, 2, "unknown flag: --bogus"},
		{"bad flag value", []string{"clock", "--samples", "many"}, 2, `--samples "many": not a whole number`},
		{"bad float flag", []string{"thermal", "--heat-to", "hot"}, 2, `--heat-to "hot": not a number`},
		{"bad duration flag", []string{"sweep", "--settle", "xyz"}, 2, `--settle "xyz": not a duration`},
		{"missing flag value", []string{"info", "--root"}, 2, "needs an argument"},
		{"extra argument", []string{"info", "extra"}, 2, `unknown command "extra"`},
		{"missing argument", []string{"report"}, 2, "report takes one result FILE"},
		{"bad --root", []string{"info", "--root", filepath.Join(tmp, "nonexistent")}, 2, "nonexistent"},
		{"report of a missing file", []string{"report", filepath.Join(tmp, "missing.json")}, 2, "no such file"},
		{"clock --cpu abc", []string{"clock", "--cpu", "abc"}, 2, "--cpu"},
		{"measuring a recorded root", []string{"clock", "--root", fixture}, 2, "live machine"},
		{"help on an unknown topic", []string{"help", "bogus"}, 2, `unknown help topic "bogus"`},
		{"monitor without a command after --", []string{"monitor", "--"}, 2, "no command after --"},

		// The output directory does not exist: the path given is wrong.
		{"capture to a missing directory", []string{"capture", "-o", filepath.Join(tmp, "no-dir", "x.tar.gz")}, 2, "no such file or directory"},

		// Refused before measuring: one line, exit 2, no result file.
		{"sweep without cpufreq", []string{"sweep", "--root", noCpufreq, "--force", "-o", sweepOut}, 2, "`boardbench run` measures at the clock the board runs"},

		{"measured, not valid", []string{"monitor", "-o", resultFile, "--", xhpl}, 3, ""},
		{"wrapped command's status", []string{"monitor", "-o", resultFile, "--", "sh", "-c", "exit 7"}, 7, ""},
		{"wrapped command not found", []string{"monitor", "-o", resultFile, "--", "boardbench-no-such-command"}, 127, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runBinary(t, tmp, tt.args...)
			if r.code != tt.want {
				t.Fatalf("boardbench %s: exit %d, want %d\nstderr: %s", strings.Join(tt.args, " "), r.code, tt.want, r.stderr)
			}
			if tt.want == 3 {
				// The verdict was printed with the figures (monitor's
				// summary, on stderr), and not again as an error.
				if !strings.Contains(r.stderr, "Verdict: NOT VALID") || strings.Contains(r.stderr, "boardbench: NOT VALID") {
					t.Errorf("stderr of a result that is not valid:\n%s", r.stderr)
				}
				return
			}
			if tt.want != 1 && tt.want != 2 {
				return
			}
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.HasSuffix(r.stderr, "\n") || !strings.HasPrefix(r.stderr, "boardbench: ") {
				t.Errorf("stderr is not one line starting with %q:\n%s", "boardbench: ", r.stderr)
			}
			if !strings.Contains(r.stderr, tt.wantErr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.wantErr)
			}
			if _, err := os.Stat(sweepOut); !os.IsNotExist(err) {
				t.Errorf("a refused sweep wrote its result file: %v", err)
			}
			if r.stdout != "" {
				t.Errorf("stdout on error: %q", r.stdout)
			}
		})
	}
}

// TestStdoutWriteErrorExits1: standard output that cannot be written (a
// full disk, here /dev/full) is a failure that is not the input's: exit 1
// and one line on standard error.
func TestStdoutWriteErrorExits1(t *testing.T) {
	fixture, err := filepath.Abs("../../testdata/boards/rpi4b")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"info", "--root", fixture}, {"version"}} {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(binary, args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		_ = cmd.Run()
		full.Close()
		if code := cmd.ProcessState.ExitCode(); code != 1 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v > /dev/full: exit %d, stderr %q; want 1 and one line", args, code, stderr.String())
		}
	}
}

// TestVersionFlag checks that --version and the version command print the
// same line.
func TestVersionFlag(t *testing.T) {
	dir := t.TempDir()
	a, b := runBinary(t, dir, "version"), runBinary(t, dir, "--version")
	if a.stdout != b.stdout || !strings.HasPrefix(a.stdout, "boardbench ") || strings.Count(a.stdout, "\n") != 1 {
		t.Errorf("version %q, --version %q", a.stdout, b.stdout)
	}
}

// TestInterruptExits130 sends each interrupting signal to `monitor -o F
// -- COMMAND` while the command (and a grandchild of it) runs: the binary
// stops them all, saves the result as interrupted with the signal named,
// and exits 130.
func TestInterruptExits130(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP", syscall.SIGQUIT: "SIGQUIT"}[sig]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			cmd, stdout, stderr := start(dir, "monitor", "-o", "r.json", "--", "sh", "-c",
				"sleep 300 & echo $! > "+pids+"; echo $$ >> "+pids+"; wait")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var ids []int
			for deadline := time.Now().Add(testwait.HangGuard); len(ids) < 2 && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
				data, _ := os.ReadFile(pids)
				ids = ids[:0]
				for _, f := range strings.Fields(string(data)) {
					if n, err := strconv.Atoi(f); err == nil {
						ids = append(ids, n)
					}
				}
			}
			if len(ids) < 2 {
				_ = cmd.Process.Kill()
				t.Fatal("the monitored command did not start")
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan result, 1)
			go func() { done <- wait(t, cmd, stdout, stderr) }()
			var r result
			select {
			case r = <-done:
			case <-time.After(testwait.HangGuard):
				_ = cmd.Process.Kill()
				t.Fatalf("hung: boardbench did not end within %v of %s", testwait.HangGuard, name)
			}
			if r.code != 130 {
				t.Errorf("exit %d after %s, want 130\nstderr: %s", r.code, name, r.stderr)
			}
			for _, id := range ids {
				if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", id)); err == nil && !strings.Contains(string(data), ") Z ") {
					t.Errorf("process %d survived %s", id, name)
				}
			}
			data, err := os.ReadFile(filepath.Join(dir, "r.json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Status string `json:"status"`
				Phases []struct {
					Status, Reason string
				} `json:"phases"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Status != "interrupted" || len(doc.Phases) != 1 || !strings.Contains(doc.Phases[0].Reason, name) {
				t.Errorf("result status %q phases %+v", doc.Status, doc.Phases)
			}
		})
	}
}

// TestClosedPipe runs commands whose standard output is a pipe nobody
// reads any more (`boardbench ... | head` once head has exited): they end
// quietly with the status of a writer to a closed pipe, 141, and print no
// error about it.
func TestClosedPipe(t *testing.T) {
	fixture, err := filepath.Abs("../../testdata/boards/rpi4b")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"version"}, {"info", "--root", fixture}, {"info", "--root", fixture, "--json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // the reader is gone before the first write
			cmd := exec.Command(binary, args...)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = w, &stderr
			err = cmd.Run()
			w.Close()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			if code := cmd.ProcessState.ExitCode(); code != 141 {
				t.Errorf("exit status %d, want 141; stderr: %q", code, stderr.String())
			}
			if strings.Contains(stderr.String(), "pipe") {
				t.Errorf("stderr mentions the pipe: %q", stderr.String())
			}
		})
	}
}
