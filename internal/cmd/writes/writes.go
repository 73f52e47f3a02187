// Package writes implements `boardbench writes [DEVICE|PATH]`: a line
// whenever something is written to the device, with the processes that
// wrote, a summary at the end, and the advice that spares flash storage.
package writes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/blockdev"
	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/safejson"
	"boardbench/internal/session"
	"boardbench/internal/textfmt"
	"boardbench/internal/writewatch"

	"github.com/spf13/cobra"
)

type options struct {
	output   string
	asJSON   bool
	interval time.Duration
	count    int
}

// NewCmd returns the writes command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var opts options
	cmd := &cobra.Command{
		Use:   "writes [DEVICE|PATH] [--interval S] [--count N]",
		Short: "Watch what is written to a device, and by which processes",
		Long: `Watch a block device (default: the one holding /) and print a line whenever
something was written to it:

  DATE N/M pages written after S sec · top writers

N is the number of write requests the device completed, M the 512-byte
sectors they wrote, S the seconds since the previous line; the top writers
are the processes whose write_bytes (/proc/PID/io, readable as root) grew in
the interval and that hold a file open for writing on the device (or a
partition or device stacked on it); the others are counted as "not
attributable" (a process that opens, writes and closes a file between two
polls is one of them). At the end (Ctrl-C or --count) a summary says
how often, how much and by whom, with advice that reduces writes to flash
(swap, ext4 commit interval, logs, atime), each with its evidence and cost.`,
		Example: `  boardbench writes
  boardbench writes mmcblk0p2 --count 10
  boardbench writes /var --json`,
		Args: cmdutil.MaximumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			target := "/"
			if len(args) == 1 {
				target = args[0]
			}
			return run(cmd.Context(), f, target, opts)
		},
	}
	cmdutil.AddJSONFlag(cmd, &opts.asJSON)
	fl := cmd.Flags()
	fl.StringVarP(&opts.output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	opts.interval = time.Second
	fl.Var((*secondsFlag)(&opts.interval), "interval", "polling interval: `S` seconds (1, 0.5) or a duration (500ms, 2m)")
	fl.IntVar(&opts.count, "count", 0, "stop after `N` lines (0: at Ctrl-C)")
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

var errNotLive = errors.New("writes watches the machine it runs on; not a recorded root")

func run(ctx context.Context, f *cmdutil.Factory, target string, opts options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.interval < 10*time.Millisecond || opts.interval > time.Hour {
		return cmdutil.Usagef("--interval: %s is out of range (10ms to 1h)", opts.interval)
	}
	if opts.count < 0 {
		return cmdutil.Usagef("--count: %d is negative", opts.count)
	}
	h, err := f.NewHost("/")
	if err != nil {
		return err
	}
	if !h.Live() {
		return &cmdutil.UsageError{Err: errNotLive}
	}
	// A bare device name (mmcblk0p2) is a device; anything else a path.
	p := target
	if !strings.Contains(target, "/") && h.Exists("/sys/class/block/"+target) {
		p = "/dev/" + target
	}
	id, err := blockdev.Resolve(ctx, h, p, blockdev.Options{Redact: true})
	if err != nil {
		if errors.Is(err, blockdev.ErrNotFound) {
			return cmdutil.Usagef("%v", err)
		}
		return err
	}
	dev := deviceToWatch(h, p, id)
	if dev == "" {
		return fmt.Errorf("%s: no block device to watch (%s)", target, firstNonEmpty(id.NotStorage, strings.Join(id.Notes, "; ")))
	}
	if _, err := writewatch.ReadStat(h, dev); err != nil {
		return fmt.Errorf("%s: cannot read its counters: %v", dev, err)
	}
	facts := writewatch.Facts{Root: id, Swaps: map[string]*blockdev.Identity{}}
	for _, s := range writewatch.Swaps(h) {
		facts.Swaps[s], _ = blockdev.Resolve(ctx, h, s, blockdev.Options{Redact: true, KernelLog: []byte{}})
	}
	facts.VarLog, _ = blockdev.Resolve(ctx, h, "/var/log", blockdev.Options{Redact: true, KernelLog: []byte{}})

	info := machine.Collect(h, machine.Options{Redact: true})
	var figs result.WritesFigures
	cfg := session.Config{Host: h, Info: info, Command: "writes", Path: opts.output, Warn: f.IO.ErrOut, Keep: f.Keep,
		Interval: max(opts.interval, time.Second),
		Options:  map[string]any{"target": target, "device": dev, "interval_s": opts.interval.Seconds(), "count": opts.count},
		// The summary below the lines, then the verdict; with --json one
		// last JSON line.
		Print: session.Printer{Out: f.IO.Out, TextHasVerdict: opts.asJSON, Text: func(w io.Writer, r *result.Result) {
			if opts.asJSON {
				_ = writeJSONLine(w, map[string]any{"summary": figs, "valid": r.Summary.Valid, "verdict": r.Summary.Verdict})
				return
			}
			runtext.RenderWritesSummary(textfmt.New(w, false), figs)
		}}}
	if !h.IsRoot() {
		fmt.Fprintln(f.IO.ErrOut, "boardbench writes: not root: /proc/PID/io of other users' processes is unreadable, writers will be missing")
	}
	if !opts.asJSON {
		fmt.Fprintf(f.IO.Out, "watching %s (%s); Ctrl-C to stop\n", dev, firstNonEmpty(id.Label(), id.Path))
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
	step := session.Step{Name: result.PhaseWrites, Title: "Writes to " + dev, Estimate: time.Duration(max(opts.count, 1)) * opts.interval,
		Run: func(ctx context.Context, ph *result.Phase) error {
			// Other processes' work is what this phase watches, not
			// interference with it.
			ph.Passive = true
			var err error
			figs, err = writewatch.Watch(ctx, h, writewatch.Config{Device: dev, Interval: opts.interval, Count: opts.count,
				OnLine: func(l result.WritesLine) {
					if opts.asJSON {
						_ = writeJSONLine(f.IO.Out, l)
						return
					}
					fmt.Fprintln(f.IO.Out, writewatch.FitLine(l, width))
				}})
			figs.Advice = writewatch.Advise(facts, figs)
			if ferr := ph.SetFigures(figs); ferr != nil {
				return ferr
			}
			if err == nil && ctx.Err() != nil {
				// The end the user asked for: the summary comes below.
				return nil
			}
			return err
		}}
	_, err = session.Measure(ctx, cfg, session.Plan{Prepare: func(ctx context.Context, s *session.Session) ([]session.Step, error) {
		s.Result().Device = id.ToResult()
		return []session.Step{step}, nil
	}})
	return err
}

// deviceToWatch returns the block device whose counters the watch reads
// for the resolved target: for a device node (vda, /dev/vda, loop0,
// mmcblk0p2) the device itself; for a path the device holding its
// filesystem (writewatch.WatchedDevice). "" when there is none.
func deviceToWatch(h *host.Host, p string, id *blockdev.Identity) string {
	if !id.Raw {
		return writewatch.WatchedDevice(id)
	}
	for _, name := range []string{id.Partition, writewatch.WatchedDevice(id), path.Base(p), id.Name} {
		if name != "" && name != "." && name != "/" && h.Exists("/sys/class/block/"+name+"/stat") {
			return name
		}
	}
	return ""
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	return safejson.Encode(w, v, safejson.Options{})
}
