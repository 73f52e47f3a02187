// Package restore implements `boardbench restore`: it puts back the
// frequency tunables that a boardbench process changed and could not
// restore itself (it crashed or was killed), from the state files that
// process left, and removes each state file once all its values are back.
package restore

import (
	"fmt"
	"io"
	"strings"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// NewCmd returns the restore command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root string
	var asJSON, dryRun bool
	cmd := &cobra.Command{
		Use:   "restore [--dry-run] [--json] [--root DIR]",
		Short: "Put back the tunables a crashed or killed boardbench left changed",
		Long: `Before boardbench changes a cpufreq governor or limit or a devfreq governor,
it writes the previous values to a state file in ` + tune.DefaultStateDir + `
(DIR` + tune.RootStateDir + ` for a run with --root DIR; $` + tune.StateDirEnv + `
overrides both), and removes the file once it has put them back.
A run that crashed or was killed with SIGKILL leaves its state file behind;
every boardbench command then says so in one line, and run refuses to start
without --force.

restore writes every saved value back (this needs root on a real machine),
prints one line per path it restored, and removes the state file once all
of its values are back. A state file with a value that could not be written
is kept, and restore exits with status 1. State files of processes that
still run are left alone. With nothing to restore it says so and exits 0.`,
		Example: `  sudo boardbench restore
  sudo boardbench restore --dry-run       # say what would be written, write nothing
  boardbench restore --json
  boardbench restore --root ./fixture     # a fixture tree a test run tuned`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			h, err := f.NewHost(root)
			if err != nil {
				return err
			}
			rep, err := Run(h, tune.StateDirFor(h.Root()), dryRun)
			if rep == nil {
				return err
			}
			if asJSON {
				if werr := f.WriteJSON(rep); werr != nil {
					return werr
				}
			} else {
				rep.render(f.IO.Out)
			}
			return err
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "say what would be written and removed, change nothing")
	return cmd
}

// Report is what restore did, as printed with --json.
type Report struct {
	StateDir string `json:"state_dir"`
	Root     string `json:"root"`
	DryRun   bool   `json:"dry_run"`
	// Files are the leftover state files recorded for this root (and any
	// that could not be read).
	Files []FileReport `json:"files"`
	// Skipped are leftover state files recorded for other roots.
	Skipped []Skipped `json:"skipped,omitempty"`
}

// FileReport is the outcome of one state file.
type FileReport struct {
	Path     string             `json:"path"`
	PID      int                `json:"pid,omitempty"`
	Command  []string           `json:"command,omitempty"`
	Started  *time.Time         `json:"started,omitempty"`
	Outcomes []tune.PathOutcome `json:"outcomes"`
	// Removed is true once the state file is gone (never in a dry run).
	Removed bool   `json:"removed"`
	Error   string `json:"error,omitempty"`
}

// Skipped is a leftover state file recorded for another root.
type Skipped struct {
	Path string `json:"path"`
	Root string `json:"root"`
}

// Run restores (or, with dryRun, only inspects) every leftover state file
// in stateDir recorded for h's root. The report is nil only when the state
// directory cannot be read; the error says which state files were kept.
func Run(h *host.Host, stateDir string, dryRun bool) (*Report, error) {
	left, err := tune.Leftovers(stateDir)
	if err != nil {
		return nil, err
	}
	rep := &Report{StateDir: stateDir, Root: h.Root(), DryRun: dryRun, Files: []FileReport{}}
	var kept []string
	for _, sf := range left {
		if sf.Err == nil && sf.Root != h.Root() {
			rep.Skipped = append(rep.Skipped, Skipped{Path: sf.Path, Root: sf.Root})
			continue
		}
		fr := FileReport{Path: sf.Path, PID: sf.PID, Command: sf.Command, Outcomes: []tune.PathOutcome{}}
		if !sf.Started.IsZero() {
			started := sf.Started
			fr.Started = &started
		}
		outcomes, err := tune.RestoreStateFile(h, sf, dryRun)
		if outcomes != nil {
			fr.Outcomes = outcomes
		}
		if err != nil {
			fr.Error = strings.ReplaceAll(err.Error(), "\n", "; ")
			kept = append(kept, sf.Path)
		} else {
			fr.Removed = !dryRun
		}
		rep.Files = append(rep.Files, fr)
	}
	if len(kept) > 0 {
		return rep, fmt.Errorf("%d state file(s) kept (%s): not every value could be put back", len(kept), kept[0])
	}
	return rep, nil
}

// render prints one line per path restored (or to be written) or failed,
// one per state file removed or kept, and one per state file skipped.
func (r *Report) render(w io.Writer) {
	if len(r.Files) == 0 {
		fmt.Fprintln(w, "nothing to restore")
	}
	for _, f := range r.Files {
		for _, o := range f.Outcomes {
			switch o.Outcome {
			case tune.OutcomeRestored:
				if o.Interface != "" {
					fmt.Fprintf(w, "restored %s: %s\n", o.Path, o.Previous)
					continue
				}
				fmt.Fprintf(w, "restored %s: %s → %s\n", o.Path, shown(o.Found), o.Previous)
			case tune.OutcomeWouldWrite:
				if o.Interface != "" {
					fmt.Fprintf(w, "would restore %s: %s (now %s)\n", o.Path, o.Previous, shown(o.Found))
					continue
				}
				fmt.Fprintf(w, "would write %s to %s (now %s)\n", o.Previous, o.Path, shown(o.Found))
			case tune.OutcomeFailed:
				fmt.Fprintf(w, "could not restore %s to %s: %s\n", o.Path, o.Previous, o.Error)
			}
		}
		switch {
		case f.Removed:
			fmt.Fprintf(w, "removed state file %s\n", f.Path)
		case r.DryRun && f.Error == "":
			fmt.Fprintf(w, "would remove state file %s\n", f.Path)
		default:
			fmt.Fprintf(w, "kept state file %s: %s\n", f.Path, f.Error)
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "left state file %s alone: it is for --root %s\n", s.Path, s.Root)
	}
}

// shown displays a value read before the restore.
func shown(v string) string {
	if v == "" {
		return "(unreadable)"
	}
	return v
}
