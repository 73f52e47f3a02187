package proc

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/testutil/wait"
)

// guard fails the test when f does not return (a hang guard of minutes,
// no speed limit).
func guard(t *testing.T, what string, f func()) {
	t.Helper()
	wait.Return(t, what, f)
}

func needShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on this machine")
	}
}

func TestExitStatusAndCapture(t *testing.T) {
	needShell(t)
	var out, errOut bytes.Buffer
	exit, captured, err := Run(context.Background(), Spec{
		Argv:         []string{"sh", "-c", "echo hello; echo oops >&2; exit 3"},
		Stdout:       &out,
		Stderr:       &errOut,
		CaptureLimit: 1 << 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	if exit.Code != 3 || exit.Signal != "" || exit.Canceled {
		t.Errorf("exit = %+v, want code 3", exit)
	}
	if out.String() != "hello\n" || errOut.String() != "oops\n" {
		t.Errorf("pass-through: stdout %q, stderr %q", out.String(), errOut.String())
	}
	if !strings.Contains(string(captured), "hello\n") || !strings.Contains(string(captured), "oops\n") || exit.OutputBytes != 11 {
		t.Errorf("captured %q (%d bytes in all)", captured, exit.OutputBytes)
	}
}

func TestCaptureIsBounded(t *testing.T) {
	needShell(t)
	var out bytes.Buffer
	const limit = 100
	exit, captured, err := Run(context.Background(), Spec{
		Argv:         []string{"sh", "-c", `i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done`},
		Stdout:       &out,
		CaptureLimit: limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	full := out.String()
	if !strings.HasSuffix(full, "line 1999\n") {
		t.Fatalf("pass-through incomplete: ends %q", full[max(0, len(full)-20):])
	}
	if len(captured) != limit || !strings.HasSuffix(full, string(captured)) {
		t.Errorf("captured %d bytes %q, want the last %d of the output", len(captured), captured, limit)
	}
	if exit.OutputBytes != int64(len(full)) {
		t.Errorf("OutputBytes = %d, want %d", exit.OutputBytes, len(full))
	}
}

func TestTailBuffer(t *testing.T) {
	cases := []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{"fits", 10, []string{"abc", "def"}, "abcdef"},
		{"keeps the end", 4, []string{"abc", "def", "gh"}, "efgh"},
		{"one big write", 3, []string{"abcdefg"}, "efg"},
		{"no split character", 3, []string{"xx", "é", "ab"}, "ab"}, // "\xa9ab" would start inside "é"
		{"whole character kept", 4, []string{"xx", "é", "ab"}, "éab"},
		{"many small writes", 5, strings.Split(strings.Repeat("0123456789", 7), ""), "56789"},
	}
	for _, c := range cases {
		tb := newTailBuffer(c.limit)
		var total int64
		for _, w := range c.writes {
			tb.Write([]byte(w))
			total += int64(len(w))
		}
		if got := string(tb.Bytes()); got != c.want || tb.Total() != total {
			t.Errorf("%s: got %q (%d), want %q (%d)", c.name, got, tb.Total(), c.want, total)
		}
	}
}

// TestStartedProgramIsTheOOMKillersChoice: a started program has the
// highest oom_score_adj once Start returns, so the kernel's OOM killer
// takes it before boardbench.
func TestStartedProgramIsTheOOMKillersChoice(t *testing.T) {
	needShell(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h, err := Start(ctx, Spec{Argv: []string{"sleep", "30"}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(h.PID()) + "/oom_score_adj")
	cancel()
	_, _ = h.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(data)); got != strconv.Itoa(OOMScoreAdj) {
		t.Errorf("oom_score_adj of the started program %q, want %d", got, OOMScoreAdj)
	}
	own, err := os.ReadFile("/proc/self/oom_score_adj")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(own)) == strconv.Itoa(OOMScoreAdj) {
		t.Errorf("boardbench's own oom_score_adj was raised too")
	}
}

func TestCancelKillsTheGroupPromptly(t *testing.T) {
	needShell(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The shell starts a grandchild in the background: both must go.
	ready := readyFile(t)
	h, err := Start(ctx, Spec{Argv: []string{"sh", "-c", "sleep 30 & : > " + ready + "; sleep 30; wait"}})
	if err != nil {
		t.Fatal(err)
	}
	pgid := h.PID()
	waitReady(t, ready) // the shell has started its children
	cancel()
	var exit Exit
	guard(t, "Wait after cancel", func() { exit, err = h.Wait() })
	if err != nil {
		t.Fatal(err)
	}
	if !exit.Canceled || exit.Signal != "SIGTERM" || exit.Code != 128+15 {
		t.Errorf("exit = %+v, want canceled by SIGTERM (143)", exit)
	}
	if groupAlive(liveHost(t), pgid) {
		t.Errorf("process group %d still has living members after Wait", pgid)
	}
}

func TestCancelEscalatesToSIGKILL(t *testing.T) {
	needShell(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Ignored signals stay ignored across exec: sleep ignores SIGTERM too.
	ready := readyFile(t)
	h, err := Start(ctx, Spec{Argv: []string{"sh", "-c", `trap "" TERM; : > ` + ready + `; sleep 30`}, KillGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	pgid := h.PID()
	waitReady(t, ready) // SIGTERM is ignored from now on
	cancel()
	var exit Exit
	guard(t, "Wait after cancel", func() { exit, err = h.Wait() })
	if !exit.Canceled || exit.Signal != "SIGKILL" || exit.Code != 137 {
		t.Errorf("exit = %+v, want SIGKILL (137)", exit)
	}
	if groupAlive(liveHost(t), pgid) {
		t.Errorf("process group %d still has living members after Wait", pgid)
	}
}

// readyFile returns a path, not yet created, that a test's shell creates
// once it has reached the point the test waits for.
func readyFile(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "ready")
}

// waitReady waits until the shell has created ready: an event, not a
// guess at how long a loaded machine takes to start a shell.
func waitReady(t *testing.T, ready string) {
	t.Helper()
	wait.Until(t, "the shell's "+filepath.Base(ready)+" file", func() bool {
		_, err := os.Stat(ready)
		return err == nil
	})
}

func liveHost(t *testing.T) *host.Host {
	t.Helper()
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestGroupAliveSeesRunningMembers(t *testing.T) {
	h, err := Start(context.Background(), Spec{Argv: []string{"sleep", "30"}})
	if err != nil {
		t.Skip("no sleep: ", err)
	}
	if !groupAlive(liveHost(t), h.PID()) {
		t.Error("a sleeping group member was not seen")
	}
	syscall.Kill(-h.PID(), syscall.SIGKILL)
	guard(t, "Wait after SIGKILL", func() { h.Wait() })
	if syscall.Kill(-h.PID(), 0) == nil {
		t.Error("the reaped leader's group still exists")
	}
}

// childAllowedList runs a child and returns its Cpus_allowed_list.
func childAllowedList(t *testing.T, cpus []int) string {
	t.Helper()
	var out bytes.Buffer
	exit, _, err := Run(context.Background(), Spec{Argv: []string{"cat", "/proc/self/status"}, CPUs: cpus, Stdout: &out})
	if err != nil || exit.Code != 0 {
		t.Fatalf("cat /proc/self/status: %v %+v", err, exit)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no Cpus_allowed_list in %q", out.String())
	return ""
}

func TestAffinityIsInherited(t *testing.T) {
	allowed, err := host.AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("no cat on this machine")
	}
	all := formatList(allowed)
	last := allowed[len(allowed)-1]
	if got := childAllowedList(t, []int{last}); got != fmt.Sprint(last) {
		t.Errorf("pinned to cpu%d: child allows %q", last, got)
	}
	if len(allowed) >= 2 {
		two := allowed[:2]
		if got := childAllowedList(t, two); got != formatList(two) {
			t.Errorf("pinned to %v: child allows %q", two, got)
		}
	}
	// The pinning thread was restored: unpinned children, started from any
	// thread, may use every CPU again.
	for i := 0; i < 5; i++ {
		if got := childAllowedList(t, nil); got != all {
			t.Fatalf("unpinned child %d allows %q, want %q", i, got, all)
		}
	}
}

func formatList(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(cpus[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

func TestStartErrors(t *testing.T) {
	allowed, err := host.AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	unusable := allowed[len(allowed)-1] + 1
	cases := []struct {
		name   string
		spec   Spec
		status int
	}{
		{"empty argv", Spec{}, 1},
		{"not on PATH", Spec{Argv: []string{"boardbench-no-such-program"}}, 127},
		{"no such file", Spec{Argv: []string{"/nonexistent/boardbench"}}, 127},
		{"not executable", Spec{Argv: []string{"/proc/self/status"}}, 126},
		{"unusable CPU", Spec{Argv: []string{"true"}, CPUs: []int{unusable}}, 1},
		{"negative CPU", Spec{Argv: []string{"true"}, CPUs: []int{-1}}, 1},
	}
	for _, c := range cases {
		h, err := Start(context.Background(), c.spec)
		if err == nil {
			h.Wait()
			t.Errorf("%s: started", c.name)
			continue
		}
		if got := StartStatus(err); got != c.status {
			t.Errorf("%s: StartStatus(%v) = %d, want %d", c.name, err, got, c.status)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Start(ctx, Spec{Argv: []string{"true"}}); err == nil {
		t.Error("started under a cancelled context")
	}
}

func TestConcurrentPinnedStarts(t *testing.T) {
	allowed, err := host.AllowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("no cat on this machine")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(cpu int) {
			defer wg.Done()
			var out bytes.Buffer
			if _, _, err := Run(context.Background(), Spec{Argv: []string{"cat", "/proc/self/status"}, CPUs: []int{cpu}, Stdout: &out}); err != nil {
				errs <- err.Error()
				return
			}
			if want := fmt.Sprintf("Cpus_allowed_list:\t%d\n", cpu); !strings.Contains(out.String(), want) {
				errs <- fmt.Sprintf("cpu%d: child status lacks %q", cpu, want)
			}
		}(allowed[i%len(allowed)])
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
