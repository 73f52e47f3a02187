// Package run implements `boardbench run`: the standard benchmark (clock,
// memory, openssl, 7-Zip single- and multi-threaded, clock after load),
// monitored and validated, with a JSON result written after every phase and
// a text report at the end.
package run

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"boardbench/internal/benchrun"
	"boardbench/internal/cmdutil"
	"boardbench/internal/power"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// Options are the run command's inputs: its flags and the factory it
// measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx context.Context
	// Bench is the plan's options (benchrun.Options: --output, --quick,
	// --extensive, --opps, --force, --no-install, --idle-timeout, --power).
	Bench benchrun.Options
	// JSON prints the result as JSON; Wait is --wait.
	JSON, Wait bool
	// Push is --push (a lab URL), TokenFile --token-file.
	Push, TokenFile string
	// Workloads is --workloads as given (a comma list); RunE parses it
	// into Bench.Workloads (benchrun.ParseWorkloads).
	Workloads string
}

// NewCmd returns the run command; runF, when set, replaces the run
// function (tests check the options without measuring).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	opt := &opts.Bench
	cmd := &cobra.Command{
		Use:   "run [--output FILE] [--quick] [--extensive] [--opps] [--force] [--no-install]",
		Short: "Run the standard benchmark, monitored and validated",
		Long: `Run the standard benchmark on this machine: the real clock of each cluster,
memory bandwidth and latency, openssl AES-CBC and 7-Zip single-threaded per
core type, 7-Zip multi-threaded on all CPUs (three runs), and the clock again
right after that load. A background monitor samples clocks, temperature,
load and swap; the evidence is validated (throttling, background activity,
swapping, under-voltage, fake clocks...) and the findings say whether the
figures can be compared.

Before starting, boardbench waits (up to --idle-timeout) for a quiet
machine, finds 7-Zip and openssl (installing them as root unless
--no-install), and as root switches cpufreq governors to performance;
everything is restored at the end, on error, Ctrl-C and SIGTERM.

The JSON result is written after every phase (default name
boardbench-<soc>-<date>-<time>.json in the current directory); an
interrupted run keeps its finished phases with status "interrupted".
It ends with the text report and the verdict on standard output; a result
whose verdict is not valid exits with status 3 (see README, "Exit status").`,
		Example: `  sudo boardbench run
  boardbench run --output myboard.json
  boardbench run --quick                 # about 45 s; figures not comparable
  sudo boardbench run --extensive --opps # per cluster, all cores, sustained load, every OPP
  boardbench run --workloads zstd,armcap # + zstd -19, openssl without the CPU's crypto extensions
  boardbench run --workloads hpl,ssh     # + HPL (Linpack) and ssh ciphers
  boardbench run --workloads llama --model small.gguf # + llama-bench (docs/workloads.md)
  boardbench report myboard.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			if err := checkWorkloads(opts.Workloads, opt); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	fl := cmd.Flags()
	cmdutil.AddWaitFlag(cmd, &opts.Wait)
	fl.StringVarP(&opt.Output, "output", "o", "", "write the JSON result to `FILE` (default boardbench-<soc>-<date>-<time>.json)")
	fl.BoolVar(&opt.Force, "force", false, "do not wait for a quiet machine (recorded as a finding)")
	fl.BoolVar(&opt.NoInstall, "no-install", false, "never install missing tools (7-Zip, openssl); skip their benchmarks instead")
	fl.BoolVar(&opt.Extensive, "extensive", false, "add AES-GCM, ChaCha20-Poly1305 and cryptsetup aes-xts per core type, 7-Zip per cluster, openssl on all cores and a sustained load")
	fl.StringVar(&opts.Workloads, "workloads", "", "also run the workloads of `LIST` (comma-separated: "+strings.Join(benchrun.WorkloadNames(), ", ")+"); --extensive adds the cheap ones (zstd, armcap, ssh)")
	fl.StringVar(&opt.Model, "model", "", "with --workloads llama: llama-bench's model `FILE` (GGUF; never downloaded)")
	fl.BoolVar(&opt.OPPs, "opps", false, "also measure every cpufreq clock of every cluster (needs root)")
	fl.BoolVar(&opt.Quick, "quick", false, "short run of about 45 s for tests and CI (figures are not comparable)")
	fl.DurationVar(&opt.IdleTimeout, "idle-timeout", benchrun.DefaultIdleTimeout, "wait at most `DURATION` for a quiet machine, then start anyway with a finding")
	fl.StringVar(&opts.Push, "push", "", "at the end, upload the result to the lab at `URL` (https://LAB; kept as pending in the store when it fails)")
	fl.StringVar(&opts.TokenFile, "token-file", "", "with --push: read the lab's upload token from `FILE` (else $BOARDBENCH_TOKEN)")
	power.AddFlags(cmd, &opt.Power)
	cmdutil.AddJSONFlag(cmd, &opts.JSON)
	return cmd
}

// runRun checks the flags and the live system, takes the tuning lock and
// measures the plan of benchrun through the session engine; with --push
// it uploads the result at the end.
func runRun(opts *Options) error {
	f, ctx, opt := opts.Factory, opts.Ctx, opts.Bench
	if ctx == nil {
		ctx = context.Background()
	}
	if err := session.CheckLeftovers(f.IO.ErrOut, opt.Force, "run", "/"); err != nil {
		return err
	}
	if err := cmdutil.NonNegative("--idle-timeout", opt.IdleTimeout); err != nil {
		return err
	}
	if opt.IdleTimeout == 0 {
		opt.IdleTimeout = time.Millisecond // check once, do not wait
	}
	client, err := pushClient(f, opts.Push, opts.TokenFile)
	if err != nil {
		return err
	}
	h, err := f.NewHost("/")
	if err != nil {
		return err
	}
	if !h.Live() {
		return errors.New("run benchmarks the machine it runs on; it needs the live system")
	}
	lock, err := tune.CommandLock(ctx, "/", opts.Wait, f.IO.ErrOut)
	if err != nil {
		return err
	}
	defer lock.Release()
	// Again under the lock: a run waited for (--wait) may have been
	// killed and left its state, the clocks still tuned.
	if err := recheckLeftovers(opt.Force, "run", "/"); err != nil {
		return err
	}
	cfg := benchrun.Config{Host: h, Progress: f.IO.ErrOut, TTY: f.IO.IsStderrTTY(), Width: f.IO.StderrWidth(), Lock: lock,
		Keep: f.Keep,
		Print: session.Printer{Out: f.IO.Out, JSON: opts.JSON, TextHasVerdict: true,
			Text: func(w io.Writer, r *result.Result) { runtext.Render(w, r, f.IO.ColorEnabled()) }}}
	out, err := benchrun.Run(ctx, cfg, opt)
	if client != nil && out != nil {
		pushAfterRun(ctx, f, client, out)
	}
	return err
}

// recheckLeftovers repeats the leftover check once the tuning lock is
// held, without --force only (with it the user was told before and goes
// on): it refuses when a run this one waited for left its state file.
func recheckLeftovers(force bool, command, root string) error {
	if force {
		return nil
	}
	return session.CheckLeftovers(nil, false, command, root)
}

// checkWorkloads reads --workloads and --model into opt: an unknown
// workload, llama without a model, a model without llama or a model that
// is not a readable regular file is a usage error (nothing measured).
func checkWorkloads(list string, opt *benchrun.Options) error {
	wl, err := benchrun.ParseWorkloads(list)
	if err != nil {
		return cmdutil.Usagef("--workloads: %v", err)
	}
	opt.Workloads = wl
	if err := benchrun.CheckWorkloads(*opt); err != nil {
		return cmdutil.Usagef("%v", err)
	}
	if opt.Model != "" {
		st, err := os.Stat(opt.Model)
		switch {
		case err != nil:
			return cmdutil.Usagef("--model: %v", err)
		case !st.Mode().IsRegular():
			return cmdutil.Usagef("--model: %s is not a regular file", opt.Model)
		}
	}
	return nil
}
