// Package cmdtest holds what the tests of several command packages share:
// running a command as a user would (Execute, Run), and the refusal of
// `--clock` before anything is measured (ClockRefused).
package cmdtest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/iostreams"
	"boardbench/internal/tune"
)

// Execute runs cmd with args as the command line would, its own usage and
// error printing silenced, and returns its error (cmdutil.ExitCode gives
// the exit status).
func Execute(cmd *cobra.Command, args ...string) error {
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	return execute(cmd, args)
}

// execute runs cmd with args, its own usage and error printing silenced.
func execute(cmd *cobra.Command, args []string) error {
	cmd.SetArgs(args)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.ExecuteContext(context.Background())
}

// Run makes a command with newCmd on a test Factory (setup, when not nil,
// adjusts the Factory first: a store, a user id), runs it with args and
// returns what it wrote to standard output and standard error (the
// error's text added there, one line, as boardbench prints it) and its
// exit status.
func Run(t testing.TB, newCmd func(*cmdutil.Factory) *cobra.Command, setup func(*cmdutil.Factory), args ...string) (stdout, stderr string, exit int) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	if setup != nil {
		setup(f)
	}
	cmd := newCmd(f)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	err := execute(cmd, args)
	if err != nil {
		errOut.WriteString(err.Error() + "\n")
	}
	return out.String(), errOut.String(), cmdutil.ExitCode(err)
}

// Store is a Run setup that points the Factory at the results store spec.
func Store(spec string) func(*cmdutil.Factory) {
	return func(f *cmdutil.Factory) { f.Store.Spec = spec }
}

// ClockRefusal is what a `--clock MHZ` run of the live machine must be
// refused with, as the user uid: "no cpufreq here" where no cpufreq
// policy offers clocks, else "needs root" for a user; "" where the run
// would not be refused (root on a machine whose clocks can be pinned).
func ClockRefusal(t testing.TB, mhz, uid int) string {
	t.Helper()
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tune.PlanClock(h, mhz); errors.Is(err, tune.ErrNoClocks) {
		return "no cpufreq here"
	}
	if uid != 0 {
		return "needs root"
	}
	return ""
}

// ClockRefused checks that the command made by newCmd (NewCmd(f, nil)),
// run with args and `--clock 600`, is refused in one line, exit status 2,
// before anything is measured (nothing on standard output): for a user,
// and for root where this machine has no clock to pin. name is the
// command's name in messages.
func ClockRefused(t *testing.T, name string, newCmd func(f *cmdutil.Factory) *cobra.Command, args ...string) {
	t.Helper()
	for _, tc := range []struct {
		who string
		uid int
	}{
		{"user", 1000},
		{"root", 0},
	} {
		t.Run(tc.who, func(t *testing.T) {
			want := ClockRefusal(t, 600, tc.uid)
			if want == "" {
				// Root where the clocks can be pinned would measure.
				return
			}
			ios, stdout, _ := iostreams.Test()
			f := cmdutil.NewFactory(ios)
			uid := tc.uid
			f.Euid = func() int { return uid }
			err := Execute(newCmd(f), append(append([]string{}, args...), "--clock", "600")...)
			if cmdutil.ExitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s --clock 600 as %s: %v (exit %d), want one line with %q, exit 2", name, tc.who, err, cmdutil.ExitCode(err), want)
			}
			if stdout.Len() != 0 {
				t.Errorf("output before the refusal: %q", stdout)
			}
		})
	}
}
