package zstd

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/testutil/need"
	"boardbench/internal/tools"
)

// fakeExec stands in for zstd: it writes out bytes to the -o file and
// reports a run time.
type fakeExec struct {
	calls []proc.Command
	out   int
	took  time.Duration
	err   error
}

func (f *fakeExec) Exec(_ context.Context, c proc.Command) (proc.Result, error) {
	f.calls = append(f.calls, c)
	if f.err != nil {
		return proc.Result{Stderr: []byte("zstd: error 11 : Allocation error : not enough memory\n"), Exit: proc.Exit{Code: 1}}, f.err
	}
	if f.out > 0 {
		os.WriteFile(c.Args[len(c.Args)-2], make([]byte, f.out), 0o600)
	}
	return proc.Result{Exit: proc.Exit{Duration: f.took}}, nil
}

func TestRunFake(t *testing.T) {
	tool := tools.Tool{Name: "zstd", Path: "/usr/bin/zstd", Version: "1.5.4"}
	tests := []struct {
		name            string
		ex              *fakeExec
		mbs, ratio, sec any
		err             string
	}{
		{"compressed", &fakeExec{out: 1 << 18, took: 4 * time.Second}, 0.262, 4.0, 4.0, ""},
		{"no output file", &fakeExec{took: time.Second}, nil, nil, nil, "no compressed file"},
		{"zstd failed", &fakeExec{err: &proc.ExitError{Command: "zstd", Exit: proc.Exit{Code: 1}, StderrLine: "not enough memory"}}, nil, nil, nil, "not enough memory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m, err := Run(context.Background(), tc.ex, tool, Options{CPUs: []int{0, 1, 2, 3}, InputBytes: 1 << 20, Dir: dir})
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if got := strings.Join(tc.ex.calls[0].Args[:4], " "); got != "-q -19 -T4 -f" || len(tc.ex.calls[0].CPUs) != 4 {
				t.Errorf("args %q cpus %v", got, tc.ex.calls[0].CPUs)
			}
			if v := val(m.MBs()); v != tc.mbs {
				t.Errorf("MB/s %v, want %v", v, tc.mbs)
			}
			if v := val(m.Ratio()); v != tc.ratio {
				t.Errorf("ratio %v, want %v", v, tc.ratio)
			}
			if v := val(m.Seconds()); v != tc.sec {
				t.Errorf("seconds %v, want %v", v, tc.sec)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

func val(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestRunLive compresses 1 MiB of the input with this machine's zstd at
// level 19 on two threads, and checks that the file it wrote decompresses
// to the input (the figure is of real work).
func TestRunLive(t *testing.T) {
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	tool, notes := tools.FindZstd(ctx, h)
	if tool == nil {
		need.Missing(t, "zstd not installed: %v", notes)
	}
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		t.Fatalf("allowed CPUs: %v %v", cpus, err)
	}
	cpus = cpus[:min(2, len(cpus))]
	const n = 1 << 20
	m, err := Run(ctx, proc.ForHost(h), *tool, Options{CPUs: cpus, InputBytes: n})
	if err != nil {
		t.Fatalf("%v: %v\n%s", m.Args, err, m.RawStderr)
	}
	if m.MBs() == nil || *m.MBs() <= 0 || m.Ratio() == nil || *m.Ratio() <= 1.2 {
		t.Fatalf("MB/s %v ratio %v", val(m.MBs()), val(m.Ratio()))
	}
	t.Logf("zstd %s -19 -T%d: %d -> %d bytes in %.2f s (%.3f MB/s)", tool.Version, len(cpus), n, *m.OutputBytes, *m.Seconds(), *m.MBs())

	// The same command by hand, then back: the input comes out again.
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "in.zst")
	if err := writeInputFile(in, n); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.CommandContext(ctx, tool.Path, Args(19, len(cpus), in, out)...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	st, _ := os.Stat(out)
	if st == nil || st.Size() != *m.OutputBytes {
		t.Errorf("by hand %v bytes, in Run %d", st, *m.OutputBytes)
	}
	back, err := exec.CommandContext(ctx, tool.Path, "-d", "-c", out).Output()
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(in)
	if string(back) != string(orig) {
		t.Errorf("zstd -d gave %d bytes that differ from the %d of the input", len(back), len(orig))
	}
}

func TestRunNoInput(t *testing.T) {
	_, err := Run(context.Background(), &fakeExec{}, tools.Tool{Name: "zstd"}, Options{})
	if err == nil {
		t.Fatal("no error without an input size")
	}
	_, err = Run(context.Background(), &fakeExec{}, tools.Tool{}, Options{InputBytes: 1})
	if err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("no command: %v", err)
	}
}
