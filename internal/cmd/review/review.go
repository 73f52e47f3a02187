// Package review implements `boardbench review`: the settings that hold a
// board back, with the evidence and the fix; --apply makes the safe runtime
// subset of fixes (recorded in tune's state file), --restore undoes them,
// and --apply -- COMMAND runs a command with the fixes in force.
package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"boardbench/internal/cmd/monitor"
	restorecmd "boardbench/internal/cmd/restore"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/interrupt"
	"boardbench/internal/inventory"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/review"
	"boardbench/internal/session"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// Options are the review command's inputs: its flags, the command after
// --apply -- and the factory it reads and tunes with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Root is --root; JSON prints JSON.
	Root string
	JSON bool
	// Apply and Restore choose the mode; Wait waits for the tuning lock.
	Apply, Restore bool
	Wait           bool
	// Argv is the command after --apply -- (nil for none).
	Argv []string
}

// NewCmd returns the review command; runF, when not nil, receives the
// checked options instead of runReview (tests).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "review [--json] [--root DIR] [--apply [-- COMMAND [ARGS...]] | --restore]",
		Short: "Find the settings that hold the machine back, with the evidence and the fix",
		Long: `Check every performance-relevant setting: cpufreq and devfreq governors, ondemand
tunables, PCIe ASPM and link speeds, USB storage drivers, coherent_pool, swap on
flash, zram and zswap, ext4 commit interval, transparent huge pages, Raspberry Pi
config.txt, the USB-PD contract, RAPL power limits, CPU mitigations, interrupt
spreading and the kernel's age. Each finding has a stable id, the file and value
read, the exact fix, where to make it persistent, and what it costs. The text
output lists the findings by area, worst first, then every setting read.

--apply makes the safe runtime subset of fixes (ondemand tunables, ASPM policy,
receive packet steering, devfreq governors and caps) after saving the previous
values in the state file ` + "`boardbench restore`" + ` reads; it never touches boot
files (their lines are printed). --restore puts the values back. With
--apply -- COMMAND the fixes hold while COMMAND runs (monitored like
` + "`monitor --`" + ` on the live machine) and are undone at its end, on Ctrl-C,
SIGTERM and SIGHUP.`,
		Example: `  boardbench review
  boardbench review --json
  boardbench review --root ./rock5b-capture
  sudo boardbench review --apply
  sudo boardbench review --restore
  sudo boardbench review --apply -- iperf3 -c server -R`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := parseArgs(cmd, args, opts); err != nil {
				return err
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runReview(opts)
		},
	}
	cmdutil.AddRootFlag(cmd, &opts.Root)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	cmd.Flags().BoolVar(&opts.Apply, "apply", false, "apply the safe runtime fixes (undone by --restore, by boardbench restore, or at the end of -- COMMAND)")
	cmd.Flags().BoolVar(&opts.Restore, "restore", false, "put back the values --apply changed")
	cmdutil.AddWaitFlag(cmd, &opts.Wait)
	return cmd
}

func parseArgs(cmd *cobra.Command, args []string, o *Options) error {
	dash := cmd.ArgsLenAtDash()
	switch {
	case dash > 0 || dash < 0 && len(args) > 0:
		return cmdutil.Usagef("unexpected argument %q: a command to run goes after --apply --", args[0])
	case dash == 0 && len(args) == 0:
		return cmdutil.Usagef("no command after --: boardbench review --apply -- COMMAND [ARGS...]")
	}
	o.Argv = nil
	if len(args) > 0 {
		o.Argv = args
	}
	if o.Apply && o.Restore {
		return cmdutil.Usagef("--apply and --restore exclude each other")
	}
	if len(o.Argv) > 0 && !o.Apply {
		return cmdutil.Usagef("a command after -- needs --apply: boardbench review --apply -- COMMAND")
	}
	if len(o.Argv) > 0 && o.JSON {
		return cmdutil.Usagef("--json does not apply to a command run; the monitor's result file is the JSON")
	}
	return nil
}

// runReview opens the root and runs the mode the flags chose: --restore,
// --apply (with or without a command), or the review itself.
func runReview(o *Options) error {
	f, ctx := o.Factory, o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	h, err := f.NewHost(o.Root)
	if err != nil {
		return err
	}
	switch {
	case o.Restore:
		return runRestore(f, h, o)
	case o.Apply:
		return runApply(ctx, f, h, o)
	}
	rep := review.Run(h, time.Now())
	if o.JSON {
		return f.WriteJSON(rep)
	}
	review.Render(f.IO.Out, rep, f.IO.ColorEnabled())
	return f.IO.OutErr()
}

// runRestore puts back the values of every leftover state file of this
// root (review's and those of crashed runs alike).
func runRestore(f *cmdutil.Factory, h *host.Host, o *Options) error {
	rep, err := restorecmd.Run(h, tune.StateDirFor(h.Root()), false)
	if rep == nil {
		return err
	}
	if o.JSON {
		if werr := f.WriteJSON(rep); werr != nil {
			return werr
		}
		return err
	}
	if len(rep.Files) == 0 {
		fmt.Fprintln(f.IO.Out, "nothing to restore")
	}
	for _, fr := range rep.Files {
		for _, oc := range fr.Outcomes {
			if oc.Outcome == tune.OutcomeRestored || oc.Outcome == tune.OutcomeFailed {
				fmt.Fprintf(f.IO.Out, "%s %s: %s\n", oc.Outcome, oc.Path, oc.Previous)
			}
		}
		if fr.Removed {
			fmt.Fprintf(f.IO.Out, "removed state file %s\n", fr.Path)
		}
	}
	return err
}

// applyReport is --apply's JSON.
type applyReport struct {
	Changes []review.Change `json:"changes"`
	// StateFile is where the previous values are; "" when nothing changed.
	StateFile string `json:"state_file"`
	// BootLines are fixes --apply does not make: the line to add and where.
	BootLines []string `json:"boot_lines"`
}

func runApply(ctx context.Context, f *cmdutil.Factory, h *host.Host, o *Options) error {
	if len(o.Argv) > 0 {
		return runApplyCommand(ctx, f, h, o)
	}
	// The changes stay; the state file is the record that undoes them.
	g, _, err := tune.NewGuard(ctx, h, tune.AllowNoFrequency(), tune.WaitOption(o.Wait, f.IO.ErrOut))
	if err != nil {
		return err
	}
	changes := review.Apply(g, review.PlanChanges(h, time.Now()))
	if err := printChanges(f, h, o, changes, g.StatePath()); err != nil {
		return err
	}
	if ctx.Err() != nil {
		g.Close()
		return interrupt.Err(ctx)
	}
	if n := failedChanges(changes); n > 0 {
		return fmt.Errorf("%d change(s) could not be made", n)
	}
	return nil
}

// printChanges prints what --apply changed (JSON with --json).
func printChanges(f *cmdutil.Factory, h *host.Host, o *Options, changes []review.Change, statePath string) error {
	rep := applyReport{Changes: changes, StateFile: statePath, BootLines: bootLines(h)}
	if o.JSON {
		return f.WriteJSON(rep)
	}
	review.RenderChanges(f.IO.Out, changes, rep.StateFile, h.Root())
	for _, l := range rep.BootLines {
		fmt.Fprintln(f.IO.Out, "not applied (boot file): "+l)
	}
	return nil
}

// failedChanges counts the changes that could not be made.
func failedChanges(changes []review.Change) int {
	n := 0
	for _, c := range changes {
		if c.Error != "" {
			n++
		}
	}
	return n
}

// runApplyCommand runs the command with the fixes in force, as a
// measurement of the session engine: the changes are made through the
// session's tuning guard before the command starts, and the engine puts
// them back when it ends, on every exit path. On the live machine the
// command runs under the monitor (as `boardbench monitor -- COMMAND`); on
// a fixture root plainly, in a session on that root (the monitor samples
// only the live machine).
func runApplyCommand(ctx context.Context, f *cmdutil.Factory, h *host.Host, o *Options) error {
	// The tuning lock first, as every command that tunes: a busy root is a
	// refusal before the command runs (exit 2, no result written or
	// stored), not a failed measurement.
	lock, err := tune.CommandLock(ctx, h.Root(), o.Wait, f.IO.ErrOut)
	if err != nil {
		return err
	}
	defer lock.Release()
	prepare := func(ctx context.Context, s *session.Session) error {
		g, _, err := s.Tune(ctx, tune.AllowNoFrequency(), tune.WithLock(lock))
		if err != nil {
			return err
		}
		changes := review.Apply(g, review.PlanChanges(h, time.Now()))
		for _, c := range changes {
			if c.Error == "" {
				s.Result().Tuning.Changed = append(s.Result().Tuning.Changed, fmt.Sprintf("%s: %s → %s", c.Path, c.From, c.To))
			}
		}
		s.Result().Options["review_apply"] = true
		if err := printChanges(f, h, o, changes, g.StatePath()); err != nil {
			return err
		}
		fmt.Fprintln(f.IO.ErrOut, "boardbench review: the values review --apply changed are put back when the command ends")
		return nil
	}
	if h.Live() {
		return monitor.RunCommand(ctx, f, o.Argv, prepare)
	}
	var cmdErr error
	step := session.Step{Name: result.PhaseCommand, Title: strings.Join(o.Argv, " "),
		Run: func(ctx context.Context, p *result.Phase) error {
			pr, err := proc.Start(ctx, proc.Spec{Argv: o.Argv, UserCommand: true, Stdout: f.IO.RawOut(), Stderr: f.IO.RawErrOut()})
			if err != nil {
				cmdErr = fmt.Errorf("%s: %w", o.Argv[0], err)
				return cmdErr
			}
			exit, err := pr.Wait()
			code := exit.Code
			p.ExitStatus = &code
			switch {
			case ctx.Err() != nil:
			case err != nil:
				cmdErr = err
			case exit.Code != 0:
				cmdErr = &exitError{code: exit.Code}
				p.Status, p.Reason = result.PhaseFailed, cmdErr.Error()
			}
			return nil
		}}
	cfg := session.Config{Host: h, Info: inventory.Collect(h, inventory.Options{Redact: true}), Command: "review",
		Options: map[string]any{"command": o.Argv}, Warn: f.IO.ErrOut, NoKeep: true}
	_, err = session.Measure(ctx, cfg, session.Plan{
		Prepare: func(ctx context.Context, s *session.Session) ([]session.Step, error) {
			return []session.Step{step}, prepare(ctx, s)
		},
		End: func(*session.Session) session.End { return session.End{Err: cmdErr} },
	})
	var nv *session.NotValidError
	if errors.As(err, &nv) {
		// A fixture root is no measurement of a machine: its verdict is
		// not the command's status.
		return nil
	}
	return err
}

// bootLines are the fixes of boot files review found, which --apply never
// makes.
func bootLines(h *host.Host) []string {
	var out []string
	for _, fnd := range review.Run(h, time.Now()).Findings {
		if fnd.ID == "coherent_pool_small" || fnd.ID == "rpi_config" || fnd.ID == "ext4_commit" || fnd.ID == "zram_and_zswap" {
			out = append(out, fmt.Sprintf("%s: %s — %s", fnd.ID, fnd.Advice, fnd.Persist))
		}
	}
	return out
}

// rootArg is " --root DIR" for a fixture root, "" for the live system.
func rootArg(h *host.Host) string {
	if h.Live() {
		return ""
	}
	return " --root " + h.Root()
}

// exitError carries the command's exit status.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("the command exited with status %d", e.code) }

// ExitCode is the status boardbench exits with.
func (e *exitError) ExitCode() int { return e.code }
