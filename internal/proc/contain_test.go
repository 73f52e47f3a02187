package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/kernelfile"
	"boardbench/internal/testutil/wait"

	"golang.org/x/sys/unix"
)

// containModes are the two ways descendants are found: a cgroup (skipped
// where the system does not allow one) and the /proc scan.
var containModes = []struct {
	name     string
	noCgroup bool
}{
	{"cgroup", false},
	{"proc scan", true},
}

func skipWithoutCgroup(t *testing.T, noCgroup bool) {
	t.Helper()
	if noCgroup {
		return
	}
	cg := newCgroup()
	if cg == nil {
		t.Skip("no writable cgroup v2 here")
	}
	cg.remove()
}

// gone reports whether pid has exited (an unreaped zombie counts as gone).
func gone(pid int) bool {
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	st, ok := kernelfile.ParsePIDStat(string(data))
	return ok && st.Dead()
}

// waitGone fails the test unless pid ends (a hang guard of minutes, no
// speed limit: a loaded machine may be slow to deliver a signal).
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(wait.HangGuard)
	for !gone(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) still alive after %v", what, pid, wait.HangGuard)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readPIDFile waits for a shell to write its pid into path.
func readPIDFile(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(wait.HangGuard)
	for {
		data, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(string(data), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatalf("pid file %q", data)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sessionOf returns the session id of pid.
func sessionOf(t *testing.T, pid int) int {
	t.Helper()
	sid, err := unix.Getsid(pid)
	if err != nil {
		t.Fatal(err)
	}
	return sid
}

// escapeScript starts a grandchild that leaves the process group and the
// session (setsid) and writes its pid into the file "$0".
const escapeScript = `setsid sh -c 'echo $$ > "$0"; exec sleep 300' "$0" & `

func TestCancelStopsDescendantsThatLeftTheGroup(t *testing.T) {
	needShell(t)
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on this machine")
	}
	for _, mode := range containModes {
		t.Run(mode.name, func(t *testing.T) {
			skipWithoutCgroup(t, mode.noCgroup)
			pidFile := filepath.Join(t.TempDir(), "pid")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h, err := Start(ctx, Spec{Argv: []string{"sh", "-c", escapeScript + "sleep 300", pidFile}, KillGrace: time.Second, noCgroup: mode.noCgroup})
			if err != nil {
				t.Fatal(err)
			}
			escaped := readPIDFile(t, pidFile)
			if sessionOf(t, escaped) == sessionOf(t, h.PID()) {
				t.Fatalf("the grandchild %d did not leave the session", escaped)
			}
			var cgDir string
			if h.kin.cg != nil {
				cgDir = h.kin.cg.dir
			}
			if mode.noCgroup != (cgDir == "") {
				t.Fatalf("cgroup %q in mode %s", cgDir, mode.name)
			}
			time.Sleep(100 * time.Millisecond) // at least one /proc scan
			cancel()
			var exit Exit
			guard(t, "Wait after cancel", func() { exit, err = h.Wait() })
			if err != nil || !exit.Canceled || exit.Code != 143 {
				t.Errorf("exit = %+v, %v; want canceled by SIGTERM (143)", exit, err)
			}
			if !gone(escaped) {
				syscall.Kill(escaped, syscall.SIGKILL)
				t.Fatalf("the grandchild %d that left the group is alive after Wait", escaped)
			}
			if cgDir != "" {
				if _, err := os.Stat(cgDir); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("cgroup %s not removed after Wait: %v", cgDir, err)
				}
			}
		})
	}
}

func TestExitStopsWhatWasLeftBehind(t *testing.T) {
	needShell(t)
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on this machine")
	}
	for _, mode := range containModes {
		t.Run(mode.name, func(t *testing.T) {
			skipWithoutCgroup(t, mode.noCgroup)
			pidFile := filepath.Join(t.TempDir(), "pid")
			exitFile := pidFile + ".exit"
			// The program waits for the pid file, then lives until the test
			// creates the exit file: after the /proc scan has seen the
			// grandchild (an event, however slow the machine).
			script := escapeScript + `while [ ! -s "$0" ]; do sleep 0.05; done; while [ ! -e "$0.exit" ]; do sleep 0.05; done; exit 4`
			h, err := Start(context.Background(), Spec{Argv: []string{"sh", "-c", script, pidFile}, KillGrace: time.Second, noCgroup: mode.noCgroup})
			if err != nil {
				t.Fatal(err)
			}
			escaped := readPIDFile(t, pidFile)
			if h.kin.scanning() {
				wait.Until(t, "the /proc scan finding the grandchild", func() bool {
					h.kin.mu.Lock()
					defer h.kin.mu.Unlock()
					_, ok := h.kin.tracked[escaped]
					return ok
				})
			}
			if err := os.WriteFile(exitFile, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			var exit Exit
			guard(t, "Wait", func() { exit, err = h.Wait() })
			if err != nil {
				t.Fatal(err)
			}
			if exit.Code != 4 || exit.Canceled || exit.Stray < 1 {
				t.Errorf("exit = %+v, want code 4 with a stray process stopped", exit)
			}
			waitGone(t, escaped, "the grandchild left behind")
		})
	}
}

// helperEnv makes the test binary run TestHelperParent as a parent that
// starts the program in BOARDBENCH_PROC_HELPER_ARGV (fields separated by
// newlines) on the CPU in BOARDBENCH_PROC_HELPER_CPU (unset for none),
// prints the program's pid and cgroup ("-" for none) and waits to be
// killed.
const helperEnv = "BOARDBENCH_PROC_HELPER"

func TestHelperParent(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("helper process for TestParentKilledTakesItsChild")
	}
	var cpus []int
	if c := os.Getenv(helperEnv + "_CPU"); c != "" {
		n, _ := strconv.Atoi(c)
		cpus = []int{n}
	}
	h, err := Start(context.Background(), Spec{Argv: strings.Split(os.Getenv(helperEnv+"_ARGV"), "\n"), CPUs: cpus})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	// Threads end while the program runs: goroutines that exit locked to
	// their thread make Go discard it. The thread that forked the program
	// must not be one of them, or the parent-death signal would fire now.
	for round := 0; round < 20; round++ {
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); runtime.LockOSThread(); time.Sleep(time.Millisecond) }()
		}
		wg.Wait() // this goroutine's thread may go idle and serve the others
	}
	time.Sleep(100 * time.Millisecond)
	cg := "-"
	if h.kin.cg != nil {
		cg = h.kin.cg.dir
	}
	fmt.Println(h.PID(), cg)
	select {}
}

func TestParentKilledTakesItsChild(t *testing.T) {
	needShell(t)
	tests := []struct {
		name   string
		pinned bool
	}{
		{"unpinned", false},
		{"pinned", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperParent$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperEnv+"=1", helperEnv+"_ARGV=sleep\n300")
			if tt.pinned {
				cmd.Env = append(cmd.Env, helperEnv+"_CPU=0")
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			line := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(out)
				sc.Scan()
				line <- sc.Text()
				for sc.Scan() {
				}
			}()
			var child int
			var cgDir string
			select {
			case l := <-line:
				if _, err := fmt.Sscan(l, &child, &cgDir); err != nil {
					t.Fatalf("helper said %q", l)
				}
			case <-time.After(wait.HangGuard):
				t.Fatal("hung: the helper did not start its child")
			}
			if gone(child) {
				t.Fatal("the child died while its parent's threads came and went")
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			waitGone(t, child, "the child of the SIGKILLed parent")
			if cgDir == "-" {
				return
			}
			// The dead parent's cgroup is left; the next cgroup created
			// stops what is in it and removes it.
			if cg := newCgroup(); cg != nil {
				cg.remove()
			}
			if _, err := os.Stat(cgDir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the dead parent's cgroup %s was not swept: %v", cgDir, err)
			}
		})
	}
}

func TestCgroup2Mount(t *testing.T) {
	tests := []struct {
		name, mountinfo, root, point string
	}{
		{"unified", "35 24 0:30 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate\n", "/", "/sys/fs/cgroup"},
		{"hybrid", "30 25 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n41 30 0:35 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n", "/", "/sys/fs/cgroup/unified"},
		{"escaped", `50 1 0:40 /a\040b /mnt/c\040g rw - cgroup2 none rw` + "\n", "/a b", "/mnt/c g"},
		{"v1 only", "31 30 0:27 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "", ""},
		{"garbage", "nonsense - \n - cgroup2\n", "", ""},
	}
	for _, tt := range tests {
		root, point := cgroup2Mount([]byte(tt.mountinfo))
		if root != tt.root || point != tt.point {
			t.Errorf("%s: cgroup2Mount = %q %q, want %q %q", tt.name, root, point, tt.root, tt.point)
		}
	}
}
