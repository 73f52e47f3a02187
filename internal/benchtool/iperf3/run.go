package iperf3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"boardbench/internal/proc"
)

// DefaultPort is iperf3's default server port.
const DefaultPort = 5201

// ConnectTimeout bounds the connection to the server: a peer that does not
// answer fails the test after it.
const ConnectTimeout = 5 * time.Second

// Test is one iperf3 client run.
type Test struct {
	// Command is the iperf3 program (path or name).
	Command string
	// Peer is the host running `iperf3 -s`.
	Peer string
	// Port is the server's port; 0 means DefaultPort.
	Port int
	// Mode is the direction(s) measured.
	Mode Mode
	// Duration is the length of the test; at least one second.
	Duration time.Duration
	// MSS sets the TCP maximum segment size (-M); 0 leaves it.
	MSS int
	// Rate is the target rate of each stream in bits per second (-b): the
	// UDP rate (0 for iperf3's default of 1 Mbit/s), or a limit of TCP (0
	// for none).
	Rate int64
	// Streams is the number of parallel streams (-P); 0 means one.
	Streams int
	// BindDevice binds the client to an interface (--bind-dev); "" for
	// none.
	BindDevice string
}

// Args returns the client arguments of t (without the program).
func (t Test) Args() []string {
	port := t.Port
	if port == 0 {
		port = DefaultPort
	}
	secs := max(1, int(t.Duration.Round(time.Second)/time.Second))
	args := []string{"-c", t.Peer, "-p", strconv.Itoa(port), "-t", strconv.Itoa(secs), "-J",
		"--connect-timeout", strconv.Itoa(int(ConnectTimeout / time.Millisecond))}
	switch t.Mode {
	case Reverse:
		args = append(args, "-R")
	case Bidir:
		args = append(args, "--bidir")
	case UDP:
		args = append(args, "-u")
	case UDPBidir:
		args = append(args, "-u", "--bidir")
	}
	if t.Rate > 0 || t.Mode == UDP || t.Mode == UDPBidir {
		args = append(args, "-b", strconv.FormatInt(t.Rate, 10))
	}
	if t.MSS > 0 {
		args = append(args, "-M", strconv.Itoa(t.MSS))
	}
	if t.Streams > 1 {
		args = append(args, "-P", strconv.Itoa(t.Streams))
	}
	if t.BindDevice != "" {
		args = append(args, "--bind-dev", t.BindDevice)
	}
	return args
}

// Timeout is how long the run may take at most: the test, the connection
// and a margin for the end-of-test exchange.
func (t Test) Timeout() time.Duration {
	return t.Duration + ConnectTimeout + 10*time.Second
}

// ErrTimeout is returned when iperf3 did not finish within Test.Timeout.
const ErrTimeout = constError("iperf3 did not finish in time")

// Run runs the test and returns its report and raw JSON. The raw output is
// returned whenever there was some. Errors: a *ServerError for what iperf3
// reported (busy server, no connection), ErrTimeout, the context's error
// when cancelled, or the exit status when iperf3 printed nothing usable.
func Run(ctx context.Context, t Test) (Report, []byte, error) {
	tctx, cancel := context.WithTimeoutCause(ctx, t.Timeout(), ErrTimeout)
	defer cancel()
	stdout := &cappedBuffer{limit: maxJSONBytes}
	exit, tail, err := proc.Run(tctx, proc.Spec{Argv: append([]string{t.Command}, t.Args()...), Stdout: stdout, CaptureLimit: 4096})
	out := stdout.buf.Bytes()
	if len(out) == 0 {
		out = tail
	}
	if ctx.Err() != nil {
		return Report{}, out, ctx.Err()
	}
	if tctx.Err() != nil {
		return Report{}, out, fmt.Errorf("%w (%s)", ErrTimeout, t.Timeout())
	}
	rep, perr := Parse(out, t.Mode)
	if perr == nil {
		return rep, out, nil
	}
	var se *ServerError
	if errors.As(perr, &se) {
		return Report{}, out, se
	}
	if err != nil {
		return Report{}, out, fmt.Errorf("iperf3: %v", err)
	}
	if exit.Code != 0 {
		return Report{}, out, fmt.Errorf("iperf3 exited with status %d: %v", exit.Code, perr)
	}
	return Report{}, out, perr
}

// maxJSONBytes bounds the JSON kept of one run (a minute of one-second
// intervals is about 100 KiB).
const maxJSONBytes = 8 << 20

// cappedBuffer keeps the first limit bytes written to it and discards the
// rest, so that a runaway program cannot exhaust memory.
type cappedBuffer struct {
	buf   bytes.Buffer
	limit int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
