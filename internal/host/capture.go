package host

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// runCaptured runs cmd, which must not have been started, with its
// standard output and error read into stdout and stderr, and waits for it.
//
// The calling goroutine reads both pipes itself (poll(2), then read(2)).
// Given a writer that is not a file, os/exec would start a goroutine per
// stream to copy it; each such goroutine's stack grows under io.Copy and
// the poller, and every copy of a stack looks up the frames on it in the
// binary's pcln table: for `info`'s three commands that mapped about
// 0.8 MiB more of the board binary read from storage (with the sections
// of `info` collected in turn; docs/architecture.md, issue 22).
//
// Reading stops at the end of both streams, or when ctx is done (os/exec
// kills the command then); a process the command left behind that still
// holds a pipe open cannot keep Run waiting past it.
func runCaptured(ctx context.Context, cmd *exec.Cmd, stdout, stderr *cappedBuffer) error {
	var out, errp [2]int
	if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
		return os.NewSyscallError("pipe2", err)
	}
	if err := syscall.Pipe2(errp[:], syscall.O_CLOEXEC); err != nil {
		syscall.Close(out[0])
		syscall.Close(out[1])
		return os.NewSyscallError("pipe2", err)
	}
	// Blocking descriptors: os.NewFile leaves them out of the runtime's
	// poller, and os/exec hands an *os.File to the child as it is.
	wout, werr := os.NewFile(uintptr(out[1]), "|1"), os.NewFile(uintptr(errp[1]), "|2")
	cmd.Stdout, cmd.Stderr = wout, werr
	err := cmd.Start()
	// The child has its own copies; ours would keep the pipes from ending.
	wout.Close()
	werr.Close()
	if err != nil {
		syscall.Close(out[0])
		syscall.Close(errp[0])
		return err
	}
	drain(ctx, [2]int{out[0], errp[0]}, [2]*cappedBuffer{stdout, stderr})
	return cmd.Wait()
}

// pollEvery is how long drain waits at most before it looks at its
// context again.
const pollEvery = 100 * time.Millisecond

// drain reads the pipes fds into bufs until both end or ctx is done
// (cancelled or past its deadline), and closes them.
func drain(ctx context.Context, fds [2]int, bufs [2]*cappedBuffer) {
	pfd := []unix.PollFd{{Fd: int32(fds[0]), Events: unix.POLLIN}, {Fd: int32(fds[1]), Events: unix.POLLIN}}
	defer func() {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
	}()
	var chunk [2048]byte
	for open := len(pfd); open > 0; {
		if ctx.Err() != nil {
			return
		}
		// Wake up now and then to see whether ctx was cancelled.
		wait := pollEvery
		if dl, ok := ctx.Deadline(); ok {
			wait = min(wait, time.Until(dl))
		}
		n, err := unix.Poll(pfd, int((max(wait, 0)+time.Millisecond-1)/time.Millisecond))
		if err == syscall.EINTR || n == 0 {
			continue
		}
		if err != nil {
			return
		}
		for i := range pfd {
			if pfd[i].Fd < 0 || pfd[i].Revents == 0 {
				continue
			}
			m, err := syscall.Read(fds[i], chunk[:])
			if m > 0 {
				bufs[i].Write(chunk[:m])
			}
			if m == 0 || (err != nil && err != syscall.EINTR && err != syscall.EAGAIN) {
				pfd[i].Fd = -1 // poll(2) skips a negative descriptor
				open--
			}
		}
	}
}
