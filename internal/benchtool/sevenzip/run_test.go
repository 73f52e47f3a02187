package sevenzip

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tools"
)

// fakeExecutor returns a scripted result and remembers the command.
type fakeExecutor struct {
	got    proc.Command
	result proc.Result
	err    error
}

func (f *fakeExecutor) Exec(_ context.Context, c proc.Command) (proc.Result, error) {
	f.got = c
	return f.result, f.err
}

func TestArgs(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Options{}, "b"},
		{Options{Threads: 1}, "b -mmt1"},
		{Options{CPUs: []int{4, 5, 6, 7}}, "b -mmt4"},
		{Options{Threads: 8, CPUs: []int{0}}, "b -mmt8"},
		{Options{Threads: 1, DictLog2: 18, Passes: 1}, "b 1 -mmt1 -md18"},
	}
	for _, tt := range tests {
		if got := strings.Join(Args(tt.opts), " "); got != tt.want {
			t.Errorf("Args(%+v) = %q, want %q", tt.opts, got, tt.want)
		}
	}
}

func TestRunOutcomes(t *testing.T) {
	single := fixture.ReadTestdata(t, "7zz-26.02-x64-mmt1-md18.txt")
	partial := single[:strings.Index(single, "Tot:")]
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name        string
		ctx         context.Context
		result      proc.Result
		err         error
		wantFailure string
		wantIs      error
		wantRating  int64
	}{
		{
			name:       "success",
			result:     proc.Result{Stdout: []byte(single), Exit: proc.Exit{Duration: 9 * time.Second}},
			wantRating: 4214,
		},
		{
			name:        "killed by the out-of-memory killer",
			result:      proc.Result{Stdout: []byte(partial), Exit: proc.SignalExit(syscall.SIGKILL)},
			err:         &proc.ExitError{Command: "7zz b", Exit: proc.SignalExit(syscall.SIGKILL)},
			wantFailure: proc.FailureOOMKilled, wantIs: proc.ErrKilled,
		},
		{
			name:        "7-Zip cannot allocate",
			result:      proc.Result{Stdout: []byte(partial + "\nERROR: Can't allocate required memory!\n"), Exit: proc.Exit{Code: 8}},
			err:         &proc.ExitError{Command: "7zz b", Exit: proc.Exit{Code: 8}},
			wantFailure: FailureNoMemory, wantIs: ErrNoMemory,
		},
		{
			name:        "exit status 8 without message",
			result:      proc.Result{Stdout: []byte(partial), Exit: proc.Exit{Code: 8}},
			err:         &proc.ExitError{Command: "7zz b", Exit: proc.Exit{Code: 8}},
			wantFailure: FailureNoMemory, wantIs: ErrNoMemory,
		},
		{
			name:        "cancelled",
			ctx:         cancelled,
			result:      proc.Result{Stdout: []byte(partial), Exit: proc.SignalExit(syscall.SIGKILL)},
			err:         context.Canceled,
			wantFailure: proc.FailureCancelled, wantIs: context.Canceled,
		},
		{
			name:        "other exit error",
			result:      proc.Result{Stdout: []byte("Command Line Error:\nUnsupported switch\n"), Exit: proc.Exit{Code: 7}},
			err:         &proc.ExitError{Command: "7zz b", Exit: proc.Exit{Code: 7}},
			wantFailure: proc.FailureExit,
		},
		{
			name:        "exit 0 without result",
			result:      proc.Result{Stdout: []byte(partial)},
			wantFailure: proc.FailureNoResult, wantIs: ErrNoResult,
		},
	}
	tool := tools.Tool{Name: "7zz", Path: "/usr/bin/7zz", Version: "26.02"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			fake := &fakeExecutor{result: tt.result, err: tt.err}
			m, err := Run(ctx, fake, tool, Options{Threads: 1, CPUs: []int{3}, DictLog2: 18})
			if m == nil {
				t.Fatal("no measurement")
			}
			if fake.got.Name != "/usr/bin/7zz" || strings.Join(fake.got.Args, " ") != "b -mmt1 -md18" || len(fake.got.CPUs) != 1 || fake.got.CPUs[0] != 3 {
				t.Errorf("ran %+v", fake.got)
			}
			if m.Failure != tt.wantFailure {
				t.Errorf("failure = %q, want %q (err %v)", m.Failure, tt.wantFailure, err)
			}
			if (err != nil) != (tt.wantFailure != "") {
				t.Errorf("err = %v, want error %v", err, tt.wantFailure != "")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("err = %v, want it to match %v", err, tt.wantIs)
			}
			if m.RawOutput != string(tt.result.Stdout) {
				t.Error("raw output not kept")
			}
			if tt.wantRating > 0 && (m.Result == nil || m.Result.Total.RatingMIPS != tt.wantRating || m.DurationS != 9) {
				t.Errorf("result %+v duration %v, want rating %d", m.Result, m.DurationS, tt.wantRating)
			}
		})
	}
}

// TestRunReplaysFixture runs against a fixture root through proc.Replay.
func TestRunReplaysFixture(t *testing.T) {
	h := fixture.Replay(t, map[string]string{host.CommandKey("7zz", "b", "-mmt1"): fixture.ReadTestdata(t, "7zz-26.02-x64-mmt1-md18.txt")})
	m, err := Run(context.Background(), proc.ForHost(h), tools.Tool{Name: "7zz"}, Options{Threads: 1})
	if err != nil || m.Result.Total.RatingMIPS != 4214 {
		t.Fatalf("Run on fixture = %+v, %v", m, err)
	}
}
