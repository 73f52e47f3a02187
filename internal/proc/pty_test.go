package proc

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"boardbench/internal/testutil/wait"
)

// chunkWriter records every write with whether the program had exited by
// then, for tests of streaming.
type chunkWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	chunks chan string
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.buf.Write(p)
	c.mu.Unlock()
	c.chunks <- string(p)
	return len(p), nil
}

func TestPTYStandardStreams(t *testing.T) {
	needShell(t)
	script := `if [ -t 1 ]; then echo out-tty; else echo out-pipe; fi
if [ -t 2 ]; then echo err-tty >&2; else echo err-pipe >&2; fi
if [ -t 0 ]; then echo in-tty; else echo in-other; fi
if [ -t 1 ]; then stty size <&1; fi`
	cases := []struct {
		name    string
		pty     bool
		size    WindowSize
		wantOut string
	}{
		{"pipe", false, WindowSize{}, "out-pipe\nin-other\n"},
		{"pty of a given size", true, WindowSize{Rows: 30, Cols: 100}, "out-tty\nin-other\n30 100\n"},
		{"pty of the default size", true, WindowSize{}, "out-tty\nin-other\n24 80\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			var exit Exit
			var captured []byte
			var err error
			guard(t, "the program", func() {
				exit, captured, err = Run(context.Background(), Spec{
					Argv: []string{"sh", "-c", script}, Stdout: &out, Stderr: &errOut,
					CaptureLimit: 1 << 10, PTY: c.pty, PTYSize: c.size,
				})
			})
			if err != nil || exit.Code != 0 {
				t.Fatalf("exit %+v, err %v; stderr %q", exit, err, errOut.String())
			}
			if out.String() != c.wantOut {
				t.Errorf("stdout = %q, want %q (byte for byte, no \\r)", out.String(), c.wantOut)
			}
			if errOut.String() != "err-pipe\n" {
				t.Errorf("stderr = %q, want it to stay a pipe", errOut.String())
			}
			if len(captured) != len(c.wantOut)+len("err-pipe\n") || !strings.Contains(string(captured), "err-pipe\n") {
				t.Errorf("captured %q, want both streams", captured)
			}
			if exit.OutputBytes != int64(len(captured)) {
				t.Errorf("OutputBytes = %d, captured %d", exit.OutputBytes, len(captured))
			}
		})
	}
}

// TestPTYStreamsBeforeExit runs a program that buffers its output when
// piped (grep, through C stdio) and checks that on a PTY its first line
// arrives while it still runs, before its second. The program writes its
// second line only once the test has seen the first (an event, not a
// pause that a loaded machine may outlast).
func TestPTYStreamsBeforeExit(t *testing.T) {
	needShell(t)
	w := &chunkWriter{chunks: make(chan string, 100)}
	next := filepath.Join(t.TempDir(), "next")
	h, err := Start(context.Background(), Spec{
		Argv:   []string{"sh", "-c", `(echo first; while [ ! -e "$0" ]; do sleep 0.05; done; echo second) | grep -v zzz`, next},
		Stdout: w, CaptureLimit: 1 << 10, PTY: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Wait()
	defer os.WriteFile(next, nil, 0o644) // a failed test lets it end
	timeout := time.After(wait.HangGuard)
	var seen string
	for !strings.Contains(seen, "first") {
		select {
		case c := <-w.chunks:
			seen += c
		case <-h.exited:
			t.Fatalf("the program exited before its first line arrived (got %q)", seen)
		case <-timeout:
			t.Fatalf("hung: no first line within %v", wait.HangGuard)
		}
	}
	select {
	case <-h.exited:
		t.Error("the first line arrived only once the program had exited")
	default:
	}
	if strings.Contains(seen, "second") {
		t.Errorf("the first line arrived together with the second: %q", seen)
	}
	if err := os.WriteFile(next, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	exit, err := h.Wait()
	if err != nil || exit.Code != 0 {
		t.Fatalf("exit %+v, err %v", exit, err)
	}
	out, _ := h.Output()
	if string(out) != "first\nsecond\n" {
		t.Errorf("captured %q", out)
	}
}

func TestPTYCancelStopsTheProgram(t *testing.T) {
	needShell(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &chunkWriter{chunks: make(chan string, 100)}
	h, err := Start(ctx, Spec{Argv: []string{"sh", "-c", "echo ready; exec sleep 30"}, Stdout: w, PTY: true, KillGrace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.chunks:
	case <-time.After(wait.HangGuard):
		t.Fatalf("hung: no output within %v", wait.HangGuard)
	}
	cancel()
	var exit Exit
	guard(t, "Wait after cancel", func() { exit, err = h.Wait() })
	if err != nil || !exit.Canceled || exit.Signal != "SIGTERM" {
		t.Errorf("exit %+v, err %v; want cancelled by SIGTERM", exit, err)
	}
}

// TestPTYLeftBehind checks that a process the program left running, which
// holds the terminal open, is stopped and counted, and that Wait returns.
func TestPTYLeftBehind(t *testing.T) {
	needShell(t)
	var out bytes.Buffer
	var exit Exit
	var err error
	guard(t, "Wait", func() {
		exit, _, err = Run(context.Background(), Spec{
			Argv: []string{"sh", "-c", "sleep 30 & echo started"}, Stdout: &out, PTY: true, KillGrace: time.Second,
		})
	})
	if err != nil || exit.Code != 0 || exit.Stray < 1 {
		t.Errorf("exit %+v, err %v; want status 0 and a stray process stopped", exit, err)
	}
	if out.String() != "started\n" {
		t.Errorf("stdout %q", out.String())
	}
}
