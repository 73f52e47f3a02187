package openssl

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/need"
	"boardbench/internal/tools"
)

// fakeExecutor answers every command with a result chosen by reply and
// records the commands (it is called concurrently by RunParallel).
type fakeExecutor struct {
	mu    sync.Mutex
	calls []proc.Command
	reply func(c proc.Command) (proc.Result, error)
}

func (f *fakeExecutor) Exec(_ context.Context, c proc.Command) (proc.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
	return f.reply(c)
}

// tableFor renders an OpenSSL 1.1.1 style table for cipher where every
// value is base KB/s.
func tableFor(cipher string, base float64) string {
	return "OpenSSL 1.1.1w  11 Sep 2023\ntype             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes\n" +
		cipher + strings.Repeat("  "+formatK(base), 6) + "\n"
}

func formatK(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "k" }

func TestArgs(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Options{}, "speed -elapsed -evp aes-256-cbc"},
		{Options{Seconds: 1, CPUs: []int{2}}, "speed -elapsed -seconds 1 -evp aes-256-cbc"},
	}
	for _, tt := range tests {
		if got := strings.Join(Args("aes-256-cbc", tt.opts), " "); got != tt.want {
			t.Errorf("Args(%+v) = %q, want %q", tt.opts, got, tt.want)
		}
	}
}

func TestRunAllDefaultCiphers(t *testing.T) {
	fake := &fakeExecutor{reply: func(c proc.Command) (proc.Result, error) {
		cipher := c.Args[len(c.Args)-1]
		return proc.Result{Stdout: []byte(tableFor(cipher, 1000)), Exit: proc.Exit{Duration: 18 * time.Second}}, nil
	}}
	ms, err := RunAll(context.Background(), fake, tools.Tool{Name: "openssl", Path: "/usr/bin/openssl", Version: "1.1.1w"}, Options{CPUs: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 || len(fake.calls) != 3 {
		t.Fatalf("%d measurements, %d calls; want 3", len(ms), len(fake.calls))
	}
	for i, want := range []string{"aes-128-cbc", "aes-192-cbc", "aes-256-cbc"} {
		m := ms[i]
		if m.Cipher != want || m.Tool != "/usr/bin/openssl" || len(fake.calls[i].CPUs) != 1 || fake.calls[i].CPUs[0] != 1 {
			t.Errorf("measurement %d: cipher %q tool %q cpus %v", i, m.Cipher, m.Tool, fake.calls[i].CPUs)
		}
		if v := m.KBPerSec(HeadlineBlockBytes); v == nil || *v != 1000 {
			t.Errorf("%s 16 KiB = %v, want 1000", want, deref(v))
		}
		if m.RawOutput == "" || m.DurationS != 18 || m.Result.Version != "1.1.1w" {
			t.Errorf("%s: raw output / duration / version not kept: %+v", want, m)
		}
	}
}

func TestRunOutcomes(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name        string
		ctx         context.Context
		result      proc.Result
		err         error
		wantFailure string
		wantIs      error
	}{
		{"killed", nil, proc.Result{Exit: proc.SignalExit(syscall.SIGKILL)}, &proc.ExitError{Command: "openssl speed", Exit: proc.SignalExit(syscall.SIGKILL)}, proc.FailureOOMKilled, proc.ErrKilled},
		{"cancelled", cancelled, proc.Result{Exit: proc.Exit{Code: 143, Signal: "SIGTERM", Canceled: true}}, context.Canceled, proc.FailureCancelled, context.Canceled},
		{"unknown option", nil, proc.Result{Stderr: []byte("speed: Unknown option or cipher: -seconds\n"), Exit: proc.Exit{Code: 1}}, &proc.ExitError{Command: "openssl speed", Exit: proc.Exit{Code: 1}}, proc.FailureExit, nil},
		{"no table", nil, proc.Result{Stdout: []byte("OpenSSL 3.0.2 15 Mar 2022\n")}, nil, proc.FailureNoResult, ErrNoResult},
		{"table of another cipher", nil, proc.Result{Stdout: []byte(tableFor("aes-128-cbc", 5))}, nil, proc.FailureNoResult, ErrNoResult},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			fake := &fakeExecutor{reply: func(proc.Command) (proc.Result, error) { return tt.result, tt.err }}
			m, err := Run(ctx, fake, tools.Tool{Name: "openssl"}, "aes-256-cbc", Options{})
			if m == nil || m.Failure != tt.wantFailure || err == nil {
				t.Fatalf("Run = %+v, %v; want failure %q", m, err, tt.wantFailure)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("err = %v, want it to match %v", err, tt.wantIs)
			}
			if m.RawStderr != string(tt.result.Stderr) {
				t.Error("stderr not kept")
			}
		})
	}
}

func TestRunParallel(t *testing.T) {
	fake := &fakeExecutor{reply: func(c proc.Command) (proc.Result, error) {
		// Each instance reports 100 × (its CPU + 1) KB/s.
		return proc.Result{Stdout: []byte(tableFor("aes-256-cbc", float64(100*(c.CPUs[0]+1))))}, nil
	}}
	cpus := []int{0, 1, 2, 3}
	ms, err := RunParallel(context.Background(), fake, tools.Tool{Name: "openssl"}, "aes-256-cbc", cpus, Options{CPUs: []int{7}})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if len(m.CPUs) != 1 || m.CPUs[0] != cpus[i] {
			t.Errorf("instance %d bound to %v, want [%d]", i, m.CPUs, cpus[i])
		}
	}
	if sum := SumKBPerSec(ms, HeadlineBlockBytes); sum == nil || *sum != 1000 {
		t.Errorf("sum = %v, want 1000", deref(sum))
	}
	// One failing instance fails the run and the sum.
	failing := &fakeExecutor{reply: func(c proc.Command) (proc.Result, error) {
		if c.CPUs[0] == 2 {
			return proc.Result{Exit: proc.SignalExit(syscall.SIGKILL)}, &proc.ExitError{Command: "openssl", Exit: proc.SignalExit(syscall.SIGKILL)}
		}
		return proc.Result{Stdout: []byte(tableFor("aes-256-cbc", 100))}, nil
	}}
	ms, err = RunParallel(context.Background(), failing, tools.Tool{Name: "openssl"}, "aes-256-cbc", cpus, Options{})
	if !errors.Is(err, proc.ErrKilled) || len(ms) != 4 || ms[2].Failure != proc.FailureOOMKilled {
		t.Errorf("err = %v, failures %v; want the killed instance reported", err, ms)
	}
	if SumKBPerSec(ms, HeadlineBlockBytes) != nil {
		t.Error("partial sum reported")
	}
	if _, err := RunParallel(context.Background(), fake, tools.Tool{Name: "openssl"}, "aes-256-cbc", nil, Options{}); err == nil {
		t.Error("parallel run without CPUs accepted")
	}
}

func TestRunReplaysFixture(t *testing.T) {
	key := host.CommandKey("openssl", "speed", "-elapsed", "-evp", "aes-256-cbc")
	h := fixture.Replay(t, map[string]string{key: fixture.ReadTestdata(t, "openssl-3.0.19-x64-aes-256-cbc.stdout")})
	m, err := Run(context.Background(), proc.ForHost(h), tools.Tool{Name: "openssl"}, "aes-256-cbc", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := m.KBPerSec(HeadlineBlockBytes); v == nil || math.Abs(*v-989364.22) > 1e-6 {
		t.Errorf("16 KiB = %v, want 989364.22", deref(v))
	}
}

// TestLiveOpenSSL runs the real openssl of this machine: AES-256-CBC for 1 s
// per block size (about 6 s) pinned to one CPU, then one instance per
// allowed CPU (at most two) at once. Skipped with -short and when openssl is
// not installed.
func TestLiveOpenSSL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real openssl speed for about 12 s; skipped with -short")
	}
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tool, notes := tools.FindOpenSSL(ctx, h)
	if tool == nil {
		need.Missing(t, "openssl not installed: %v", notes)
	}
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		t.Fatalf("allowed CPUs: %v %v", cpus, err)
	}
	ex := proc.ForHost(h)
	m, err := Run(ctx, ex, *tool, HeadlineCipher, Options{CPUs: cpus[len(cpus)-1:], Seconds: 1})
	if err != nil {
		t.Fatalf("%v: %v\n%s\n%s", m.Args, err, m.RawOutput, m.RawStderr)
	}
	v := m.KBPerSec(HeadlineBlockBytes)
	if v == nil || *v <= 0 {
		t.Fatalf("no 16 KiB figure in\n%s", m.RawOutput)
	}
	if len(m.Result.Passes) != len(m.Result.BlockSizes) {
		t.Errorf("%d Doing lines for %d block sizes", len(m.Result.Passes), len(m.Result.BlockSizes))
	}
	t.Logf("%s %s on cpu%d: AES-256-CBC 16 KiB %.0f KB/s in %.1f s", tool.Flavor, tool.Version, cpus[len(cpus)-1], *v, m.DurationS)

	if len(cpus) > 2 {
		cpus = cpus[:2]
	}
	ms, err := RunParallel(ctx, ex, *tool, HeadlineCipher, cpus, Options{Seconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	sum := SumKBPerSec(ms, HeadlineBlockBytes)
	if sum == nil || *sum <= 0 {
		t.Fatalf("no parallel sum from %d instances", len(ms))
	}
	t.Logf("%d parallel instances: %.0f KB/s together", len(ms), *sum)
}
