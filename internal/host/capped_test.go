package host

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunCaptured runs real commands through runCaptured: both streams
// are kept apart, a long stream on one does not block the other, output
// over the limit is read and dropped (the command still succeeds), and
// the status comes through.
func TestRunCaptured(t *testing.T) {
	for _, tc := range []struct {
		name             string
		script           string
		limit            int
		wantOut, wantErr string
		wantOver, fails  bool
	}{
		{"both streams", "echo out; echo err >&2", 100, "out\n", "err\n", false, false},
		{"no output", "true", 100, "", "", false, false},
		{"exit status", "echo partial; exit 3", 100, "partial\n", "", false, true},
		{"long stderr before stdout", "head -c 300000 /dev/zero | tr '\\0' e >&2; echo done", 100, "done\n", strings.Repeat("e", 300000), false, false},
		{"long stdout while stderr waits", "head -c 300000 /dev/zero | tr '\\0' o; echo late >&2", 1 << 20, strings.Repeat("o", 300000), "late\n", false, false},
		{"over the limit", "head -c 100000 /dev/zero | tr '\\0' x; echo after >&2", 5, "xxxxx", "after\n", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout := &cappedBuffer{limit: tc.limit}
			stderr := &cappedBuffer{limit: 1 << 20}
			err := runCaptured(context.Background(), exec.Command("sh", "-c", tc.script), stdout, stderr)
			if (err != nil) != tc.fails {
				t.Fatalf("err = %v, want failure %v", err, tc.fails)
			}
			if got := stdout.buf.String(); got != tc.wantOut || stdout.over != tc.wantOver {
				t.Errorf("stdout %d bytes %.20q over=%v, want %d bytes %.20q over=%v", len(got), got, stdout.over, len(tc.wantOut), tc.wantOut, tc.wantOver)
			}
			if got := stderr.buf.String(); got != tc.wantErr {
				t.Errorf("stderr %d bytes %.20q, want %d bytes %.20q", len(got), got, len(tc.wantErr), tc.wantErr)
			}
		})
	}
}

// TestRunCapturedLeftBehind: a command that exits but leaves a process
// holding its output pipe open returns at its context's deadline, with
// what it wrote (reading until every writer is gone would wait for the
// process left behind).
func TestRunCapturedLeftBehind(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	stdout, stderr := &cappedBuffer{limit: 100}, &cappedBuffer{limit: 100}
	_ = runCaptured(ctx, exec.CommandContext(ctx, "sh", "-c", "sleep 1000 & echo $!"), stdout, stderr)
	if stdout.buf.Len() == 0 {
		t.Skip("sh printed nothing before the deadline (a loaded machine): nothing to check")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(stdout.buf.String()))
	if err != nil {
		t.Fatalf("stdout %q, want the pid of the process left behind", stdout.buf.String())
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Errorf("the process left behind (%d) is gone already: the test did not test anything: %v", pid, err)
	}
}

// TestRunCapturedStartFails checks that a command that cannot start
// returns its error and leaves no descriptor open.
func TestRunCapturedStartFails(t *testing.T) {
	before := openFDs(t)
	for range 3 {
		if err := runCaptured(context.Background(), exec.Command("/nonexistent/boardbench-test"), &cappedBuffer{limit: 10}, &cappedBuffer{limit: 10}); err == nil {
			t.Fatal("no error for a missing program")
		}
		if err := runCaptured(context.Background(), exec.Command("true"), &cappedBuffer{limit: 10}, &cappedBuffer{limit: 10}); err != nil {
			t.Fatal(err)
		}
	}
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
}

// openFDs counts the test process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}

// TestProcPidFile checks the files of a process that may be read against
// near misses.
func TestProcPidFile(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/proc/1/stat", true},
		{"/proc/123/comm", true},
		{"/proc/123/status", true},
		{"/proc/123/cmdline", true},
		{"/proc/123/io", true},
		{"/proc/123/maps", true},
		{"/proc/123/mountinfo", true},
		{"/proc/123/cgroup", true},
		{"/proc/123/fdinfo/7", true},
		{"/proc/123/task/124/stat", true},
		{"/proc/123/task/124/comm", true},
		{"/proc/self/stat", false},
		{"/proc//stat", false},
		{"/proc/12a/stat", false},
		{"/proc/123/environ", false},
		{"/proc/123/mem", false},
		{"/proc/123/fdinfo/", false},
		{"/proc/123/fdinfo/x", false},
		{"/proc/123/fd/3", false},
		{"/proc/123/task/124/status", false},
		{"/proc/123/task//stat", false},
		{"/proc/123/task/124/stat/x", false},
		{"/proc/123/stat/", false},
		{"/proc/123", false},
		{"/sys/123/stat", false},
		{"/proc/123/statm", false},
	} {
		if got := procPidFile(tc.path); got != tc.want {
			t.Errorf("procPidFile(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
