package cryptsetup

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tools"
)

// fakeExecutor answers every command with reply and records the commands.
type fakeExecutor struct {
	calls []proc.Command
	reply func(c proc.Command) (proc.Result, error)
}

func (f *fakeExecutor) Exec(_ context.Context, c proc.Command) (proc.Result, error) {
	f.calls = append(f.calls, c)
	return f.reply(c)
}

var tool = tools.Tool{Name: "cryptsetup", Path: "/usr/sbin/cryptsetup", Version: "2.6.1"}

func TestRun(t *testing.T) {
	exit1 := &proc.ExitError{Command: "cryptsetup benchmark", Exit: proc.Exit{Code: 1}}
	noAFALG := proc.Result{
		Stdout: []byte(fixture.ReadTestdata(t, "cryptsetup-2.6.1-no-af-alg-aes-xts-256.stdout")),
		Stderr: []byte(fixture.ReadTestdata(t, "cryptsetup-2.6.1-no-af-alg-aes-xts-256.stderr")),
		Exit:   proc.Exit{Code: 1},
	}
	tests := []struct {
		name        string
		res         proc.Result
		err         error
		wantErr     error
		wantFailure string
		wantEnc     float64
	}{
		{"ok", proc.Result{Stdout: []byte(oneCipher256)}, nil, nil, "", 99.5},
		{"no AF_ALG", noAFALG, exit1, ErrUnavailable, proc.FailureExit, 0},
		{"other key size printed", proc.Result{Stdout: []byte(oneCipher512)}, nil, ErrNoResult, proc.FailureNoResult, 0},
		{"killed", proc.Result{Exit: proc.SignalExit(syscall.SIGKILL)}, &proc.ExitError{Command: "cryptsetup", Exit: proc.SignalExit(syscall.SIGKILL)}, proc.ErrKilled, proc.FailureOOMKilled, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeExecutor{reply: func(proc.Command) (proc.Result, error) { return tt.res, tt.err }}
			m, err := Run(context.Background(), fake, tool, "aes-xts-plain64", 256, Options{CPUs: []int{3}})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if m == nil || m.Failure != tt.wantFailure {
				t.Fatalf("measurement %+v, want failure %q", m, tt.wantFailure)
			}
			c := fake.calls[0]
			if c.Name != "/usr/sbin/cryptsetup" || strings.Join(c.Args, " ") != "benchmark -c aes-xts-plain64 -s 256" || !reflect.DeepEqual(c.CPUs, []int{3}) {
				t.Errorf("command %+v", c)
			}
			row := m.Row()
			if tt.wantEnc == 0 {
				if row != nil {
					t.Errorf("row %+v, want none", row)
				}
				return
			}
			if row == nil || row.EncryptionMiBs == nil || *row.EncryptionMiBs != tt.wantEnc {
				t.Errorf("row %+v", row)
			}
		})
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fake := &fakeExecutor{reply: func(proc.Command) (proc.Result, error) {
		return proc.Result{Exit: proc.Exit{Code: 143, Signal: "SIGTERM", Canceled: true}}, context.Canceled
	}}
	m, err := Run(ctx, fake, tool, "aes-xts-plain64", 512, Options{})
	if !errors.Is(err, context.Canceled) || m.Failure != proc.FailureCancelled {
		t.Errorf("err %v failure %q", err, m.Failure)
	}
	if _, err := Run(context.Background(), fake, tools.Tool{}, "aes-xts-plain64", 256, Options{}); err == nil {
		t.Error("no command: want an error")
	}
}

// TestLiveBenchmark runs the real cryptsetup (its benchmark needs no
// privilege: boardbench's root-only rule is its own). Where the kernel
// offers no AF_ALG (containers, some VMs) cryptsetup's own message must
// come back as ErrUnavailable; otherwise the figures must be positive. It
// is skipped without cryptsetup, except in CI (CI set), whose image must
// have it (Debian: cryptsetup-bin).
func TestLiveBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("runs cryptsetup benchmark")
	}
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	ci := os.Getenv("CI") != ""
	c, notes := tools.FindCryptsetup(context.Background(), h)
	if c == nil {
		if ci {
			t.Fatalf("cryptsetup is missing in CI (%v): install cryptsetup-bin", notes)
		}
		t.Skipf("no cryptsetup (%v)", notes)
	}
	live, err := proc.NewLive(h)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Run(context.Background(), live, *c, "aes-xts-plain64", 256, Options{CPUs: []int{0}})
	switch {
	case errors.Is(err, ErrUnavailable):
		t.Logf("this kernel offers no aes-xts through AF_ALG: %v", err)
		if !strings.Contains(err.Error(), "not available") {
			t.Errorf("unavailable without cryptsetup's message: %v", err)
		}
	case err != nil:
		t.Fatalf("cryptsetup benchmark: %v\n%s%s", err, m.RawOutput, m.RawStderr)
	default:
		row := m.Row()
		if row == nil || row.EncryptionMiBs == nil || *row.EncryptionMiBs <= 0 || row.DecryptionMiBs == nil || *row.DecryptionMiBs <= 0 {
			t.Errorf("figures %+v from\n%s", row, m.RawOutput)
		}
	}
}
