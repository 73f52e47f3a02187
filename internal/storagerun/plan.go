// Package storagerun is the plan of `boardbench storage`: it checks the
// paths (refusing pseudo filesystems, special files, raw devices not named
// twice, sizes that do not fit), resolves the storage behind each, and
// runs the measuring steps through the session engine: the iozone-style
// table with its latency cells (on one device, or on several at once),
// fio repeating the same cells, the sustained-write test, or the
// fake-capacity check. The command package only parses flags.
package storagerun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"boardbench/internal/benchtool/fio"
	"boardbench/internal/blockdev"
	"boardbench/internal/check"
	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/iostreams"
	"boardbench/internal/power"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/storagebench"
	"boardbench/internal/tempsweep"
	"boardbench/internal/textfmt"
	"boardbench/internal/tune"
)

// Options are what the user asked for.
type Options struct {
	// Paths are the directories (or one raw device) to measure; several
	// paths are measured at the same time.
	Paths []string
	// Output is the result file ("" for none).
	Output string
	// SizeText is --size as typed ("" for the default); Short a quick run.
	SizeText  string
	CellLimit time.Duration
	Short     bool
	// Fio repeats the cells with fio; NoInstall never installs it.
	Fio, NoInstall, NoRedact bool
	// Destructive is the raw device's name typed again.
	Destructive string
	// SustainedText is --sustained SIZE as typed: only the sustained-write
	// test runs. VerifyCapacity runs only the fake-capacity check.
	SustainedText  string
	VerifyCapacity bool
	Power          power.Options
	// ClockMHz pins every cpufreq policy at this clock for the run (0:
	// the clock the board runs), through the session's tuning guard.
	ClockMHz int
}

// Env is where the plan runs and prints.
type Env struct {
	Host   *host.Host
	Out    io.Writer
	ErrOut io.Writer
	Status *iostreams.Status
	Print  session.Printer
	// Keep saves the finished result to the results store; nil saves it
	// to none (session.Config.Keep).
	Keep session.Keeper
	// Clock are the pins for Options.ClockMHz, planned by tune.CheckClock
	// before measuring (none without).
	Clock []tune.ClockPin
}

// target is one measured path.
type target struct {
	path string
	id   *blockdev.Identity
	cfg  storagebench.Config
}

// Run checks the options, then measures. A refusal is a usage error
// (exit 2) before anything is written.
func Run(ctx context.Context, env Env, opts Options) error {
	if len(opts.Paths) == 0 {
		opts.Paths = []string{"."}
	}
	want := int64(0)
	var err error
	if opts.SizeText != "" {
		if want, err = ParseSize(opts.SizeText); err != nil {
			return cmdutil.Usagef("--size: %v", err)
		}
	}
	cellLimit := opts.CellLimit
	if opts.Short {
		want, cellLimit = storagebench.MinFileBytes, 200*time.Millisecond
	}
	if cellLimit <= 0 || cellLimit > time.Hour {
		return cmdutil.Usagef("--cell-time: %s is out of range", cellLimit)
	}
	mode := modeTable
	switch {
	case opts.SustainedText != "" && opts.VerifyCapacity:
		return cmdutil.Usagef("--sustained and --verify-capacity are separate runs: give one")
	case opts.SustainedText != "":
		mode = modeSustained
	case opts.VerifyCapacity:
		mode = modeCapacity
	}
	if len(opts.Paths) > 1 && mode != modeTable {
		return cmdutil.Usagef("--sustained and --verify-capacity measure one path; %d given", len(opts.Paths))
	}
	var targets []*target
	for _, p := range opts.Paths {
		t, err := resolve(ctx, env, p, opts, want, cellLimit, mode, len(opts.Paths) > 1)
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}
	if err := distinct(targets); err != nil {
		return err
	}
	// Only once every check passed: a refusal changes nothing.
	for _, t := range targets {
		if t.cfg.Dir != "" {
			sweep(env, t.cfg.Dir)
		}
	}
	steps, fioErr, err := stepsFor(ctx, env, opts, mode, targets)
	if err != nil {
		return err
	}
	info := machine.Collect(env.Host, machine.Options{Redact: !opts.NoRedact})
	scfg := session.Config{Host: env.Host, Info: info, Command: "storage", Path: opts.Output, Warn: env.ErrOut,
		Power: opts.Power, Status: env.Status, Print: env.Print, Keep: env.Keep,
		Options: map[string]any{"path": strings.Join(opts.Paths, " "), "paths": opts.Paths, "size_bytes": targets[0].cfg.FileBytes,
			"cell_time_s": cellLimit.Seconds(), "short": opts.Short, "fio": opts.Fio, "no_install": opts.NoInstall,
			"destructive": opts.Destructive != "", "sustained": opts.SustainedText, "verify_capacity": opts.VerifyCapacity},
		Summarize: summarize,
		Findings:  func(r *result.Result) []finding.Finding { return check.StorageFindings(r) }}
	if opts.ClockMHz > 0 {
		scfg.Options["clock_mhz"] = opts.ClockMHz
	}
	_, err = session.Measure(ctx, scfg, session.Plan{Prepare: func(ctx context.Context, s *session.Session) ([]session.Step, error) {
		if len(targets) == 1 {
			s.Result().Device = targets[0].id.ToResult()
		}
		if err := s.PinClock(ctx, env.Clock); err != nil {
			return nil, err
		}
		return steps, nil
	}})
	if err != nil {
		return err
	}
	return fioFailed(*fioErr)
}

// The modes of a run.
const (
	modeTable = iota
	modeSustained
	modeCapacity
)

// resolve checks one path and says how it is measured.
func resolve(ctx context.Context, env Env, p string, opts Options, want int64, cellLimit time.Duration, mode int, several bool) (*target, error) {
	if err := refuseSpecialFile(p); err != nil {
		return nil, err
	}
	id, err := blockdev.Resolve(ctx, env.Host, p, blockdev.Options{Redact: !opts.NoRedact})
	if err != nil {
		if errors.Is(err, blockdev.ErrNotFound) {
			return nil, cmdutil.Usagef("%v", err)
		}
		return nil, err
	}
	if !id.Raw && id.Mount != nil && blockdev.PseudoFS(id.Mount.FSType) {
		return nil, cmdutil.Usagef("%s is on %s (%s), a kernel pseudo filesystem: not storage", p, id.Mount.MountPoint, id.Mount.FSType)
	}
	t := &target{path: p, id: id, cfg: storagebench.Config{CellLimit: cellLimit}}
	if id.Raw {
		if several || mode != modeTable {
			return nil, cmdutil.Usagef("%s is a raw block device: only the table runs on one (not with several paths, --sustained or --verify-capacity)", p)
		}
		return t, rawTarget(env.Host, t, opts, want)
	}
	if opts.Destructive != "" {
		return nil, cmdutil.Usagef("--destructive is for a raw block device; %s is not one", p)
	}
	dir := id.Path
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	if id.Filesystem != nil && id.Filesystem.ReadOnly {
		return nil, fmt.Errorf("%s is on a read-only filesystem (%s): nothing can be measured there", dir, id.Mount.MountPoint)
	}
	free, err := storagebench.FreeBytes(dir)
	if err != nil {
		return nil, err
	}
	t.cfg.Dir = dir
	switch mode {
	case modeSustained:
		size, err := ParseSize(opts.SustainedText)
		if err != nil {
			return nil, cmdutil.Usagef("--sustained: %v", err)
		}
		if err := storagebench.CheckSustained(size, free); err != nil {
			return nil, cmdutil.Usagef("--sustained %s: %s: %v", opts.SustainedText, dir, err)
		}
		t.cfg.FileBytes = size
	case modeTable:
		if t.cfg.FileBytes, err = storagebench.SizeFor(want, free); err != nil {
			if opts.SizeText != "" {
				return nil, cmdutil.Usagef("--size %s: %s: %v", opts.SizeText, dir, err)
			}
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
	}
	return t, nil
}

// rawTarget checks a raw device (named twice, not mounted, large enough).
func rawTarget(h *host.Host, t *target, opts Options, want int64) error {
	id := t.id
	if err := destructiveAllowed(h, id, opts.Destructive); err != nil {
		return err
	}
	t.cfg.Device = id.Path
	t.cfg.FileBytes = storagebench.DefaultFileBytes
	if want > 0 {
		t.cfg.FileBytes = want
	}
	if t.cfg.FileBytes < storagebench.MinFileBytes {
		return cmdutil.Usagef("--size %s is below the smallest test region, %s", opts.SizeText, textfmt.Bytes(storagebench.MinFileBytes))
	}
	if need := t.cfg.FileBytes + storagebench.WriteFileBytes(t.cfg.FileBytes); id.Block != nil && id.Block.SizeBytes != nil && *id.Block.SizeBytes < need {
		return cmdutil.Usagef("%s holds %s, less than the %s the test writes", id.Path, textfmt.Bytes(*id.Block.SizeBytes), textfmt.Bytes(need))
	}
	return nil
}

// sweep removes the temporary files a killed boardbench left in dir.
func sweep(env Env, dir string) {
	pats := append(append([]*regexp.Regexp{}, fio.TempNames()...), storagebench.TempNames()...)
	swept := tempsweep.Sweep(dir, tempsweep.Options{Patterns: pats, UID: -1})
	if line := tempsweep.Line(dir, swept); line != "" {
		fmt.Fprintf(env.ErrOut, "boardbench: %s\n", line)
	}
}

// distinct refuses two paths on the same filesystem: they would share the
// device and measure it twice.
func distinct(ts []*target) error {
	seen := map[string]string{}
	for _, t := range ts {
		key := t.cfg.Device
		if t.id.Mount != nil {
			key = t.id.Mount.MountPoint + "\x00" + t.id.Mount.Source
		}
		if prev, ok := seen[key]; ok && key != "" {
			return cmdutil.Usagef("%s and %s are on the same filesystem: give paths on different devices", prev, t.path)
		}
		seen[key] = t.path
	}
	return nil
}
