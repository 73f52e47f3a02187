// Package writes implements `boardbench writes [DEVICE|PATH]`: a line
// whenever something is written to the device, with the processes that
// wrote, a summary at the end, and the advice that spares flash storage.
// The plan lives in internal/writewatch (ResolveTarget, CommandStep); this
// package reads the flags and arguments and prints the lines.
package writes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/blockdev"
	"boardbench/internal/cmdutil"
	machine "boardbench/internal/inventory"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/safejson"
	"boardbench/internal/session"
	"boardbench/internal/textfmt"
	"boardbench/internal/writewatch"

	"github.com/spf13/cobra"
)

// Options are the writes command's inputs: its argument, its flags and
// the factory it watches with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Target is the device or path to watch ("/" when none is given).
	Target string
	// Output is --output; JSON prints JSON lines.
	Output string
	JSON   bool
	// Interval is the polling interval, Count the lines to print (0: until
	// Ctrl-C).
	Interval time.Duration
	Count    int
}

// NewCmd returns the writes command; runF, when set, replaces the run
// function (tests check the options without watching).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "writes [DEVICE|PATH] [--interval S] [--count N]",
		Short: "Watch what is written to a device, and by which processes",
		Long: `Watch a block device (default: the one holding /) and print a line whenever
something was written to it:

  DATE N writes, M KiB in S sec · top writers

N is the number of write requests the device completed, M what they wrote
(the kernel's 512-byte sectors, in KiB), S the seconds since the previous
line; the top writers
are the processes whose write_bytes (/proc/PID/io, readable as root) grew in
the interval and that hold a file open for writing on the device (or a
partition or device stacked on it); the others are counted as "not
attributable" (a process that opens, writes and closes a file between two
polls is one of them). At the end (Ctrl-C or --count) a summary says
how often, how much and by whom, with advice that reduces writes to flash
(swap, ext4 commit interval, logs, atime), each with its evidence and cost.
The first line says what the device is (SD card, eMMC, NVMe, USB, SATA or
SCSI drive and whether it is rotational, virtio disk); the advice is given
only for a device known to be flash.`,
		Example: `  boardbench writes
  boardbench writes mmcblk0p2 --count 10
  boardbench writes /var --json`,
		Args: cmdutil.MaximumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Target = "/"
			if len(args) == 1 {
				opts.Target = args[0]
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runWrites(opts)
		},
	}
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	opts.Interval = time.Second
	fl.Var((*secondsFlag)(&opts.Interval), "interval", "polling interval: `S` seconds (1, 0.5) or a duration (500ms, 2m)")
	fl.IntVar(&opts.Count, "count", 0, "stop after `N` lines (0: at Ctrl-C)")
	return cmd
}

// secondsFlag is a duration given as seconds (a bare number) or with a
// unit (500ms).
type secondsFlag time.Duration

func (s *secondsFlag) String() string { return time.Duration(*s).String() }
func (s *secondsFlag) Type() string   { return "S" }

func (s *secondsFlag) Set(v string) error {
	d, err := parseSeconds(v)
	if err != nil {
		return err
	}
	*s = secondsFlag(d)
	return nil
}

// parseSeconds reads "1" or "0.5" as seconds, "500ms" or "2m" as a
// duration.
func parseSeconds(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || f > float64(math.MaxInt64)/float64(time.Second) || f < -float64(math.MaxInt64)/float64(time.Second) {
			return 0, fmt.Errorf("%q is not a number of seconds", v)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is neither seconds (1, 0.5) nor a duration (500ms)", v)
	}
	return d, nil
}

const errNotLive = sentinel("writes watches the machine it runs on; not a recorded root")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// runWrites checks the flags, resolves the device to watch and runs the
// plan of writewatch.CommandStep through the session engine, a line at a
// time.
func runWrites(opts *Options) error {
	f, ctx := opts.Factory, opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Interval < 10*time.Millisecond || opts.Interval > time.Hour {
		return cmdutil.Usagef("--interval: %s is out of range (10ms to 1h)", opts.Interval)
	}
	if opts.Count < 0 {
		return cmdutil.Usagef("--count: %d is negative", opts.Count)
	}
	h, err := f.NewHost("/")
	if err != nil {
		return err
	}
	if !h.Live() {
		return &cmdutil.UsageError{Err: errNotLive}
	}
	t, err := writewatch.ResolveTarget(ctx, h, opts.Target)
	if errors.Is(err, blockdev.ErrNotFound) {
		return cmdutil.Usagef("%v", err)
	} else if err != nil {
		return err
	}
	info := machine.Collect(h, machine.Options{Redact: true})
	var figs result.WritesFigures
	cfg := session.Config{Host: h, Info: info, Command: "writes", Path: opts.Output, Warn: f.IO.ErrOut, Keep: f.Keep,
		Interval: max(opts.Interval, time.Second),
		Options:  map[string]any{"target": opts.Target, "device": t.Device, "interval_s": opts.Interval.Seconds(), "count": opts.Count},
		// The summary below the lines, then the verdict; with --json one
		// last JSON line.
		Print: session.Printer{Out: f.IO.Out, TextHasVerdict: opts.JSON, Text: func(w io.Writer, r *result.Result) {
			if opts.JSON {
				_ = writeJSONLine(w, map[string]any{"summary": figs, "valid": r.Summary.Valid, "verdict": r.Summary.Verdict})
				return
			}
			runtext.RenderWritesSummary(textfmt.New(w, false), figs)
		}}}
	if !h.IsRoot() {
		fmt.Fprintln(f.IO.ErrOut, "boardbench writes: not root: /proc/PID/io of other users' processes is unreadable, writers will be missing")
	}
	if !opts.JSON {
		fmt.Fprintf(f.IO.Out, "watching %s (%s); Ctrl-C to stop\n", t.Device, t.Label())
	}
	// On a terminal a line fits in the report width (fewer writers named);
	// piped, it is complete.
	width := 0
	if f.IO.IsStdoutTTY() {
		width = textfmt.MaxWidth
		if tw := f.IO.TerminalWidth(); tw > 0 {
			width = min(width, tw)
		}
	}
	onLine := func(l result.WritesLine) {
		if opts.JSON {
			_ = writeJSONLine(f.IO.Out, l)
			return
		}
		fmt.Fprintln(f.IO.Out, writewatch.FitLine(l, width))
	}
	step := writewatch.CommandStep(h, t, opts.Interval, opts.Count, onLine, &figs)
	_, err = session.Measure(ctx, cfg, session.Plan{Prepare: func(ctx context.Context, s *session.Session) ([]session.Step, error) {
		s.Result().Device = t.ID.ToResult()
		return []session.Step{step}, nil
	}})
	return err
}

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	return safejson.Encode(w, v, safejson.Options{})
}
