// Package clockcheck measures the real clock of one CPU per cluster and puts
// it next to the clock the kernel (cpufreq) and the Raspberry Pi firmware
// report, and walks every cpufreq operating point of each cluster, pinning
// and measuring it. `boardbench clock` and `boardbench run` both use it; the
// caller owns any change to the tunables (a tune.Guard pins the OPPs).
package clockcheck

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/note"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/result"
	"boardbench/internal/schema"
	"boardbench/internal/tune"
)

// MeasureFunc measures the clock of one CPU: probeclock.Measure in
// production, a fake in tests.
type MeasureFunc func(ctx context.Context, cpu int, opt probeclock.Options) (probeclock.Result, error)

// Pinner fixes a cpufreq policy's clock; *tune.Guard fits.
type Pinner interface {
	Pin(policy int, khz int64) error
}

// Checker holds what a clock check needs.
type Checker struct {
	Host *host.Host
	// CPU is the CPU inventory (clusters, policies).
	CPU cpu.Info
	// Probe measures one CPU.
	Probe   MeasureFunc
	Options probeclock.Options
	// CPUs are explicit CPUs to measure instead of one per cluster; nil
	// means one per cluster.
	CPUs []int
	// Allowed are the CPUs this process may run on.
	Allowed []int
	// Progress, when set, receives a short status line per step.
	Progress func(msg string)
}

// target is one measurement to make: a cluster and the CPUs to try, in order.
type target struct {
	cluster    int
	cpus       []int
	core       string
	policy     *int
	candidates []int
}

// ErrNothingMeasured is returned when no CPU could be measured.
const ErrNothingMeasured = sentinel("no CPU could be measured")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// Clusters measures one CPU per cluster (or the explicit CPUs). It returns
// the report made so far with ctx's error when interrupted, and
// ErrNothingMeasured when no CPU could be measured; the report is never nil.
func (c *Checker) Clusters(ctx context.Context) (*Report, error) {
	rep := &Report{SchemaVersion: schema.Version, Clusters: []ClusterClock{}, Notes: note.List{}}
	targets := c.targets(rep)
	for i, t := range targets {
		c.progressf("measuring cluster %d of %d", i+1, len(targets))
		rep.Clusters = append(rep.Clusters, c.measureTarget(ctx, t, rep))
		if err := ctx.Err(); err != nil {
			return rep, err
		}
	}
	for _, cc := range rep.Clusters {
		if cc.MeasuredMHz != nil {
			return rep, nil
		}
	}
	return rep, ErrNothingMeasured
}

// CanWalk says why an OPP walk is impossible (no policy lists its clocks),
// nil when it can run. It does not check for root.
func (c *Checker) CanWalk() error {
	rep := &Report{}
	for _, t := range c.targets(rep) {
		if p, ok := c.policyOf(t); ok {
			if khz, err := tune.AvailableKHz(c.Host, p); err == nil && len(khz) > 0 {
				return nil
			}
		}
	}
	return errors.New("no cpufreq policy lists its clocks (scaling_available_frequencies), so there is nothing to walk")
}

func (c *Checker) progressf(format string, args ...any) {
	if c.Progress != nil {
		c.Progress(fmt.Sprintf(format, args...))
	}
}

// targets decides which CPUs to measure: the explicit list, or one CPU per
// cluster of the inventory (the first one this process may run on).
func (c *Checker) targets(rep *Report) []target {
	clusterOf := map[int]int{}
	for i, cl := range c.CPU.Clusters {
		for _, id := range cl.CPUs {
			clusterOf[id] = i
		}
	}
	mk := func(idx int, cpus []int) target {
		t := target{cluster: idx, cpus: cpus}
		if idx >= 0 && idx < len(c.CPU.Clusters) {
			cl := c.CPU.Clusters[idx]
			t.core, t.policy = cl.Core, cl.Policy
		}
		return t
	}
	if c.CPUs != nil {
		var out []target
		for _, id := range c.CPUs {
			idx, ok := clusterOf[id]
			var t target
			if ok {
				t = mk(idx, c.CPU.Clusters[idx].CPUs)
			} else {
				t = mk(-1, []int{id})
			}
			t.candidates = []int{id}
			out = append(out, t)
		}
		return out
	}
	if len(c.CPU.Clusters) == 0 {
		rep.Notes.Add("CPU clusters", "not identified; measured the first CPU this process may use only")
		if len(c.Allowed) == 0 {
			return nil
		}
		t := mk(-1, append([]int(nil), c.Allowed...))
		t.candidates = c.Allowed
		return []target{t}
	}
	allowed := map[int]bool{}
	for _, id := range c.Allowed {
		allowed[id] = true
	}
	var out []target
	for i, cl := range c.CPU.Clusters {
		t := mk(i, cl.CPUs)
		for _, id := range cl.CPUs {
			if allowed[id] {
				t.candidates = append(t.candidates, id)
			}
		}
		out = append(out, t)
	}
	return out
}

// policyOf returns the cpufreq policy of a target.
func (c *Checker) policyOf(t target) (int, bool) {
	if t.policy != nil {
		return *t.policy, true
	}
	for _, id := range append(append([]int(nil), t.candidates...), t.cpus...) {
		if p, ok := tune.PolicyOfCPU(c.Host, id); ok {
			return p, true
		}
	}
	return 0, false
}

// measureTarget measures the first candidate CPU that can be pinned and
// adds what the kernel and firmware report.
func (c *Checker) measureTarget(ctx context.Context, t target, rep *Report) ClusterClock {
	cc := ClusterClock{
		ClockMeasurement: result.ClockMeasurement{CPUs: t.cpus, Core: t.core, Policy: t.policy, Samples: []float64{}},
		Method:           probeclock.Method, Certain: probeclock.Certain,
	}
	if t.cluster >= 0 {
		idx := t.cluster
		cc.Cluster = &idx
	}
	if cc.CPUs == nil {
		cc.CPUs = []int{}
	}
	if len(t.candidates) == 0 {
		cc.Error = "no CPU of this cluster is available to this process"
		rep.Notes.Add(clusterName(t), cc.Error)
		return cc
	}
	var lastErr error
	for _, id := range t.candidates {
		res, err := c.Probe(ctx, id, c.Options)
		if err != nil {
			if ctx.Err() != nil {
				cc.Error = "interrupted"
				return cc
			}
			lastErr = err
			if len(t.candidates) > 1 {
				rep.Notes.Add(fmt.Sprintf("cpu%d", id), "cannot measure, tried the next CPU of the cluster: "+err.Error())
			}
			continue
		}
		id := id
		cc.CPU = &id
		cc.Certain = res.Certain
		cc.Method = res.Method
		cc.MeasuredMHz = ptr(Round(res.MHz, 1))
		for _, v := range res.Summary.Samples {
			cc.Samples = append(cc.Samples, Round(v, 1))
		}
		cc.DisturbedSamples = disturbed(res, fmt.Sprintf("cpu%d", id), rep)
		cc.SpreadPct = ptr(Round(res.SpreadPct(), 2))
		cc.SampleMs = ptr(Round(float64(res.MeanSampleDuration().Microseconds())/1000, 2))
		c.addReported(&cc, id, rep)
		c.addFirmware(ctx, &cc, rep)
		cc.compare()
		return cc
	}
	if len(t.candidates) > 1 {
		cc.Error = "no CPU of this cluster could be measured (offline, or not allowed for this process)"
	} else {
		cc.Error = "cannot measure: " + lastErr.Error()
	}
	return cc
}

// disturbed returns the samples another task disturbed, rounded, and notes
// when no sample was clean (the clock then reads low).
func disturbed(res probeclock.Result, item string, rep *Report) []float64 {
	out := []float64{}
	if res.AllDisturbed {
		rep.Notes.Add(item, "every sample was disturbed by other tasks: the measured clock reads low")
		for _, v := range res.Summary.Samples {
			out = append(out, Round(v, 1))
		}
		return out
	}
	for _, v := range res.Disturbed {
		out = append(out, Round(v, 1))
	}
	return out
}

// addReported reads the kernel's view of the measured CPU's clock.
func (c *Checker) addReported(cc *ClusterClock, id int, rep *Report) {
	dir := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq", id)
	if !c.Host.Exists(dir) {
		rep.Notes.Add(fmt.Sprintf("cpu%d cpufreq clock", id), note.NotExposed)
		return
	}
	for _, f := range []struct {
		name string
		dst  **float64
	}{{"scaling_cur_freq", &cc.ScalingCurMHz}, {"cpuinfo_cur_freq", &cc.CPUInfoCurMHz}} {
		v, reason := c.readMHz(dir + "/" + f.name)
		if reason != "" {
			rep.Notes.Add(fmt.Sprintf("cpu%d %s", id, f.name), reason)
			continue
		}
		*f.dst = v
	}
	switch {
	case cc.ScalingCurMHz != nil:
		cc.ReportedMHz, cc.ReportedSource = cc.ScalingCurMHz, "scaling_cur_freq"
	case cc.CPUInfoCurMHz != nil:
		cc.ReportedMHz, cc.ReportedSource = cc.CPUInfoCurMHz, "cpuinfo_cur_freq"
	}
}

// readMHz reads a cpufreq file in kHz; reason says why it could not.
func (c *Checker) readMHz(p string) (*float64, string) {
	v, err := c.Host.ReadInt(p)
	switch {
	case errors.Is(err, fs.ErrPermission):
		return nil, note.NeedsRoot
	case errors.Is(err, fs.ErrNotExist):
		return nil, note.NotExposed
	case err != nil && strings.Contains(err.Error(), "not an integer"):
		return nil, note.Malformed
	case err != nil:
		return nil, note.Unreadable
	case v <= 0:
		return nil, note.Malformed
	}
	return ptr(float64(v) / 1000), ""
}

// addFirmware asks the Raspberry Pi firmware for the ARM clock, which is
// the clock of all cores: it is compared only on single-cluster machines.
func (c *Checker) addFirmware(ctx context.Context, cc *ClusterClock, rep *Report) {
	if !c.Host.HasCommand("vcgencmd") {
		return
	}
	if len(c.CPU.Clusters) > 1 {
		if cc.Cluster != nil && *cc.Cluster == 0 {
			rep.Notes.Add("firmware ARM clock", "not compared: the firmware reports one clock, this machine has several clusters")
		}
		return
	}
	out, err := c.Host.Run(ctx, "vcgencmd", "measure_clock", "arm")
	if err != nil {
		rep.Notes.Add("firmware ARM clock", note.Unreadable+": "+err.Error())
		return
	}
	mhz, ok := ParseFirmwareClock(string(out))
	if !ok {
		rep.Notes.Add("firmware ARM clock", note.Malformed)
		return
	}
	cc.FirmwareMHz = &mhz
}

// ParseFirmwareClock reads "frequency(48)=1500398464" (Hz) as MHz.
func ParseFirmwareClock(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "frequency(") {
		return 0, false
	}
	_, v, ok := strings.Cut(s, "=")
	if !ok {
		return 0, false
	}
	hz, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || hz <= 0 || hz > 1e12 {
		return 0, false
	}
	return hz / 1e6, true
}

// WalkOPPs pins every clock of every measured cluster's policy through p,
// highest first, and measures it, filling the clusters' OPPs in rep. It
// stops with ctx's error when ctx is done, and with tune.ErrRestored when
// the pinner has restored the tunables. It does not restore anything
// itself: the caller owns p and undoes the pinning.
func (c *Checker) WalkOPPs(ctx context.Context, p Pinner, rep *Report) error {
	type step struct {
		cluster int
		policy  int
		khz     []int64
	}
	var steps []step
	total := 0
	done := map[int]bool{}
	for i, cc := range rep.Clusters {
		t := target{cluster: -1, cpus: cc.CPUs, policy: cc.Policy}
		if cc.Cluster != nil {
			t.cluster = *cc.Cluster
		}
		if cc.CPU == nil {
			continue
		}
		t.candidates = []int{*cc.CPU}
		pol, ok := c.policyOf(t)
		if !ok {
			rep.Notes.Add(clusterName(t)+" OPPs", "no cpufreq policy")
			continue
		}
		if done[pol] {
			continue
		}
		done[pol] = true
		khz, err := tune.AvailableKHz(c.Host, pol)
		if err != nil || len(khz) == 0 {
			rep.Notes.Add(fmt.Sprintf("policy%d OPPs", pol), note.NotExposed)
			continue
		}
		steps = append(steps, step{cluster: i, policy: pol, khz: khz})
		total += len(khz)
	}
	n := 0
	for _, s := range steps {
		cc := &rep.Clusters[s.cluster]
		cc.OPPs = []OPPClock{}
		for _, khz := range s.khz {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			n++
			c.progressf("OPP %d of %d: policy%d at %d MHz", n, total, s.policy, khz/1000)
			opp := OPPClock{OPPMeasurement: result.OPPMeasurement{RequestedMHz: float64(khz) / 1000}}
			if err := p.Pin(s.policy, khz); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if errors.Is(err, tune.ErrRestored) {
					return err
				}
				opp.Error = "cannot pin: " + err.Error()
				cc.OPPs = append(cc.OPPs, opp)
				continue
			}
			res, err := c.Probe(ctx, *cc.CPU, c.Options)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				opp.Error = "cannot measure: " + err.Error()
				cc.OPPs = append(cc.OPPs, opp)
				continue
			}
			opp.MeasuredMHz = ptr(Round(res.MHz, 1))
			opp.SpreadPct = ptr(Round(res.SpreadPct(), 2))
			opp.DisturbedSamples = disturbed(res, fmt.Sprintf("cpu%d at %d MHz", *cc.CPU, khz/1000), rep)
			opp.ReportedMHz, _ = c.readMHz(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", *cc.CPU))
			opp.compare()
			cc.OPPs = append(cc.OPPs, opp)
		}
	}
	return nil
}

func clusterName(t target) string {
	if t.cluster < 0 {
		return "cpu" + cpu.FormatCPUList(t.cpus)
	}
	return fmt.Sprintf("cluster %d (cpu%s)", t.cluster, cpu.FormatCPUList(t.cpus))
}
