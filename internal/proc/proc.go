// Package proc runs the child processes of boardbench: external benchmarks,
// the command of `monitor -- COMMAND`, package installations. A child may
// run for minutes, so it does not go through host.Run and its short timeout.
//
// Start and Handle run one program the way a benchmark needs it: optionally
// pinned to a set of CPUs, stopped together with everything it started when
// the context is cancelled, with its output passed through live and the last
// part of it kept. Executor (Live for the live system, Replay for a recorded
// root, fakes in tests) runs one Command to completion and returns its
// Result; Outcome records and classifies how a benchmark process ended.
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
// # Exit status
//
// Exit.Code is what a shell reports: the exit status, or 128+N for a program
// killed by signal N (137 for SIGKILL), and for a program that could not be
// started 127 (not found), 126 (not executable) or 1 (see StartStatus).
// Exit.Signal names the signal. Every caller (runners, monitor, package
// installation) uses this one convention.
//
// # Pinning
//
// Linux has no way to start a process with a given CPU affinity, but a
// child inherits the affinity of the thread that forks it. Start therefore
// locks a goroutine to its OS thread, sets that thread's affinity to
// Spec.CPUs, starts the program from it and then restores the thread's
// affinity. The program and everything it forks run on Spec.CPUs unless
// they change their own affinity. Start refuses CPUs this process may not
// use (offline, outside its cpuset): the kernel would silently drop them
// from the set.
//
// # Stopping
//
// The program leads a new process group (setpgid). Where the system allows
// it (cgroup v2 mounted and writable, as for root on most systems), it is
// also started directly inside a cgroup of its own, a child of boardbench's
// cgroup named boardbench-PID-*, so that descendants that leave the process
// group (setsid, daemons) are still found; the cgroup is removed when the
// program is done. Elsewhere, Start records the program's descendants by
// scanning /proc for their parent chain while it runs (every 0.5 s at most,
// more often right after the start); a descendant that leaves the process
// group and whose parent exits between two scans is not seen.
//
// When ctx is cancelled before the program exits, the process group and
// every descendant get SIGTERM, and SIGKILL (cgroup.kill for the cgroup)
// when anything of them is still alive after Spec.KillGrace; Wait returns
// once they are gone (or a short while after SIGKILL). When the program
// exits by itself, what it left running is stopped the same way: a finished
// benchmark leaves nothing behind to disturb the next measurement, and
// Exit.Stray counts what was stopped.
//
// A terminal's Ctrl-C reaches only the foreground process group, i.e. the
// caller, whose cancelled context then stops the program this way. Because
// the program is not in the terminal's foreground group it must not read
// the terminal: its standard input is /dev/null unless Spec.Stdin says
// otherwise.
//
// # Pseudo-terminal
//
// With Spec.PTY the program's standard output is a new pseudo-terminal
// (github.com/creack/pty) whose output boardbench copies to Spec.Stdout
// and the capture, so that programs that buffer when piped stream their
// lines. The terminal is not made the program's controlling terminal and
// nothing is changed on boardbench's own terminal. When the program has
// exited, Wait waits for the copy to drain (at most PipeCloseDelay when
// processes it left behind still hold the terminal) and closes it.
//
// If boardbench itself is killed with SIGKILL, the kernel sends SIGKILL to
// the program (the parent-death signal, PR_SET_PDEATHSIG). Linux sends it
// when the thread that forked the program exits, not the process, so Start
// forks from an OS thread locked to one goroutine and keeps that thread
// until the program has exited: the Go runtime cannot end it early. The
// parent-death signal reaches only the program itself; processes it started
// survive a SIGKILLed boardbench (they remain in the cgroup, if there is
// one, where the next boardbench that starts a program stops them).
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"

	"golang.org/x/sys/unix"
)

// DefaultKillGrace is how long a cancelled program and its descendants have
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
	// Env is the environment; nil means the caller's. Either way the
	// variables host.ChildEnv drops are dropped.
	Env []string
	// UserCommand marks the user's own command line (monitor -- COMMAND,
	// review --apply -- COMMAND, a cmd: power program): it keeps the
	// user's database credentials (PGPASSWORD, see host.ChildEnv), which the
	// programs boardbench chooses do not get.
	UserCommand bool
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
	// KillGrace is the time between SIGTERM and SIGKILL when the program
	// or what it left behind is stopped; 0 means DefaultKillGrace.
	KillGrace time.Duration
	// PTY puts the program's standard output on a new pseudo-terminal
	// instead of a pipe, so that a program that buffers its output when
	// it is not writing to a terminal (C stdio, 7-Zip) writes each line as
	// it would in a terminal. What it writes there is copied to Stdout
	// and captured like a pipe's output, byte for byte (no newline
	// translation). Standard error stays a pipe to Stderr, and standard
	// input is Stdin as without PTY. The terminal is not the program's
	// controlling terminal: the program stays in its own process group of
	// boardbench's session, and Ctrl-C still reaches boardbench only.
	PTY bool
	// PTYSize is the window size the pseudo-terminal reports; zero means
	// DefaultWindowSize.
	PTYSize WindowSize

	// noCgroup makes tests use the /proc scan where a cgroup is possible.
	noCgroup bool
}

// Exit is how a program ended.
type Exit struct {
	// Code is the status a shell reports: the exit status; 128 plus the
	// signal number for a program killed by a signal; 127, 126 or 1 for a
	// program that could not be started (see StartStatus).
	Code int
	// Signal names the signal that killed the program, e.g. "SIGKILL"; ""
	// when it exited by itself or did not start.
	Signal string
	// Canceled is true when the context was cancelled before the program
	// exited, so that proc stopped it and its descendants.
	Canceled bool
	// Stray counts the processes the program left running when it exited
	// by itself, which proc then stopped.
	Stray int
	// Duration is the wall time from start to exit.
	Duration time.Duration
	// OutputBytes is the total output the program wrote on both streams;
	// Output keeps at most Spec.CaptureLimit of it.
	OutputBytes int64
}

// SignalExit returns the Exit of a program killed by sig: Code 128+sig and
// the signal's name, e.g. 137 and "SIGKILL".
func SignalExit(sig syscall.Signal) Exit {
	name := unix.SignalName(sig)
	if name == "" {
		name = fmt.Sprintf("signal %d", int(sig))
	}
	return Exit{Code: 128 + int(sig), Signal: name}
}

// Handle is a started program.
type Handle struct {
	cmd   *exec.Cmd
	pgid  int
	grace time.Duration
	start time.Time
	tail  *tailBuffer
	kin   *kin       // the program's descendants: its cgroup or the /proc scan
	pty   *ptyOutput // nil unless Spec.PTY
	obs   Observer

	canceled   atomic.Bool
	stray      int           // set by watch before stopped is closed
	exited     chan struct{} // closed when the program has exited (not yet reaped)
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
	h := &Handle{
		grace:      s.KillGrace,
		exited:     make(chan struct{}),
		leaderDone: make(chan struct{}),
		stopped:    make(chan struct{}),
	}
	if h.grace <= 0 {
		h.grace = DefaultKillGrace
	}
	if s.CaptureLimit > 0 {
		h.tail = newTailBuffer(s.CaptureLimit)
	}
	if s.PTY {
		p, err := openPTY(s.PTYSize)
		if err != nil {
			return nil, err
		}
		h.pty = p
	}
	newCmd := func() *exec.Cmd {
		cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
		cmd.Dir = s.Dir
		cmd.Env = host.ChildEnv(s.Env, s.UserCommand)
		cmd.Stdin = s.Stdin
		cmd.Stdout = h.outputTo(s.Stdout)
		if h.pty != nil {
			cmd.Stdout = h.pty.tty // an *os.File: passed to the program as is
		}
		cmd.Stderr = h.outputTo(s.Stderr)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		cmd.WaitDelay = PipeCloseDelay
		return cmd
	}

	cmd := newCmd()
	var cg *cgroup // nil where the system does not allow one
	if !s.noCgroup {
		cg = newCgroup()
	}
	if cg != nil {
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = cg.fd()
	}
	err := startOnThread(cmd, set, h.exited)
	if err != nil && cg != nil && cmd.Err == nil && !isExecError(err) {
		// Starting into the cgroup failed (an old kernel without
		// clone3, a cgroup the kernel refuses): start without it.
		cg.remove()
		cg = nil
		cmd = newCmd()
		err = startOnThread(cmd, set, h.exited)
	}
	if err != nil {
		if cg != nil {
			cg.remove()
		}
		if h.pty != nil {
			h.pty.closeAll()
		}
		return nil, fmt.Errorf("%s: %w", s.Argv[0], err)
	}
	cg.closeFD()
	if h.pty != nil {
		// Only the program (and what it starts) keeps the terminal's
		// end open, so that the copy ends when they are gone.
		h.pty.tty.Close()
		go h.pty.copyTo(h.outputTo(s.Stdout))
	}
	h.cmd = cmd
	h.start = time.Now()
	h.pgid = cmd.Process.Pid // the leader of its own new group
	preferForOOMKill(h.pgid)
	h.kin = newKin(h.pgid, cg)
	if h.obs = observerOf(ctx); h.obs != nil {
		h.obs.Started(h.pgid)
	}
	go h.watch(ctx)
	return h, nil
}

// isExecError reports whether err is the program's own fault (missing,
// not executable), which a start without the cgroup would repeat.
func isExecError(err error) bool { return StartStatus(err) != 1 }

// outputTo returns the writer for one of the program's streams: the pass-
// through writer and the capture.
func (h *Handle) outputTo(w io.Writer) io.Writer {
	if h.tail == nil {
		return w // nil means /dev/null to os/exec
	}
	return &teeWriter{pass: w, tail: h.tail}
}

// cpuSet builds the affinity mask of cpus after checking that this process
// may use every one of them.
func cpuSet(cpus []int) (unix.CPUSet, error) {
	var set unix.CPUSet
	allowed, err := host.AllowedCPUs()
	if err != nil {
		return set, fmt.Errorf("reading the CPUs this process may use: %v", err)
	}
	for _, c := range cpus {
		if c < 0 || c >= maxCPU {
			return set, fmt.Errorf("cpu %d: not a usable CPU number", c)
		}
		if !slices.Contains(allowed, c) {
			return set, fmt.Errorf("cpu %d is not available to this process (available: %s)", c, cpu.FormatCPUList(allowed))
		}
		set.Set(c)
	}
	return set, nil
}

// startOnThread starts cmd from an OS thread locked to one goroutine. With
// a CPU set the thread's affinity is set first, so that the child inherits
// it, and restored after the start. The goroutine then keeps the thread
// until the child has exited, closing exited at that moment: the child's
// parent-death signal fires when the forking thread exits, so that thread
// must not end while the child runs. A thread whose affinity could not be
// restored ends with the goroutine (Go discards a thread still locked).
func startOnThread(cmd *exec.Cmd, set *unix.CPUSet, exited chan<- struct{}) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		restored, err := startFromThisThread(cmd, set)
		errc <- err
		if err == nil {
			waitExited(cmd.Process.Pid)
			close(exited)
		}
		if restored {
			runtime.UnlockOSThread()
		}
	}()
	return <-errc
}

// startFromThisThread starts cmd from the calling (locked) thread, pinned
// to set when it is not nil. restored is false when the thread's affinity
// could not be put back, so that the thread must be discarded.
func startFromThisThread(cmd *exec.Cmd, set *unix.CPUSet) (restored bool, err error) {
	if set == nil {
		return true, cmd.Start()
	}
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return true, fmt.Errorf("reading CPU affinity: %v", err)
	}
	if err := unix.SchedSetaffinity(0, set); err != nil {
		return true, fmt.Errorf("cannot pin to CPUs %s: %v", formatSet(*set), err)
	}
	var got unix.CPUSet
	if err := unix.SchedGetaffinity(0, &got); err != nil || got != *set {
		err = fmt.Errorf("cannot pin to CPUs %s: only %s of them are available to this process", formatSet(*set), formatSet(got))
	} else {
		err = cmd.Start()
	}
	return unix.SchedSetaffinity(0, &old) == nil, err
}

// waitExited blocks until process pid has exited, without reaping it (Wait
// does that). It also returns when pid is no longer a child to wait for.
func waitExited(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
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

// watch follows the program until it exits or ctx is cancelled. Without a
// cgroup it scans /proc for the program's descendants meanwhile. When ctx
// is cancelled first, it stops the program and its descendants; when the
// program exits first, it stops what the program left running.
func (h *Handle) watch(ctx context.Context) {
	defer close(h.stopped)
	var scan <-chan time.Time
	interval := 10 * time.Millisecond
	if h.kin.scanning() {
		t := time.NewTimer(interval)
		defer t.Stop()
		scan = t.C
		for {
			select {
			case <-h.exited:
				h.afterExit()
				return
			case <-ctx.Done():
				h.cancel()
				return
			case <-scan:
				h.kin.scan()
				interval = min(2*interval, 500*time.Millisecond)
				t.Reset(interval)
			}
		}
	}
	select {
	case <-h.exited:
		h.afterExit()
	case <-ctx.Done():
		h.cancel()
	}
}

// afterExit stops what the program left running when it exited by itself.
func (h *Handle) afterExit() {
	h.kin.scan()
	if n := len(h.kin.living()); n > 0 {
		h.stray = n
		h.stop()
	}
}

// cancel stops the program and its descendants after ctx was cancelled.
func (h *Handle) cancel() {
	h.canceled.Store(true)
	h.kin.scan()
	h.stop()
}

// stop sends SIGTERM to the process group and every descendant known, then
// SIGKILL after the grace period to whatever is still alive.
func (h *Handle) stop() {
	h.kin.signal(syscall.SIGTERM)
	if h.waitGone(h.grace) {
		return
	}
	h.kin.scan()
	h.kin.kill()
	h.waitGone(time.Second)
}

// waitGone polls until nothing of the program is alive (true) or d has
// passed (false). The program itself counts until it has exited.
func (h *Handle) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		select {
		case <-h.exited:
			if len(h.kin.living()) == 0 {
				return true
			}
		default:
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// Wait waits for the program to exit and returns how it ended. It also
// waits until its descendants are gone when they were stopped (at most
// Spec.KillGrace plus about a second). The error is nil whenever the exit
// status is known, whatever it is; calling Wait again returns the same.
func (h *Handle) Wait() (Exit, error) {
	h.waitOnce.Do(func() {
		err := h.cmd.Wait()
		h.exit.Duration = time.Since(h.start)
		close(h.leaderDone)
		<-h.stopped
		h.kin.release()
		if h.pty != nil {
			h.pty.finish(PipeCloseDelay)
		}
		h.exit.Canceled = h.canceled.Load()
		h.exit.Stray = h.stray
		if h.tail != nil {
			h.exit.OutputBytes = h.tail.Total()
		}
		ps := h.cmd.ProcessState
		if h.obs != nil {
			var cpu time.Duration
			if ps != nil {
				cpu = ps.UserTime() + ps.SystemTime()
			}
			h.obs.Exited(h.pgid, cpu)
		}
		if ps == nil {
			h.err = err
			h.exit.Code = 1
			return
		}
		h.exit.Code = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			se := SignalExit(ws.Signal())
			h.exit.Code, h.exit.Signal = se.Code, se.Signal
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
			h.err = err // e.g. copying the output failed
		}
		if h.err == nil && h.pty != nil && h.pty.err != nil {
			h.err = fmt.Errorf("reading the program's terminal: %w", h.pty.err)
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

// OOMScoreAdj is the oom_score_adj a started program gets (the most, 1000):
// when the machine runs out of memory, the kernel's OOM killer takes the
// benchmark, not boardbench, which holds the results gathered so far and
// puts back what it tuned. A program's children inherit it. Raising it
// needs no privilege.
const OOMScoreAdj = 1000

// preferForOOMKill sets the started program's oom_score_adj to OOMScoreAdj.
// The program runs between its exec and this write (microseconds, before a
// benchmark has allocated its memory); a system without /proc, or one that
// refuses, keeps the kernel's choice.
func preferForOOMKill(pid int) {
	_ = os.WriteFile("/proc/"+strconv.Itoa(pid)+"/oom_score_adj", []byte(strconv.Itoa(OOMScoreAdj)), 0)
}
