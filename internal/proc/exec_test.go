package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"

	"golang.org/x/sys/unix"
)

func liveExecutor(t *testing.T) (*Live, *host.Host) {
	t.Helper()
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(h)
	if err != nil {
		t.Fatal(err)
	}
	return l, h
}

func TestLiveExecOutputAndExitCodes(t *testing.T) {
	l, _ := liveExecutor(t)
	tests := []struct {
		name       string
		script     string
		wantOut    string
		wantCode   int
		wantErr    bool
		wantKilled bool
		wantStderr string
	}{
		{name: "ok", script: "echo hello; echo warn >&2", wantOut: "hello\n", wantCode: 0},
		{name: "locale is C", script: "echo $LC_ALL", wantOut: "C\n"},
		{name: "exit 3", script: "echo partial; echo 'bad thing' >&2; exit 3", wantOut: "partial\n", wantCode: 3, wantErr: true, wantStderr: "bad thing"},
		// A process killed by signal N has Code 128+N, as a shell reports it
		// (the former runner package said -1).
		{name: "sigkill", script: "echo before; kill -9 $$", wantOut: "before\n", wantCode: 137, wantErr: true, wantKilled: true},
		{name: "sigterm", script: "kill -15 $$", wantCode: 143, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := l.Exec(context.Background(), Command{Name: "sh", Args: []string{"-c", tt.script}})
			if string(res.Stdout) != tt.wantOut {
				t.Errorf("stdout = %q, want %q", res.Stdout, tt.wantOut)
			}
			if res.Code != tt.wantCode {
				t.Errorf("exit code = %d, want %d", res.Code, tt.wantCode)
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if got := errors.Is(err, ErrKilled); got != tt.wantKilled {
				t.Errorf("errors.Is(err, ErrKilled) = %v, want %v (err %v)", got, tt.wantKilled, err)
			}
			if tt.wantStderr != "" {
				var ee *ExitError
				if !errors.As(err, &ee) || ee.StderrLine != tt.wantStderr {
					t.Errorf("err = %#v, want ExitError with stderr %q", err, tt.wantStderr)
				}
			}
			if tt.wantKilled && res.Signal != "SIGKILL" {
				t.Errorf("signal = %q, want SIGKILL", res.Signal)
			}
		})
	}
}

func TestLiveExecMissingProgram(t *testing.T) {
	l, _ := liveExecutor(t)
	_, err := l.Exec(context.Background(), Command{Name: "boardbench-no-such-program"})
	if err == nil || errors.Is(err, ErrKilled) {
		t.Fatalf("err = %v, want a start failure", err)
	}
}

// TestLiveExecCancelKillsGroup checks that cancelling kills the whole process
// group (a grandchild too) and is not reported as an out-of-memory kill.
func TestLiveExecCancelKillsGroup(t *testing.T) {
	l, h := liveExecutor(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the shell has started the grandchild and printed its
	// pid (an event: a loaded machine may take long to get there).
	ready := filepath.Join(t.TempDir(), "ready")
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	var res Result
	var err error
	wait.Return(t, "Exec after cancellation", func() {
		res, err = l.Exec(ctx, Command{Name: "sh", Args: []string{"-c", "sleep 30 & echo $!; : > " + ready + "; wait"}})
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want cancelled", err)
	}
	if errors.Is(err, ErrKilled) {
		t.Errorf("cancellation reported as out-of-memory kill: %v", err)
	}
	pid, perr := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if perr != nil {
		t.Fatalf("grandchild pid not printed: %q", res.Stdout)
	}
	wait.Until(t, fmt.Sprintf("the end of grandchild %d after cancellation", pid), func() bool {
		if unix.Kill(pid, 0) == unix.ESRCH {
			return true
		}
		// An unreaped zombie is dead too.
		if st, err := h.ReadString("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if i := strings.LastIndexByte(st, ')'); i >= 0 && strings.HasPrefix(st[i+1:], " Z") {
				return true
			}
		}
		return false
	})
}

func TestLiveExecBindsCPUs(t *testing.T) {
	l, _ := liveExecutor(t)
	allowed, err := host.AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if len(allowed) == 0 {
		t.Skip("no allowed CPUs reported")
	}
	tests := [][]int{{allowed[len(allowed)-1]}, {allowed[0]}, allowed}
	for _, cpus := range tests {
		t.Run(cpu.FormatCPUList(cpus), func(t *testing.T) {
			res, err := l.Exec(context.Background(), Command{Name: "sh", Args: []string{"-c", "grep Cpus_allowed_list /proc/self/status"}, CPUs: cpus})
			if err != nil {
				t.Fatal(err)
			}
			got := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(res.Stdout)), "Cpus_allowed_list:"))
			if want := cpu.FormatCPUList(cpus); got != want {
				t.Errorf("child's CPUs = %q, want %q", got, want)
			}
		})
	}
	after, err := host.AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if cpu.FormatCPUList(after) != cpu.FormatCPUList(allowed) {
		t.Errorf("caller's affinity changed from %v to %v", allowed, after)
	}
}

func TestLiveExecRefusesUnavailableCPU(t *testing.T) {
	l, _ := liveExecutor(t)
	res, err := l.Exec(context.Background(), Command{Name: "true", CPUs: []int{1023}})
	if err == nil || !strings.Contains(err.Error(), "cpu 1023") {
		t.Fatalf("err = %v, want cpu 1023 refused", err)
	}
	// Not started for a reason other than a missing or unexecutable
	// program: 1, as StartStatus says (the former runner package said -1).
	if res.Code != 1 || res.Signal != "" {
		t.Errorf("exit = %+v, want code 1 (not started)", res.Exit)
	}
}

func TestLiveExecCapsOutput(t *testing.T) {
	l, _ := liveExecutor(t)
	res, err := l.Exec(context.Background(), Command{Name: "sh", Args: []string{"-c", "echo 0123456789abcdef"}, MaxOutputBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "0123456789" || !res.Truncated {
		t.Errorf("stdout = %q truncated %v, want first 10 bytes and truncated", res.Stdout, res.Truncated)
	}
}

func TestNewLiveRefusesFixtureRoot(t *testing.T) {
	h := fixture.Open(t, t.TempDir())
	if _, err := NewLive(h); !errors.Is(err, host.ErrNotLive) {
		t.Errorf("NewLive(fixture) err = %v, want ErrNotLive", err)
	}
	if _, ok := ForHost(h).(*Replay); !ok {
		t.Errorf("ForHost(fixture) = %T, want *Replay", ForHost(h))
	}
}

func TestReplay(t *testing.T) {
	h := fixture.Replay(t, map[string]string{host.CommandKey("7zz", "b", "-mmt1"): "recorded\n"})
	ex := ForHost(h)
	res, err := ex.Exec(context.Background(), Command{Name: "/usr/bin/7zz", Args: []string{"b", "-mmt1"}, CPUs: []int{3}})
	if err != nil || string(res.Stdout) != "recorded\n" {
		t.Errorf("replay = %q, %v; want recorded output", res.Stdout, err)
	}
	if _, err := ex.Exec(context.Background(), Command{Name: "7zz", Args: []string{"b"}}); err == nil {
		t.Error("replay of an unrecorded command succeeded")
	}
}

func TestExitErrorMessage(t *testing.T) {
	tests := []struct {
		e    ExitError
		want string
	}{
		{ExitError{Command: "7zz b", Exit: Exit{Code: 2}, StderrLine: "ERROR"}, "7zz b: exit status 2: ERROR"},
		{ExitError{Command: "7zz b", Exit: SignalExit(syscall.SIGKILL)}, "7zz b: " + ErrKilled.Error()},
		{ExitError{Command: "7zz b", Exit: SignalExit(syscall.SIGSEGV)}, "7zz b: killed by signal SIGSEGV"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
