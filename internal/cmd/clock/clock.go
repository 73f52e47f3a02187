// Package clock implements `boardbench clock`: the real clockspeed of one
// CPU per cluster, measured with a kernel of known cycle count, next to the
// clock the kernel and firmware report; with --opps, for every cpufreq
// operating point, with every changed tunable restored on exit.
package clock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/note"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/schema"
	"boardbench/internal/stats"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// TolerancePct is how far a measured clock may be from a reported one
// before the difference is flagged.
const TolerancePct = 2.0

// maxSamples bounds --samples.
const maxSamples = 50

// NewCmd returns the clock command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root, cpuList string
	var asJSON, opps bool
	var samples int
	cmd := &cobra.Command{
		Use:   "clock",
		Short: "Measure the real clockspeed of each CPU cluster (and of every cpufreq OPP)",
		Long: `Measure the real clockspeed of one CPU per cluster with a chain of dependent
integer adds whose cycle count is known, and compare it with the clock the
kernel (cpufreq) and the firmware (Raspberry Pi) report. Deviations beyond
±2% are flagged.

With --opps every clock each cpufreq policy offers is pinned in turn, highest
first, and measured. This needs root; the previous governors and limits are
restored when the walk ends, fails, or is stopped with Ctrl-C or SIGTERM.`,
		Example: `  boardbench clock
  boardbench clock --json
  boardbench clock --cpu 0,4 --samples 7
  sudo boardbench clock --opps`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if samples < 1 || samples > maxSamples {
				return cmdutil.Usagef("--samples %d: must be between 1 and %d", samples, maxSamples)
			}
			var cpus []int
			if cmd.Flags().Changed("cpu") {
				var err error
				if cpus, err = parseCPUList(cpuList); err != nil {
					return cmdutil.Usagef("--cpu %q: %v", cpuList, err)
				}
			}
			h, err := f.NewHost(root)
			if err != nil {
				return err
			}
			if !h.Live() {
				return fmt.Errorf("measuring clocks needs the live machine; %s is a recorded one (use --root / or leave it out)", h.Root())
			}
			allowed, err := host.AllowedCPUs()
			if err != nil {
				return fmt.Errorf("reading the CPUs this process may use: %v", err)
			}
			r := runner{
				h:       h,
				inv:     cpu.Collect(h),
				measure: probeclock.Measure,
				opt:     probeclock.Options{Samples: samples},
				cpus:    cpus,
				allowed: allowed,
				opps:    opps,
				isRoot:  h.IsRoot(),
			}
			if f.IO.IsStderrTTY() {
				r.progress = f.IO.ErrOut
			}
			rep, runErr := r.run(cmd.Context())
			if rep == nil {
				return runErr
			}
			if asJSON {
				if err := f.WriteJSON(rep); err != nil {
					return err
				}
			} else {
				renderText(f.IO.Out, rep, f.IO.ColorEnabled())
			}
			return runErr
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().BoolVar(&opps, "opps", false, "pin and measure every cpufreq clock of every cluster (needs root; restores all settings)")
	cmd.Flags().IntVar(&samples, "samples", probeclock.DefaultSamples, "timed samples per measurement (about 15 ms each)")
	cmd.Flags().StringVar(&cpuList, "cpu", "", "measure these CPUs instead of one per cluster, e.g. `0,4-5`")
	return cmd
}

// measureFunc measures the clock of one CPU; probeclock.Measure in
// production, a fake in tests.
type measureFunc func(ctx context.Context, cpu int, opt probeclock.Options) (probeclock.Result, error)

// runner holds everything one run of the command needs.
type runner struct {
	h       *host.Host
	inv     cpu.Info
	measure measureFunc
	opt     probeclock.Options
	// cpus are the CPUs asked for with --cpu; nil means one per cluster.
	cpus []int
	// allowed are the CPUs this process may run on.
	allowed []int
	opps    bool
	isRoot  bool
	// progress receives progress lines when non-nil (stderr on a TTY).
	progress io.Writer
}

// target is one measurement to make: a cluster and the CPUs to try, in order.
type target struct {
	cluster    int
	cpus       []int
	core       string
	policy     *int
	candidates []int
}

// run measures every target and, with --opps, walks the OPPs. It returns
// the report made so far together with any error; the report is nil only
// when nothing could start.
func (r *runner) run(ctx context.Context) (*Report, error) {
	rep := &Report{SchemaVersion: schema.Version, Clusters: []ClusterClock{}, Notes: note.List{}}
	targets := r.targets(rep)
	if r.opps {
		if err := r.preflightOPPs(targets); err != nil {
			return nil, err
		}
	}
	for i, t := range targets {
		r.progressf("measuring cluster %d of %d", i+1, len(targets))
		rep.Clusters = append(rep.Clusters, r.measureTarget(ctx, t, rep))
		if err := ctx.Err(); err != nil {
			r.progressDone()
			return rep, interrupted(ctx, nil)
		}
	}
	r.progressDone()
	measured := 0
	for _, c := range rep.Clusters {
		if c.MeasuredMHz != nil {
			measured++
		}
	}
	if measured == 0 {
		return rep, errors.New("no CPU could be measured")
	}
	if !r.opps {
		return rep, nil
	}
	return rep, r.walkOPPs(ctx, rep)
}

// targets decides which CPUs to measure: the --cpu list, or one CPU per
// cluster of the inventory (the first one this process may run on).
func (r *runner) targets(rep *Report) []target {
	clusterOf := map[int]int{}
	for i, c := range r.inv.Clusters {
		for _, id := range c.CPUs {
			clusterOf[id] = i
		}
	}
	mk := func(idx int, cpus []int) target {
		t := target{cluster: idx, cpus: cpus}
		if idx >= 0 && idx < len(r.inv.Clusters) {
			c := r.inv.Clusters[idx]
			t.core, t.policy = c.Core, c.Policy
		}
		return t
	}
	if r.cpus != nil {
		var out []target
		for _, id := range r.cpus {
			idx, ok := clusterOf[id]
			var t target
			if ok {
				t = mk(idx, r.inv.Clusters[idx].CPUs)
			} else {
				t = mk(-1, []int{id})
			}
			t.candidates = []int{id}
			out = append(out, t)
		}
		return out
	}
	if len(r.inv.Clusters) == 0 {
		rep.Notes.Add("CPU clusters", "not identified; measured the first CPU this process may use only")
		if len(r.allowed) == 0 {
			return nil
		}
		t := mk(-1, append([]int(nil), r.allowed...))
		t.candidates = r.allowed
		return []target{t}
	}
	allowed := map[int]bool{}
	for _, c := range r.allowed {
		allowed[c] = true
	}
	var out []target
	for i, c := range r.inv.Clusters {
		t := mk(i, c.CPUs)
		for _, id := range c.CPUs {
			if allowed[id] {
				t.candidates = append(t.candidates, id)
			}
		}
		out = append(out, t)
	}
	return out
}

// preflightOPPs refuses --opps early, with one clear reason, when the walk
// cannot work at all.
func (r *runner) preflightOPPs(targets []target) error {
	if !r.isRoot {
		return errors.New("--opps needs root: it pins each cpufreq clock in turn (run it with sudo, or leave --opps out)")
	}
	for _, t := range targets {
		if p, ok := r.policyOf(t); ok {
			if khz, err := tune.AvailableKHz(r.h, p); err == nil && len(khz) > 0 {
				return nil
			}
		}
	}
	return errors.New("--opps: no cpufreq policy lists its clocks (scaling_available_frequencies), so there is nothing to walk")
}

// policyOf returns the cpufreq policy of a target.
func (r *runner) policyOf(t target) (int, bool) {
	if t.policy != nil {
		return *t.policy, true
	}
	for _, c := range append(append([]int(nil), t.candidates...), t.cpus...) {
		if p, ok := tune.PolicyOfCPU(r.h, c); ok {
			return p, true
		}
	}
	return 0, false
}

// measureTarget measures the first candidate CPU that can be pinned and
// adds what the kernel and firmware report.
func (r *runner) measureTarget(ctx context.Context, t target, rep *Report) ClusterClock {
	cc := ClusterClock{
		CPUs: t.cpus, Core: t.core, Policy: t.policy,
		Method: probeclock.Method, Certain: probeclock.Certain, Samples: []float64{},
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
		res, err := r.measure(ctx, id, r.opt)
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
		cc.MeasuredMHz = ptr(round(res.MHz, 1))
		for _, v := range res.Summary.Samples {
			cc.Samples = append(cc.Samples, round(v, 1))
		}
		cc.DisturbedSamples = disturbed(res, fmt.Sprintf("cpu%d", id), rep)
		cc.SpreadPct = ptr(round(res.SpreadPct(), 2))
		cc.SampleMs = ptr(round(float64(res.MeanSampleDuration().Microseconds())/1000, 2))
		r.addReported(&cc, id, rep)
		r.addFirmware(ctx, &cc, rep)
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
			out = append(out, round(v, 1))
		}
		return out
	}
	for _, v := range res.Disturbed {
		out = append(out, round(v, 1))
	}
	return out
}

// addReported reads the kernel's view of the measured CPU's clock.
func (r *runner) addReported(cc *ClusterClock, id int, rep *Report) {
	dir := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq", id)
	if !r.h.Exists(dir) {
		rep.Notes.Add(fmt.Sprintf("cpu%d cpufreq clock", id), note.NotExposed)
		return
	}
	for _, f := range []struct {
		name string
		dst  **float64
	}{{"scaling_cur_freq", &cc.ScalingCurMHz}, {"cpuinfo_cur_freq", &cc.CPUInfoCurMHz}} {
		v, reason := r.readMHz(dir + "/" + f.name)
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
func (r *runner) readMHz(p string) (*float64, string) {
	v, err := r.h.ReadInt(p)
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
func (r *runner) addFirmware(ctx context.Context, cc *ClusterClock, rep *Report) {
	if !r.h.HasCommand("vcgencmd") {
		return
	}
	if len(r.inv.Clusters) > 1 {
		if cc.Cluster != nil && *cc.Cluster == 0 {
			rep.Notes.Add("firmware ARM clock", "not compared: the firmware reports one clock, this machine has several clusters")
		}
		return
	}
	out, err := r.h.Run(ctx, "vcgencmd", "measure_clock", "arm")
	if err != nil {
		rep.Notes.Add("firmware ARM clock", note.Unreadable+": "+err.Error())
		return
	}
	mhz, ok := parseFirmwareClock(string(out))
	if !ok {
		rep.Notes.Add("firmware ARM clock", note.Malformed)
		return
	}
	cc.FirmwareMHz = &mhz
}

// parseFirmwareClock reads "frequency(48)=1500398464" (Hz) as MHz.
func parseFirmwareClock(s string) (float64, bool) {
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

// walkOPPs pins every clock of every measured cluster's policy, highest
// first, measures it, and restores all tunables at the end or on a signal.
func (r *runner) walkOPPs(ctx context.Context, rep *Report) error {
	g, gctx, err := tune.NewGuard(ctx, r.h)
	if err != nil {
		return fmt.Errorf("--opps: saving the cpufreq settings: %v", err)
	}
	walkErr := r.walk(gctx, g, rep)
	r.progressDone()
	restoreErr := g.Close()
	if sig := g.Signal(); sig != nil || ctx.Err() != nil {
		rep.Notes.Add("OPP walk", "interrupted; cpufreq settings restored")
		return errors.Join(interrupted(ctx, sig), restoreErr)
	}
	if restoreErr != nil {
		return fmt.Errorf("restoring cpufreq settings: %w", restoreErr)
	}
	return walkErr
}

func (r *runner) walk(ctx context.Context, g *tune.Guard, rep *Report) error {
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
		p, ok := r.policyOf(t)
		if !ok {
			rep.Notes.Add(clusterName(t)+" OPPs", "no cpufreq policy")
			continue
		}
		if done[p] {
			continue
		}
		done[p] = true
		khz, err := tune.AvailableKHz(r.h, p)
		if err != nil || len(khz) == 0 {
			rep.Notes.Add(fmt.Sprintf("policy%d OPPs", p), note.NotExposed)
			continue
		}
		steps = append(steps, step{cluster: i, policy: p, khz: khz})
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
			r.progressf("OPP %d of %d: policy%d at %d MHz", n, total, s.policy, khz/1000)
			opp := OPPClock{RequestedMHz: float64(khz) / 1000}
			if err := g.Pin(s.policy, khz); err != nil {
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
			res, err := r.measure(ctx, *cc.CPU, r.opt)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				opp.Error = "cannot measure: " + err.Error()
				cc.OPPs = append(cc.OPPs, opp)
				continue
			}
			opp.MeasuredMHz = ptr(round(res.MHz, 1))
			opp.SpreadPct = ptr(round(res.SpreadPct(), 2))
			opp.DisturbedSamples = disturbed(res, fmt.Sprintf("cpu%d at %d MHz", *cc.CPU, khz/1000), rep)
			opp.ReportedMHz, _ = r.readMHz(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", *cc.CPU))
			opp.compare()
			cc.OPPs = append(cc.OPPs, opp)
		}
	}
	return nil
}

// interrupted builds the error a signal ends the command with.
func interrupted(ctx context.Context, sig os.Signal) error {
	name := "a signal"
	switch sig {
	case os.Interrupt:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	default:
		if cause := context.Cause(ctx); cause != nil && strings.Contains(cause.Error(), "terminated") {
			name = "SIGTERM"
		} else if cause != nil && strings.Contains(cause.Error(), "interrupt") {
			name = "SIGINT"
		}
	}
	return &cmdutil.InterruptedError{Signal: name}
}

func (r *runner) progressf(format string, args ...any) {
	if r.progress != nil {
		fmt.Fprintf(r.progress, "\r\x1b[K"+format+"…", args...)
	}
}

func (r *runner) progressDone() {
	if r.progress != nil {
		fmt.Fprint(r.progress, "\r\x1b[K")
	}
}

// parseCPUList parses a CPU list such as "0,2-3" into sorted unique ids.
func parseCPUList(s string) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, errors.New("empty entry")
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("%q is not a CPU number", lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("%q is not a CPU range", part)
			}
		}
		if b-a > 4096 || b > 1<<16 {
			return nil, fmt.Errorf("%q is too large", part)
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sort.Ints(out)
	return out, nil
}

// formatCPUList writes ids compactly: [0 1 2 3 6] → "0-3,6".
func formatCPUList(ids []int) string {
	if len(ids) == 0 {
		return "-"
	}
	s := append([]int(nil), ids...)
	sort.Ints(s)
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", s[i], s[j]))
		} else {
			parts = append(parts, strconv.Itoa(s[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

func clusterName(t target) string {
	if t.cluster < 0 {
		return "cpu" + formatCPUList(t.cpus)
	}
	return fmt.Sprintf("cluster %d (cpu%s)", t.cluster, formatCPUList(t.cpus))
}

func ptr(v float64) *float64 { return &v }

func round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	if v < 0 {
		return -float64(int64(-v*p+0.5)) / p
	}
	return float64(int64(v*p+0.5)) / p
}

// deviation returns measured vs reference in percent, rounded, or nil.
func deviation(measured, reference *float64) *float64 {
	if measured == nil || reference == nil || *reference <= 0 {
		return nil
	}
	return ptr(round(stats.DeviationPct(*measured, *reference), 2))
}

func beyondTolerance(p *float64) bool { return p != nil && (*p > TolerancePct || *p < -TolerancePct) }
