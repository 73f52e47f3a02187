// Package proc runs one external program the way a benchmark needs it:
// optionally pinned to a set of CPUs, in a process group of its own so that
// everything it starts is stopped together when the context is cancelled,
// with its output passed through live and the last part of it kept.
//
//	h, err := proc.Start(ctx, proc.Spec{
//		Argv:         []string{"7zz", "b", "-mmt1"},
//		CPUs:         []int{4},
//		Stdout:       os.Stdout,
//		Stderr:       os.Stderr,
//		CaptureLimit: 1 << 20,
//	})
//	if err != nil {
//		return err // proc.StartStatus(err) gives 127 for "not found"
//	}
//	exit, err := h.Wait()
//	out, total := h.Output()
//
// # Pinning
//
// Linux has no way to start a process with a given CPU affinity, but a
// child inherits the affinity of the thread that forks it. Start therefore
// locks a goroutine to its OS thread, sets that thread's affinity to
// Spec.CPUs, starts the program from it and then restores the thread's
// affinity before handing the thread back to the Go scheduler (if restoring
// fails, the thread is discarded instead). The program and everything it
// forks run on Spec.CPUs unless they change their own affinity. Start
// refuses CPUs this process may not use (offline, outside its cpuset):
// the kernel would silently drop them from the set.
//
// # Stopping
//
// The program leads a new process group (setpgid). When ctx is cancelled
// before it exits, the whole group gets SIGTERM, and SIGKILL when anything
// of it is still alive after Spec.KillGrace; Wait returns once the group is
// gone (or a short while after SIGKILL). A terminal's Ctrl-C reaches only
// the foreground process group, i.e. the caller, whose cancelled context
// then stops the program this way. Because the program is not in the
// terminal's foreground group it must not read the terminal: its standard
// input is /dev/null unless Spec.Stdin says otherwise. If the caller itself
// is killed with SIGKILL, the program keeps running.
//
// Processes the program leaves behind when it exits on its own are left
// alone; Wait closes their copy of the output pipes after PipeCloseDelay.
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"

	"golang.org/x/sys/unix"
)

// DefaultKillGrace is how long a cancelled program's process group has
// between SIGTERM and SIGKILL unless Spec.KillGrace says otherwise.
const DefaultKillGrace = 3 * time.Second

// PipeCloseDelay is how long Wait waits, once the program has exited, for
// processes it left behind to close their copy of its output pipes.
const PipeCloseDelay = 2 * time.Second

// maxCPU is the first CPU number unix.CPUSet cannot hold.
const maxCPU = len(unix.CPUSet{}) * 64

// Spec says what to run and how.
type Spec struct {
	// Argv is the program and its arguments. A program name without a
	// slash is looked up on PATH.
	Argv []string
	// Dir is the working directory; "" means the caller's.
	Dir string
	// Env is the environment; nil means the caller's.
	Env []string
	// CPUs pins the program and everything it starts to these CPUs; nil or
	// empty means no pinning (the caller's affinity is inherited).
	CPUs []int
	// Stdin is the program's standard input; nil means /dev/null.
	Stdin io.Reader
	// Stdout and Stderr receive the program's output as it comes; nil
	// discards it. A failing writer (e.g. a closed pipe) is given up on
	// without disturbing the program or the capture.
	Stdout, Stderr io.Writer
	// CaptureLimit is how many bytes of output Output keeps: the last ones,
	// standard output and standard error interleaved in the order they
	// arrived. 0 keeps none.
	CaptureLimit int
	// KillGrace is the time between SIGTERM and SIGKILL after ctx is
	// cancelled; 0 means DefaultKillGrace.
	KillGrace time.Duration
}

// Exit is how a program ended.
type Exit struct {
	// Code is the exit status; for a program killed by a signal it is 128
	// plus the signal number, as shells report it.
	Code int
	// Signal names the signal that killed the program, e.g. "SIGKILL"; ""
	// when it exited by itself.
	Signal string
	// Canceled is true when the context was cancelled before the program
	// exited, so that proc stopped its process group.
	Canceled bool
	// Duration is the wall time from start to exit.
	Duration time.Duration
	// OutputBytes is the total output the program wrote on both streams;
	// Output keeps at most Spec.CaptureLimit of it.
	OutputBytes int64
}

// Handle is a started program.
type Handle struct {
	cmd   *exec.Cmd
	pgid  int
	grace time.Duration
	start time.Time
	tail  *tailBuffer

	canceled   atomic.Bool
	leaderDone chan struct{} // closed when the program has been reaped
	stopped    chan struct{} // closed when the watcher is finished

	waitOnce sync.Once
	exit     Exit
	err      error
}

// Start starts the program described by s. It fails when Argv is empty,
// when the program cannot be found or executed (see StartStatus) and when
// s.CPUs cannot be used. Wait must be called to release the program.
func Start(ctx context.Context, s Spec) (*Handle, error) {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return nil, errors.New("no program to run")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var set *unix.CPUSet
	if len(s.CPUs) > 0 {
		cs, err := cpuSet(s.CPUs)
		if err != nil {
			return nil, err
		}
		set = &cs
	}
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	cmd.Stdin = s.Stdin
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = PipeCloseDelay
	h := &Handle{
		cmd:        cmd,
		grace:      s.KillGrace,
		leaderDone: make(chan struct{}),
		stopped:    make(chan struct{}),
	}
	if h.grace <= 0 {
		h.grace = DefaultKillGrace
	}
	if s.CaptureLimit > 0 {
		h.tail = newTailBuffer(s.CaptureLimit)
	}
	cmd.Stdout = h.outputTo(s.Stdout)
	cmd.Stderr = h.outputTo(s.Stderr)

	var err error
	if set != nil {
		err = startPinned(cmd, *set)
	} else {
		err = cmd.Start()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Argv[0], err)
	}
	h.start = time.Now()
	h.pgid = cmd.Process.Pid // the leader of its own new group
	go h.watch(ctx)
	return h, nil
}

// outputTo returns the writer for one of the program's streams: the pass-
// through writer and the capture. An *os.File without capture is handed to
// the program directly.
func (h *Handle) outputTo(w io.Writer) io.Writer {
	if h.tail == nil {
		return w // nil means /dev/null to os/exec
	}
	return &teeWriter{pass: w, tail: h.tail}
}

// cpuSet builds the affinity mask of cpus.
func cpuSet(cpus []int) (unix.CPUSet, error) {
	var set unix.CPUSet
	for _, c := range cpus {
		if c < 0 || c >= maxCPU {
			return set, fmt.Errorf("cpu %d: not a usable CPU number", c)
		}
		set.Set(c)
	}
	return set, nil
}

// startPinned starts cmd from an OS thread whose affinity is set to set, so
// that the child inherits it, and restores the thread afterwards.
func startPinned(cmd *exec.Cmd, set unix.CPUSet) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		var old unix.CPUSet
		if err := unix.SchedGetaffinity(0, &old); err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("reading CPU affinity: %v", err)
			return
		}
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("cannot pin to CPUs %s: %v", formatSet(set), err)
			return
		}
		var got unix.CPUSet
		if err := unix.SchedGetaffinity(0, &got); err != nil || got != set {
			err2 := fmt.Errorf("cannot pin to CPUs %s: only %s of them are available to this process", formatSet(set), formatSet(got))
			if unix.SchedSetaffinity(0, &old) == nil {
				runtime.UnlockOSThread()
			}
			errc <- err2
			return
		}
		err := cmd.Start()
		if unix.SchedSetaffinity(0, &old) == nil {
			runtime.UnlockOSThread()
		} // else: the goroutine ends locked and Go discards the thread
		errc <- err
	}()
	return <-errc
}

// formatSet writes a CPU set as a list ("0-3,6").
func formatSet(s unix.CPUSet) string {
	var ids []int
	for i := 0; i < maxCPU; i++ {
		if s.IsSet(i) {
			ids = append(ids, i)
		}
	}
	return cpu.FormatCPUList(ids)
}

// PID returns the program's process id, which is also its process group id.
func (h *Handle) PID() int { return h.pgid }

// watch stops the process group when ctx is cancelled before the program
// exits: SIGTERM, then SIGKILL after the grace period if any member lives.
func (h *Handle) watch(ctx context.Context) {
	defer close(h.stopped)
	select {
	case <-h.leaderDone:
		return
	case <-ctx.Done():
	}
	h.canceled.Store(true)
	if syscall.Kill(-h.pgid, syscall.SIGTERM) == syscall.ESRCH {
		return
	}
	if h.waitGroupGone(h.grace) {
		return
	}
	_ = syscall.Kill(-h.pgid, syscall.SIGKILL)
	h.waitGroupGone(time.Second)
}

// waitGroupGone polls until no living process of the group is left (true)
// or d has passed (false). The leader counts until Wait has reaped it.
func (h *Handle) waitGroupGone(d time.Duration) bool {
	live, _ := host.New("/")
	deadline := time.Now().Add(d)
	for {
		if !groupAlive(live, h.pgid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// groupAlive reports whether process group pgid has a member that is not a
// zombie. kill(pgid, 0) alone also counts zombies: orphans are reparented
// to init, which in some containers reaps them only every few seconds.
// When the members cannot be seen in /proc, the group counts as alive.
func groupAlive(live *host.Host, pgid int) bool {
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return false
	}
	if live == nil {
		return true
	}
	names, err := live.ReadDirNames("/proc")
	if err != nil {
		return true
	}
	members := 0
	for _, n := range names {
		if n == "" || n[0] < '0' || n[0] > '9' {
			continue
		}
		data, err := live.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue
		}
		state, pgrp, ok := parseStat(string(data))
		if !ok || pgrp != pgid {
			continue
		}
		members++
		if state != 'Z' && state != 'X' {
			return true
		}
	}
	return members == 0 // members exist (kill said so) but are hidden from us
}

// parseStat returns the state and process group of a /proc/PID/stat line:
// "PID (COMM) STATE PPID PGRP ...", where COMM may hold spaces and ")".
func parseStat(s string) (state byte, pgrp int, ok bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(f[2])
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], g, true
}

// Wait waits for the program to exit and returns how it ended. After a
// cancellation it also waits until the process group is gone (at most
// Spec.KillGrace plus about a second). The error is nil whenever the exit
// status is known, whatever it is; calling Wait again returns the same.
func (h *Handle) Wait() (Exit, error) {
	h.waitOnce.Do(func() {
		err := h.cmd.Wait()
		h.exit.Duration = time.Since(h.start)
		close(h.leaderDone)
		<-h.stopped // after a cancellation: until the group is gone
		h.exit.Canceled = h.canceled.Load()
		if h.tail != nil {
			h.exit.OutputBytes = h.tail.Total()
		}
		ps := h.cmd.ProcessState
		if ps == nil {
			h.err = err
			h.exit.Code = -1
			return
		}
		h.exit.Code = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			h.exit.Signal = unix.SignalName(ws.Signal())
			if h.exit.Signal == "" {
				h.exit.Signal = fmt.Sprintf("signal %d", int(ws.Signal()))
			}
			h.exit.Code = 128 + int(ws.Signal())
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
			h.err = err // e.g. copying the output failed
		}
	})
	return h.exit, h.err
}

// Output returns the captured output (the last Spec.CaptureLimit bytes at
// most) and how many bytes the program wrote in all. Call it after Wait for
// the complete capture.
func (h *Handle) Output() (tail []byte, total int64) {
	if h.tail == nil {
		return nil, 0
	}
	return h.tail.Bytes(), h.tail.Total()
}

// Run starts the program, waits for it and returns its exit and output.
func Run(ctx context.Context, s Spec) (Exit, []byte, error) {
	h, err := Start(ctx, s)
	if err != nil {
		return Exit{Code: StartStatus(err)}, nil, err
	}
	exit, err := h.Wait()
	out, _ := h.Output()
	return exit, out, err
}

// StartStatus returns the exit status a shell reports when a program cannot
// be started with err: 127 when it is not found, 126 when it is found but
// cannot be executed (permission, format), 1 otherwise; 0 for nil.
func StartStatus(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return 127
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ENOEXEC), errors.Is(err, syscall.EISDIR):
		return 126
	default:
		return 1
	}
}

// IsNotFound reports whether a Start error means the program does not exist.
func IsNotFound(err error) bool { return StartStatus(err) == 127 }

// teeWriter copies a stream to a pass-through writer and the capture. A
// failing pass-through writer is given up on; the capture never fails.
type teeWriter struct {
	pass   io.Writer
	failed bool
	tail   *tailBuffer
}

func (t *teeWriter) Write(p []byte) (int, error) {
	if t.pass != nil && !t.failed {
		if _, err := t.pass.Write(p); err != nil {
			t.failed = true
		}
	}
	t.tail.Write(p)
	return len(p), nil
}

var _ io.Writer = (*teeWriter)(nil)
