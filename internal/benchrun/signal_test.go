package benchrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"boardbench/internal/interrupt"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"
)

// TestRunSignals sends each interrupting signal to the process while a
// real benchmark child (and a grandchild) runs: the run stops, the
// fixture's cpufreq files are byte-identical afterwards, no child survives,
// and the result is saved as interrupted with the signal named.
func TestRunSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		name := interrupt.NameOf(sig)
		t.Run(name, func(t *testing.T) {
			t.Setenv("BOARDBENCH_STATE_DIR", t.TempDir())
			root := bigLittle(t)
			before := fixture.Snapshot(t, root)
			ctx, stop := interrupt.NotifyContext(context.Background())
			defer stop()
			pidFile := filepath.Join(t.TempDir(), "pids")
			ex := &fakeExec{}
			ex.hook = func(hctx context.Context, n int, c proc.Command) (proc.Result, error, bool) {
				if !strings.Contains(c.Name, "7z") {
					return proc.Result{}, nil, false
				}
				h, err := proc.Start(hctx, proc.Spec{Argv: []string{"sh", "-c", "sleep 300 & echo $! > " + pidFile + "; echo $$ >> " + pidFile + "; wait"}})
				if err != nil {
					t.Errorf("starting the benchmark stand-in: %v", err)
					return proc.Result{}, err, true
				}
				waitForFile(t, pidFile)
				if err := syscall.Kill(os.Getpid(), sig); err != nil {
					t.Errorf("kill: %v", err)
				}
				exit, _ := h.Wait()
				return proc.Result{Exit: exit}, hctx.Err(), true
			}
			cfg := fixtureConfig(t, root, ex)
			out := filepath.Join(t.TempDir(), "r.json")
			o, err := Run(ctx, cfg, Options{Output: out, Force: true})
			var ie *interrupt.Error
			if !errors.As(err, &ie) || o == nil || ie.Signal != name {
				t.Fatalf("Run = %v, want an interruption by %s", err, name)
			}
			if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
				t.Errorf("fixture not restored after %s", name)
			}
			for _, pid := range readPIDs(t, pidFile) {
				if alive(pid) {
					t.Errorf("process %d survived %s", pid, name)
				}
			}
			r, err := result.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			last := r.Phases[len(r.Phases)-1]
			if r.Status != result.StatusInterrupted || last.Status != result.PhaseInterrupted || !strings.Contains(last.Reason, name) {
				t.Errorf("status %q, last phase %q (%q)", r.Status, last.Status, last.Reason)
			}
		})
	}
}

func waitForFile(t *testing.T, p string) {
	t.Helper()
	wait.Until(t, p+" written", func() bool {
		data, err := os.ReadFile(p)
		return err == nil && strings.Count(string(data), "\n") >= 2
	})
}

func readPIDs(t *testing.T, p string) []int {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range strings.Fields(string(data)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// alive reports whether pid runs (a zombie, already dead, does not count).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
