// Package netbench is the plan of `boardbench net` (docs/net.md): iperf3
// tests against a peer (TCP each way and both ways, small packets, UDP),
// or a passive watch of interfaces, each step sampled for per-CPU load,
// interrupts and soft interrupts; the interfaces described before and
// after; with Apply the suggested interrupt spread and coalescing applied
// through the session's tuning guard; with ClockMHz the clocks pinned;
// with Headroom a calibrated CPU load measuring the capacity left.
package netbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/headroom"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/inventory/netif"
	"boardbench/internal/iostreams"
	"boardbench/internal/netstat"
	"boardbench/internal/power"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// Options are what `boardbench net` measures (its command line, checked).
type Options struct {
	// Peer is the host running `iperf3 -s` (active test); "" with Watch.
	Peer string
	// Interface is the interface toward the peer; "" finds it from the
	// route.
	Interface string
	// Watch are the interfaces of a passive watch; nil with Peer.
	Watch []string
	// Port is the iperf3 server's TCP port.
	Port int
	// Duration is the length of each iperf3 test, or of the watch (0:
	// until Ctrl-C).
	Duration time.Duration
	// Interval is the refresh of the live view of a watch.
	Interval time.Duration
	// UDPRate is the UDP step's rate as given (e.g. "500M"); "" for no
	// UDP step.
	UDPRate string
	// Bitrate limits each TCP stream (iperf3 -b) in bit/s; 0 for none.
	Bitrate int64
	// Bidir runs only the tests both ways at once (TCP, and UDP with
	// UDPRate).
	Bidir bool
	// Streams are the parallel TCP streams per test.
	Streams int
	// Apply applies the suggested spread and coalescing for the run;
	// Keep keeps them.
	Apply, Keep bool
	// ClockMHz pins every cpufreq policy at this clock for the run (0:
	// the clock the board runs).
	ClockMHz int
	// Headroom runs a calibrated CPU load on each CPU during the watch.
	Headroom bool
	// NoInstall never installs iperf3.
	NoInstall bool
	// Output is the result file ("" for none); JSON prints the result as
	// JSON.
	Output string
	JSON   bool
	// Power is the power source (--power) and idle baseline.
	Power power.Options
}

// Config is where a run of `boardbench net` measures and writes.
type Config struct {
	// Host is the live machine.
	Host *host.Host
	// IO are the streams: the text or JSON outcome, live lines, notices.
	IO *iostreams.IOStreams
	// Lock is the tuning lock, taken by the caller with Apply or ClockMHz
	// (nil without).
	Lock *tune.Lock
	// Eth is the ethtool interface; nil means the live one.
	Eth netif.Ethtool
	// Keep saves the finished result to the results store; nil saves it
	// to none (session.Config.Keep).
	Keep session.Keeper
	// Clock are the pins for Options.ClockMHz, planned by tune.CheckClock
	// before measuring (none without).
	Clock []tune.ClockPin
}

// runner holds one run of the command.
type runner struct {
	// lock is the tuning lock with --apply (nil without).
	lock *tune.Lock
	// keep saves the finished result (Config.Keep).
	keep session.Keeper
	// clock are the pins for --clock (Config.Clock).
	clock []tune.ClockPin
	io    *iostreams.IOStreams
	o     Options
	h     *host.Host
	eth   netif.Ethtool
	info  *machine.Info
	// ifaces are the measured interfaces.
	ifaces  []string
	sampler *netstat.Sampler
	facts   check.NetFacts
	applied []string
	// undo are the commands that put back what --apply changed (printed
	// with --keep).
	undo []string
	// writes are the spread --apply wrote, writeErrs their errors (nil
	// for a write that succeeded).
	writes    []check.Spread
	writeErrs []error
	// failures are the iperf3 steps' errors; peerDown says the text
	// prints only the peer's one line (no table of steps that never ran:
	// the result file records them as skipped, with the reason).
	failures []error
	peerDown bool
	// calib is --headroom's calibration (nil before it ran).
	calib []headroom.Rate
	// unusable is the first failure that applies to every test against
	// the peer; nil while the peer answers.
	unusable error
}

// Run measures the network as o says, through the session engine: it
// finds the interface toward the peer, checks the interfaces, finds (or
// installs) iperf3, and runs the plan. The error is the command's.
func Run(ctx context.Context, cfg Config, o Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	r := &runner{io: cfg.IO, o: o, h: cfg.Host, eth: cfg.Eth, lock: cfg.Lock, keep: cfg.Keep, clock: cfg.Clock}
	if r.eth == nil {
		r.eth = netif.Live{}
	}
	if len(o.Watch) > 0 {
		r.ifaces = o.Watch
	} else {
		ifname := o.Interface
		if ifname == "" {
			var err error
			if ifname, err = routeInterface(o.Peer, o.Port); err != nil {
				return err
			}
		}
		r.ifaces = []string{ifname}
	}
	for _, n := range r.ifaces {
		if err := netstat.CheckInterface(r.h, n); err != nil {
			return err
		}
	}
	var tool *tools.Tool
	if o.Peer != "" {
		inst, err := tools.NewInstaller(r.h, !o.NoInstall)
		if err != nil {
			return err
		}
		if tool, err = inst.Ensure(ctx, tools.KindIperf3); err != nil {
			return fmt.Errorf("iperf3: %v", err)
		}
	}
	return r.session(ctx, tool)
}

// describe returns the measured interfaces' details.
func (r *runner) describe() []netif.Details {
	var out []netif.Details
	for _, n := range r.ifaces {
		out = append(out, netif.Describe(r.h, n, r.eth))
	}
	return out
}

// netFacts builds what the network rules need.
func (r *runner) netFacts(details []netif.Details) check.NetFacts {
	f := check.NetFacts{Interfaces: details, Governors: map[int]string{}, Unmovable: LoadUnmovable(tune.StateDirFor(r.h.Root()))}
	if r.info != nil {
		clusters := r.info.CPU.Clusters
		for _, c := range clusters {
			f.CPUs = append(f.CPUs, c.CPUs...)
			nc := check.NetCluster{CPUs: c.CPUs, Core: c.Core, MaxMHz: c.MaxMHz}
			f.Clusters = append(f.Clusters, nc)
			for _, cpu := range c.CPUs {
				f.Governors[cpu] = c.Governor
			}
		}
		sortClustersFastestFirst(f.Clusters)
	}
	if len(f.CPUs) == 0 {
		if cpus, err := host.AllowedCPUs(); err == nil {
			f.CPUs = cpus
		}
	}
	return f
}

// sortClustersFastestFirst puts the cluster with the highest clock first.
func sortClustersFastestFirst(cs []check.NetCluster) {
	mhz := func(c check.NetCluster) float64 {
		if c.MaxMHz == nil {
			return 0
		}
		return *c.MaxMHz
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && mhz(cs[j]) > mhz(cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// session runs the plan on the session engine.
func (r *runner) session(ctx context.Context, tool *tools.Tool) error {
	r.info = machine.Collect(r.h, machine.Options{Redact: true})
	before := r.describe()
	r.facts = r.netFacts(before)
	irqs := []string{}
	for _, d := range before {
		for _, i := range d.IRQs {
			irqs = append(irqs, i.IRQ)
		}
	}
	r.sampler = &netstat.Sampler{Host: r.h, Interfaces: r.ifaces, IRQs: irqs}
	cfg := session.Config{
		Host: r.h, Info: r.info, Command: "net", Path: r.o.Output, Warn: r.io.ErrOut, Options: r.options(),
		Summarize: result.BuildNetSummary, Power: r.o.Power, Keep: r.keep,
		Findings: func(res *result.Result) []finding.Finding {
			facts := r.facts
			facts.Policies = res.Monitor.Policies
			return check.NetFindings(facts, res.Phases)
		},
		Print: session.Printer{Out: r.io.Out, JSON: r.o.JSON,
			Text:   func(w io.Writer, res *result.Result) { runtext.RenderNet(w, res, r.io.ColorEnabled()) },
			Silent: func() bool { return r.peerDown && !r.o.JSON }},
	}
	prepare := func(ctx context.Context, sess *session.Session) ([]session.Step, error) {
		res := sess.Result()
		if tool != nil {
			res.Tools = append(res.Tools, result.ToolVersion{Name: tool.Name, Path: tool.Path, Version: tool.Version, VersionLine: tool.VersionLine})
		}
		apply, split, err := r.tune(ctx, sess)
		if err != nil {
			return nil, err
		}
		return r.steps(tool, before, apply, split), nil
	}
	out, err := session.Measure(ctx, cfg, session.Plan{Prepare: prepare, End: func(sess *session.Session) session.End { return r.end(ctx, sess) }})
	if out != nil {
		r.sayRestored(out.Result)
	}
	return err
}

// options are the result's options.
func (r *runner) options() map[string]any {
	opts := map[string]any{"interfaces": r.ifaces}
	if r.o.Peer != "" {
		opts["peer"], opts["port"], opts["duration_s"], opts["streams"] = r.o.Peer, r.o.Port, r.o.Duration.Seconds(), r.o.Streams
		if r.o.UDPRate != "" {
			opts["udp_rate"] = r.o.UDPRate
		}
		if r.o.Bidir {
			opts["bidir"] = true
		}
		if r.o.Bitrate > 0 {
			opts["bitrate_bit_s"] = r.o.Bitrate
		}
	} else if r.o.Duration > 0 {
		opts["duration_s"] = r.o.Duration.Seconds()
	}
	if r.o.Apply {
		opts["apply"], opts["keep"] = true, r.o.Keep
	}
	if r.o.ClockMHz > 0 {
		opts["clock_mhz"] = r.o.ClockMHz
	}
	if r.o.Headroom {
		opts["headroom"] = true
	}
	return opts
}

// tune pins the clocks (--clock) and prepares --apply through the
// session's guard, which restores on every exit path and at once on a
// signal. apply applies the spread; split says it runs between the two
// halves of a watch (--headroom), else it has run already.
func (r *runner) tune(ctx context.Context, sess *session.Session) (apply func(), split bool, err error) {
	res := sess.Result()
	var guard *tune.Guard
	if r.o.ClockMHz > 0 {
		if err := sess.PinClock(ctx, r.clock, tune.WithLock(r.lock)); err != nil {
			return nil, false, err
		}
		guard, _, _ = sess.Tune(ctx)
	}
	if r.o.Apply {
		if r.o.Keep {
			// The changes stay: written directly, not through the guard
			// (which restores only the pinned clocks).
			guard = nil
			res.Tuning.Note = "kept (--keep)"
		} else if guard == nil {
			if guard, _, err = sess.Tune(ctx, tune.WithFilesOnly(), tune.WithLock(r.lock)); err != nil {
				return nil, false, err
			}
		}
	}
	apply = func() {
		r.applyPlan(guard)
		res.Tuning.Changed = append(res.Tuning.Changed, r.applied...)
		r.sayApplied()
	}
	// With --headroom, --apply comes between the two halves of the watch,
	// so that the capacity left is measured before and after.
	split = r.o.Apply && r.o.Headroom && r.o.Peer == ""
	if r.o.Apply && !split {
		apply()
	}
	return apply, split, nil
}

// steps are the plan: the interfaces before, the iperf3 tests or the
// watch (with --headroom its calibration first), the interfaces after.
func (r *runner) steps(tool *tools.Tool, before []netif.Details, apply func(), split bool) []session.Step {
	steps := []session.Step{{Name: result.PhaseNetInterfacesBefore, Title: "The interfaces before the measurement", Estimate: time.Second,
		Run: func(ctx context.Context, p *result.Phase) error {
			return p.SetFigures(result.NetInterfaceFigures{Interfaces: netInterfaces(before), Applied: r.applied})
		}}}
	switch {
	case r.o.Peer != "":
		steps = append(steps, r.peerSteps(tool)...)
	case split:
		half := r.o.Duration / 2
		steps = append(steps, r.calibrateStep(), r.watchStep(result.PhaseNetWatch, "before --apply", half, nil),
			r.watchStep(result.PhaseNetWatchApplied, "after --apply", half, apply))
	case r.o.Headroom:
		steps = append(steps, r.calibrateStep(), r.watchStep(result.PhaseNetWatch, "", r.o.Duration, nil))
	default:
		steps = append(steps, r.watchStep(result.PhaseNetWatch, "", r.o.Duration, nil))
	}
	return append(steps, session.Step{Name: result.PhaseNetInterfacesAfter, Title: "The interfaces after the measurement", Estimate: time.Second,
		Run: func(ctx context.Context, p *result.Phase) error {
			return p.SetFigures(result.NetInterfaceFigures{Interfaces: netInterfaces(r.describe()), Unmoved: r.unmoved()})
		}})
}

// end fails the session when no measurement succeeded (not after Ctrl-C):
// with the peer's one-line reason when the peer could not be used.
func (r *runner) end(ctx context.Context, sess *session.Session) session.End {
	for _, p := range sess.Result().Phases {
		if p.Status == result.PhaseOK && runtext.IsNetPhase(p.Name) {
			return session.End{}
		}
	}
	if ctx.Err() != nil {
		return session.End{}
	}
	r.peerDown = r.unusable != nil
	e := session.End{Failed: true, Verdict: "no measurement succeeded", Err: errors.Join(r.failures...)}
	if r.peerDown {
		e.Err = r.unusable
	}
	return e
}

// measure runs fn between two snapshots and fills the figures of the
// window.
func (r *runner) measure(figs *result.NetFigures, fn func() error) (netstat.Window, error) {
	a := r.sampler.Take()
	err := fn()
	b := r.sampler.Take()
	w := netstat.Between(a, b, r.sampler.IRQs)
	w.Fill(figs)
	return w, err
}
