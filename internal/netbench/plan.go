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
	stdnet "net"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/benchtool/iperf3"
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

// errPeerUnusable marks a failure that applies to every test against the
// peer (connection refused, host unreachable, server busy, no answer in
// time): the remaining tests are skipped with it as their reason.
var errPeerUnusable = errors.New("the peer cannot be used")

// peerError is a failure of the peer as a whole: one line saying why.
type peerError struct{ msg string }

func (e *peerError) Error() string { return e.msg }

// Is makes every peerError an errPeerUnusable.
func (e *peerError) Is(target error) bool { return target == errPeerUnusable }

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
}

// runner holds one run of the command.
type runner struct {
	// lock is the tuning lock with --apply (nil without).
	lock *tune.Lock
	io   *iostreams.IOStreams
	o    Options
	h    *host.Host
	eth  netif.Ethtool
	info *machine.Info
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
	r := &runner{io: cfg.IO, o: o, h: cfg.Host, eth: cfg.Eth, lock: cfg.Lock}
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

// routeInterface returns the interface the kernel routes peer through.
func routeInterface(peer string, port int) (string, error) {
	conn, err := stdnet.DialTimeout("udp", stdnet.JoinHostPort(peer, strconv.Itoa(port)), 5*time.Second)
	if err != nil {
		return "", fmt.Errorf("peer %s: %v", peer, err)
	}
	local, _ := conn.LocalAddr().(*stdnet.UDPAddr)
	conn.Close()
	ifs, err := stdnet.Interfaces()
	if err != nil {
		return "", fmt.Errorf("listing the interfaces: %v", err)
	}
	for _, i := range ifs {
		addrs, _ := i.Addrs()
		for _, a := range addrs {
			if n, ok := a.(*stdnet.IPNet); ok && local != nil && n.IP.Equal(local.IP) {
				return i.Name, nil
			}
		}
	}
	return "", fmt.Errorf("peer %s: no interface holds the address %v the route to it uses; name it with --interface", peer, local)
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
	var failures []error
	// A peer that cannot be used is one line: no table of steps that
	// never ran (the result file records them as skipped, with the reason).
	peerDown := false
	cfg := session.Config{
		Host: r.h, Info: r.info, Command: "net", Path: r.o.Output, Warn: r.io.ErrOut, Options: opts,
		Summarize: result.BuildNetSummary, Power: r.o.Power,
		Findings: func(res *result.Result) []finding.Finding {
			facts := r.facts
			facts.Policies = res.Monitor.Policies
			return check.NetFindings(facts, res.Phases)
		},
		Print: session.Printer{Out: r.io.Out, JSON: r.o.JSON,
			Text:   func(w io.Writer, res *result.Result) { runtext.RenderNet(w, res, r.io.ColorEnabled()) },
			Silent: func() bool { return peerDown && !r.o.JSON }},
	}
	prepare := func(ctx context.Context, sess *session.Session) ([]session.Step, error) {
		res := sess.Result()
		if tool != nil {
			res.Tools = append(res.Tools, result.ToolVersion{Name: tool.Name, Path: tool.Path, Version: tool.Version, VersionLine: tool.VersionLine})
		}
		// --clock and --apply: the session's guard restores on every exit
		// path, and at once on a signal.
		var guard *tune.Guard
		if r.o.ClockMHz > 0 {
			if err := sess.PinClock(ctx, r.o.ClockMHz, tune.WithLock(r.lock)); err != nil {
				return nil, err
			}
			guard, _, _ = sess.Tune(ctx)
		}
		if r.o.Apply {
			if r.o.Keep {
				// The changes stay: written directly, not through the
				// guard (which restores only the pinned clocks).
				guard = nil
				res.Tuning.Note = "kept (--keep)"
			} else if guard == nil {
				g, _, gerr := sess.Tune(ctx, tune.WithFilesOnly(), tune.WithLock(r.lock))
				if gerr != nil {
					return nil, gerr
				}
				guard = g
			}
		}
		apply := func() {
			r.applyPlan(guard)
			res.Tuning.Changed = append(res.Tuning.Changed, r.applied...)
			r.sayApplied()
		}
		// With --headroom, --apply comes between the two halves of the
		// watch, so that the capacity left is measured before and after.
		split := r.o.Apply && r.o.Headroom && r.o.Peer == ""
		if r.o.Apply && !split {
			apply()
		}
		steps := []session.Step{{Name: result.PhaseNetInterfacesBefore, Title: "The interfaces before the measurement", Estimate: time.Second,
			Run: func(ctx context.Context, p *result.Phase) error {
				return p.SetFigures(result.NetInterfaceFigures{Interfaces: before, Applied: r.applied})
			}}}
		if r.o.Peer != "" {
			steps = append(steps, r.peerSteps(tool, &failures)...)
		} else {
			if r.o.Headroom {
				steps = append(steps, r.calibrateStep())
			}
			if split {
				half := r.o.Duration / 2
				steps = append(steps, r.watchStep(result.PhaseNetWatch, "before --apply", half, nil),
					r.watchStep(result.PhaseNetWatchApplied, "after --apply", half, apply))
			} else {
				steps = append(steps, r.watchStep(result.PhaseNetWatch, "", r.o.Duration, nil))
			}
		}
		return append(steps, session.Step{Name: result.PhaseNetInterfacesAfter, Title: "The interfaces after the measurement", Estimate: time.Second,
			Run: func(ctx context.Context, p *result.Phase) error {
				return p.SetFigures(result.NetInterfaceFigures{Interfaces: r.describe(), Unmoved: r.unmoved()})
			}}), nil
	}
	end := func(sess *session.Session) session.End {
		ok := 0
		for _, p := range sess.Result().Phases {
			if p.Status == result.PhaseOK && runtext.IsNetPhase(p.Name) {
				ok++
			}
		}
		if ok > 0 || ctx.Err() != nil {
			return session.End{}
		}
		peerDown = r.unusable != nil
		e := session.End{Failed: true, Verdict: "no measurement succeeded", Err: errors.Join(failures...)}
		if peerDown {
			e.Err = r.unusable
		}
		return e
	}
	out, err := session.Measure(ctx, cfg, session.Plan{Prepare: prepare, End: end})
	if out != nil {
		r.sayRestored(out.Result)
	}
	return err
}

// applyPlan applies the suggested spread and coalescing, through the guard
// (restored at the end) or, with --keep, directly.
func (r *runner) applyPlan(g *tune.Guard) {
	for _, s := range check.SpreadPlan(r.facts) {
		prev, perr := r.h.ReadString(s.Path)
		prev = strings.TrimSpace(prev)
		var err error
		if g != nil {
			err = g.SetFile(s.Path, s.Value)
		} else {
			err = r.h.WriteString(s.Path, s.Value)
		}
		r.writes, r.writeErrs = append(r.writes, s), append(r.writeErrs, err)
		line := fmt.Sprintf("echo %s > %s", s.Value, s.Path)
		if err != nil {
			line += " (failed: " + err.Error() + ")"
		} else if perr == nil && prev != "" {
			r.undo = append(r.undo, fmt.Sprintf("echo %s > %s", prev, s.Path))
		}
		r.applied = append(r.applied, line)
	}
	for _, d := range r.facts.Interfaces {
		if d.Coalesce == nil || !d.Coalesce.Minimal() {
			continue
		}
		c := *d.Coalesce
		c.RxUsecs, c.RxFrames = check.SuggestedRxUsecs, check.SuggestedRxFrames
		var err error
		if g != nil {
			err = g.SetCoalesce(d.Name, c)
		} else {
			err = r.eth.SetCoalesce(d.Name, c)
		}
		line := fmt.Sprintf("ethtool -C %s rx-usecs %d rx-frames %d", d.Name, c.RxUsecs, c.RxFrames)
		if err != nil {
			line += " (failed: " + err.Error() + ")"
		} else {
			r.undo = append(r.undo, fmt.Sprintf("ethtool -C %s rx-usecs %d rx-frames %d", d.Name, d.Coalesce.RxUsecs, d.Coalesce.RxFrames))
		}
		r.applied = append(r.applied, line)
	}
}

// unmoved reads back the effective affinity of the interrupts --apply
// moved, tells on standard error which did not move, and records them so
// that they are never advised again.
func (r *runner) unmoved() []result.NetUnmoved {
	found := CheckMoved(r.h, r.writes, r.writeErrs)
	for _, u := range found {
		fmt.Fprintf(r.io.ErrOut, "boardbench net: irq %s (%s) did not move: cpu %s written, effective affinity cpu %s; it is not advised again\n",
			u.IRQ, u.Name, u.Wanted, u.Effective)
	}
	if err := SaveUnmovable(tune.StateDirFor(r.h.Root()), found); err != nil {
		fmt.Fprintf(r.io.ErrOut, "boardbench net: cannot record the interrupts that did not move: %v\n", err)
	}
	return found
}

// sayApplied tells on standard error what --apply changed.
func (r *runner) sayApplied() {
	w := r.io.ErrOut
	if len(r.applied) == 0 {
		fmt.Fprintln(w, "boardbench net: --apply: nothing to change (no interrupt, queue or coalescing to spread)")
		return
	}
	when := "for the run"
	if r.o.Keep {
		when = "and keeps it (--keep)"
	}
	fmt.Fprintf(w, "boardbench net: --apply changes %s:\n", when)
	for _, a := range r.applied {
		fmt.Fprintf(w, "  %s\n", a)
	}
}

// sayRestored tells on standard error, at the end, that --apply's changes
// were restored, or with --keep the commands that undo them.
func (r *runner) sayRestored(res *result.Result) {
	if !r.o.Apply || len(r.applied) == 0 {
		return
	}
	w := r.io.ErrOut
	switch {
	case r.o.Keep && len(r.undo) > 0:
		fmt.Fprintln(w, "boardbench net: the changes are kept (--keep); to undo them, as root:")
		for _, u := range r.undo {
			fmt.Fprintf(w, "  %s\n", u)
		}
	case r.o.Keep:
		fmt.Fprintln(w, "boardbench net: the changes are kept (--keep); their previous values could not be read")
	case res.Tuning.Restored:
		n := 0
		for _, a := range r.applied {
			if !strings.Contains(a, "(failed: ") {
				n++
			}
		}
		fmt.Fprintf(w, "boardbench net: restored the %d setting(s) --apply changed\n", n)
	}
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

// peerSteps are the iperf3 tests.
func (r *runner) peerSteps(tool *tools.Tool, failures *[]error) []session.Step {
	ifname := r.ifaces[0]
	type test struct {
		name, title string
		mode        iperf3.Mode
		mss         int
		rate        int64
	}
	limit, limited := r.o.Bitrate, ""
	if limit > 0 {
		limited = fmt.Sprintf(", at most %s bit/s per stream", FormatRate(limit))
	}
	tests := []test{
		{result.PhaseNetTCPForward, "TCP from this machine to the peer" + limited, iperf3.Forward, 0, limit},
		{result.PhaseNetTCPReverse, "TCP from the peer to this machine" + limited, iperf3.Reverse, 0, limit},
		{result.PhaseNetTCPBidir, "TCP both ways at once" + limited, iperf3.Bidir, 0, limit},
		{result.PhaseNetSmallPackets, "TCP with an 88-byte MSS, for packets per second" + limited, iperf3.Forward, 88, limit},
	}
	if r.o.Bidir {
		// --bidir: only the tests both ways at once.
		tests = tests[2:3]
	}
	if r.o.UDPRate != "" {
		rate, _ := ParseRate(r.o.UDPRate)
		if r.o.Bidir {
			tests = append(tests, test{result.PhaseNetUDPBidir, "UDP both ways at once at " + r.o.UDPRate + "bit/s each", iperf3.UDPBidir, 0, rate})
		} else {
			tests = append(tests, test{result.PhaseNetUDP, "UDP from this machine at " + r.o.UDPRate + "bit/s", iperf3.UDP, 0, rate})
		}
	}
	var steps []session.Step
	for _, t := range tests {
		it := iperf3.Test{Command: tool.Command(), Peer: r.o.Peer, Port: r.o.Port, Mode: t.mode, Duration: r.o.Duration,
			MSS: t.mss, Rate: t.rate, Streams: r.o.Streams}
		if t.mode == iperf3.UDP || t.mode == iperf3.UDPBidir {
			it.Streams = 1
		}
		steps = append(steps, session.Step{Name: t.name, Title: t.title, Kind: "iperf3", Estimate: r.o.Duration + time.Second,
			Run: func(ctx context.Context, p *result.Phase) error {
				if r.unusable != nil {
					p.Status, p.Reason = result.PhaseSkipped, "not run: "+r.unusable.Error()
					return nil
				}
				figs := result.NetFigures{Interface: ifname, MSS: t.mss, BitrateLimit: t.rate}
				var rep iperf3.Report
				var raw []byte
				w, err := r.measure(&figs, func() error {
					var e error
					rep, raw, e = runRetryingBusy(ctx, it)
					return e
				})
				p.RawOutput = string(raw)
				if err != nil {
					err = explain(err, r.o.Peer, r.o.Port)
					if errors.Is(err, errPeerUnusable) && r.unusable == nil {
						r.unusable = err
					}
					*failures = append(*failures, fmt.Errorf("%s: %w", t.name, err))
					return err
				}
				figs.TxMbitS, figs.RxMbitS, figs.Retransmits, figs.LostPercent = rep.TxMbitS, rep.RxMbitS, rep.Retransmits, rep.LostPercent
				figs.RxLostPercent, figs.JitterMs, figs.RxJitterMs = rep.RxLostPercent, rep.JitterMs, rep.RxJitterMs
				if rate := w.Rate(ifname); rate != nil {
					figs.RxPPS, figs.TxPPS = &rate.RxPPS, &rate.TxPPS
				}
				markMergedSegments(&figs, r.mtu(ifname))
				fillLineRate(&figs, r.linkSpeed(ifname))
				return p.SetFigures(figs)
			}})
	}
	return steps
}

// busyRetries are the pauses before trying again a server that said it is
// busy: iperf3 -s takes a moment after one test before it accepts the next.
var busyRetries = []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}

// runRetryingBusy runs the test, trying again after a pause while the
// server says it is busy.
func runRetryingBusy(ctx context.Context, t iperf3.Test) (iperf3.Report, []byte, error) {
	rep, raw, err := iperf3.Run(ctx, t)
	for _, pause := range busyRetries {
		var se *iperf3.ServerError
		if !errors.As(err, &se) || !se.Busy() {
			break
		}
		select {
		case <-ctx.Done():
			return rep, raw, err
		case <-time.After(pause):
		}
		rep, raw, err = iperf3.Run(ctx, t)
	}
	return rep, raw, err
}

// mtu returns the MTU of a measured interface as described before the
// steps; 0 when unknown.
func (r *runner) mtu(ifname string) int64 {
	for _, d := range r.facts.Interfaces {
		if d.Name == ifname && d.MTU != nil {
			return *d.MTU
		}
	}
	return 0
}

// linkSpeed returns the link speed (Mbit/s) of a measured interface as
// described before the steps; nil when unknown.
func (r *runner) linkSpeed(ifname string) *int64 {
	for _, d := range r.facts.Interfaces {
		if d.Name == ifname {
			if d.Link != nil && d.Link.SpeedMbps != nil {
				return d.Link.SpeedMbps
			}
			return d.SpeedMbps
		}
	}
	return nil
}

// explain turns an iperf3 failure into one clear sentence. A failure that
// applies to every test against the peer (refused, unreachable, busy, no
// answer in time) is a *peerError, kept short enough for one line.
func explain(err error, peer string, port int) error {
	addr := stdnet.JoinHostPort(peer, strconv.Itoa(port))
	var se *iperf3.ServerError
	switch {
	case errors.As(err, &se) && se.Busy():
		return &peerError{fmt.Sprintf("the iperf3 server on %s is busy with another client's test; try again later", addr)}
	case errors.As(err, &se) && strings.Contains(se.Message, "unable to connect"):
		return &peerError{connectFailure(addr, se.Message)}
	case errors.Is(err, iperf3.ErrTimeout):
		return &peerError{fmt.Sprintf("the iperf3 server on %s did not answer in time (%v)", addr, err)}
	}
	return err
}

// connectFailure says in one short line why iperf3 could not connect to
// addr, from its message ("unable to connect to server - server may have
// stopped running or use a different port, firewall issue, etc.:
// Connection refused").
func connectFailure(addr, msg string) string {
	cause := msg
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		cause = msg[i+2:]
	}
	lc := strings.ToLower(cause)
	switch {
	case strings.Contains(lc, "refused"):
		return fmt.Sprintf("the peer %s refused the connection: is `iperf3 -s` running there?", addr)
	case strings.Contains(lc, "no route"), strings.Contains(lc, "unreachable"):
		return fmt.Sprintf("the peer %s is unreachable (%s)", addr, lc)
	case strings.Contains(lc, "timed out"), strings.Contains(lc, "in progress"):
		return fmt.Sprintf("the peer %s did not answer within %s", addr, iperf3.ConnectTimeout)
	}
	return fmt.Sprintf("cannot connect to the iperf3 server on %s: %s", addr, cause)
}

// watchStep samples the interfaces for d (0: until Ctrl-C), running
// before first (nil for nothing) and, with --headroom, the calibrated load
// on every CPU.
func (r *runner) watchStep(name, when string, d time.Duration, before func()) session.Step {
	est := d
	if est == 0 {
		est = time.Hour
	}
	title := "Traffic through " + strings.Join(r.ifaces, ", ")
	if when != "" {
		title += " " + when
	}
	return session.Step{Name: name, Title: title, Estimate: est,
		Run: func(ctx context.Context, p *result.Phase) error {
			if before != nil {
				before()
			}
			figs := result.NetFigures{}
			var load *headroom.Load
			if r.o.Headroom {
				load = headroom.Start(ctx, r.facts.CPUs, nil)
			}
			w, _ := r.measure(&figs, func() error {
				r.watchLive(ctx, d)
				return nil
			})
			if load != nil {
				figs.Headroom = r.headroomFigures(load.Stop())
			}
			figs.Interfaces = w.Rates
			return p.SetFigures(figs)
		}}
}

// HeadroomCalibration is how long --headroom's load runs on each CPU
// before the watch, for its calibrated rate.
const HeadroomCalibration = 3 * time.Second

// calibrationTrafficPPS is the packet rate (all watched interfaces, both
// ways) above which the calibration says traffic passed during it.
const calibrationTrafficPPS = 1000

// calibrateStep runs the load on every CPU before the watch: its rate is
// the calibration the watch's shares are taken of.
func (r *runner) calibrateStep() session.Step {
	return session.Step{Name: result.PhaseNetHeadroomIdle, Title: "The CPU load's rate on each CPU before the watch (--headroom)",
		Estimate: HeadroomCalibration,
		Run: func(ctx context.Context, p *result.Phase) error {
			figs := result.NetFigures{}
			w, _ := r.measure(&figs, func() error {
				r.calib = headroom.Measure(ctx, r.facts.CPUs, HeadroomCalibration)
				return nil
			})
			figs.Interfaces = w.Rates
			pps := 0.0
			for _, rate := range w.Rates {
				pps += rate.RxPPS + rate.TxPPS
			}
			if pps > calibrationTrafficPPS {
				figs.Notes = append(figs.Notes, fmt.Sprintf("traffic passed during the calibration (%.0f packets/s): the calibrated rates are "+
					"below those of a quiet machine, and the shares of them above the capacity really left", pps))
			}
			cal := r.calib
			r.calib = nil
			figs.Headroom = r.headroomFigures(cal)
			r.calib = cal
			return p.SetFigures(figs)
		}}
}

// headroomFigures are the load's rates with, after the calibration, the
// share of it each CPU reached.
func (r *runner) headroomFigures(rates []headroom.Rate) []result.NetHeadroom {
	var out []result.NetHeadroom
	for _, rate := range rates {
		h := result.NetHeadroom{CPU: rate.CPU}
		if rate.Err != nil {
			h.Note = "not loaded: " + rate.Err.Error()
			out = append(out, h)
			continue
		}
		v := rate.UnitsPerS
		h.UnitsPerS = &v
		for _, c := range r.calib {
			if c.CPU != rate.CPU {
				continue
			}
			if share, ok := headroom.Share(rate, c); ok {
				idle := c.UnitsPerS
				h.IdleUnitsPerS, h.Share = &idle, &share
			} else {
				h.Note = "no calibration of this CPU"
			}
		}
		out = append(out, h)
	}
	return out
}

// watchLive waits until the duration ends or ctx is done, showing the
// figures of every interval as it goes (see liveView). The snapshots it
// takes are its own: the step's figures span the whole watch.
func (r *runner) watchLive(ctx context.Context, d time.Duration) {
	view := r.liveView()
	var end <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		end = t.C
	}
	tick := time.NewTicker(r.o.Interval)
	defer tick.Stop()
	defer view.clear()
	start := r.sampler.Take()
	prev := start
	for {
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-tick.C:
			cur := r.sampler.Take()
			view.show(cur.Time.Sub(start.Time), netstat.Between(prev, cur, r.sampler.IRQs))
			prev = cur
		}
	}
}

// liveView returns where the live figures go: a table redrawn on a
// terminal's standard output, plain lines on a piped one, and with --json
// plain lines on standard error (standard output carries only the JSON).
func (r *runner) liveView() *liveView {
	io := r.io
	if r.o.JSON {
		return &liveView{w: io.ErrOut, prefix: "boardbench net: "}
	}
	return &liveView{w: io.Out, tty: io.IsStdoutTTY()}
}
