package sbcimport

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"boardbench/internal/buildinfo"
	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/report/mdrow"
	"boardbench/internal/result"
	"boardbench/internal/schema"
	"boardbench/internal/textfmt"
)

// UnknownCPU is the CPU of a figure whose CPU the log does not name (in
// result.Value.CPU and result.MemFigures.CPU).
const UnknownCPU = -1

// ThrottlingFindingID is the finding an imported result carries when the
// log's validation says the CPU was throttled.
const ThrottlingFindingID = "throttling"

// ValidationFindingID is the finding of each other problem the log's
// validation reports.
const ValidationFindingID = "imported-validation-warning"

// Result turns the log into a boardbench result of kind "import"; file is
// the name of the file it was read from (kept in the figures, not in the
// ID). Its ID derives from the text (see ID).
func (l *Log) Result(file string) *result.Result {
	info := l.info()
	r := &result.Result{
		SchemaVersion: schema.Version,
		ID:            ID([]byte(l.Text)),
		Tool:          buildinfo.Get(),
		Command:       result.CommandImport,
		Status:        result.StatusComplete,
		StartedAt:     l.Date,
		Options: map[string]any{
			"file": file, "format": result.ImportedFormat, "format_version": l.Version,
		},
		Info:     info,
		Tools:    l.tools(),
		Tuning:   result.Tuning{Note: "not recorded: imported from a " + result.ImportedFormat},
		Findings: l.findings(),
	}
	if !l.TestedAt.IsZero() {
		t := l.TestedAt
		r.FinishedAt = &t
	}
	r.Phases = l.phases(info, file)
	r.Summary = l.summary(r.Phases)
	l.judge(r)
	return r
}

// info is the machine as the log describes it.
func (l *Log) info() *inventory.Info {
	in := &inventory.Info{SchemaVersion: schema.Version, CollectedAt: l.Date, Redacted: false}
	in.Board.Model, in.Board.ModelSource = l.boardModel()
	in.Board.Compatible = l.Identity.Compatible
	if in.Board.Compatible == nil {
		in.Board.Compatible = []string{}
	}
	in.Board.CPUInfoHardware = l.Identity.CPUInfoHardware
	in.SoC = l.socOf()
	o := &in.OS
	o.Kernel.Release, o.Kernel.Machine = l.KernelRelease, l.Machine
	o.Userland.Arch = l.Userland
	o.Distro.PrettyName = l.Distro["Description"]
	o.Distro.ID = strings.ToLower(l.Distro["Distributor ID"])
	o.Distro.VersionID = l.Distro["Release"]
	if minor := l.minor(); minor >= 65 || l.Version == "" || !strings.HasPrefix(l.Version, "0.9") {
		// the script names the Ubuntu codename in its row since 0.9.65
		o.Distro.Codename = l.Distro["Codename"]
	}
	in.CPU = l.cpuInfo()
	in.CPU.Hardware = l.Identity.CPUInfoHardware
	return in
}

// minor is the minor number of a 0.9.x version, -1 otherwise.
func (l *Log) minor() int {
	var a, b, c int
	if n, _ := fmt.Sscanf(l.Version, "%d.%d.%d", &a, &b, &c); n == 3 && a == 0 && b == 9 {
		return c
	}
	if n, _ := fmt.Sscanf(l.Version, "%d.%d", &a, &b); n == 2 && a == 0 && b == 9 {
		return 0
	}
	return -1
}

// cpuInfo builds the CPUs and clusters of the topology table: a cluster is
// the CPUs of one cluster id with the same maximum clock and core type.
// Where the top OPP the log measured is up to 1 MHz below the table's
// maximum, the OPP is the cluster's maximum (the table rounds kHz to MHz);
// with one cluster, lscpu's exact maximum within 1 MHz of it is used.
func (l *Log) cpuInfo() cpu.Info {
	var ci cpu.Info
	topOPP := map[int]float64{}
	for _, c := range l.Clock {
		if !c.NoCpufreq && len(c.OPPs) > 0 {
			if _, ok := topOPP[c.CPU]; !ok {
				topOPP[c.CPU] = c.OPPs[0].OPPMHz
			}
		}
	}
	index := map[string]int{}
	for _, t := range l.Topology {
		core, _, _ := strings.Cut(t.Core, " / ")
		c := cpu.CPU{ID: t.CPU, Core: t.Core, CoreName: strings.TrimSpace(core), Policy: t.Policy, MinMHz: t.MinMHz, MaxMHz: t.MaxMHz}
		if t.Policy == nil || t.MaxMHz == nil {
			if c.CoreName == "" || c.CoreName == "-" {
				c.Core, c.CoreName, c.Cluster = "", "", -1
				ci.CPUs = append(ci.CPUs, c)
				continue
			}
			// no cpufreq: a cluster is the CPUs of one cluster id and core type
			key := fmt.Sprintf("%d - %s", t.Cluster, t.Core)
			k, ok := index[key]
			if !ok {
				k = len(ci.Clusters)
				index[key] = k
				ci.Clusters = append(ci.Clusters, cpu.Cluster{ID: k, Core: c.CoreName, CoreName: c.CoreName, Policies: []int{}})
			}
			ci.Clusters[k].CPUs = append(ci.Clusters[k].CPUs, t.CPU)
			c.Cluster = k
			ci.CPUs = append(ci.CPUs, c)
			continue
		}
		key := fmt.Sprintf("%d %g %s", t.Cluster, *t.MaxMHz, t.Core)
		k, ok := index[key]
		if !ok {
			k = len(ci.Clusters)
			index[key] = k
			pol, max := *t.Policy, *t.MaxMHz
			cl := cpu.Cluster{ID: k, Core: c.CoreName, CoreName: c.CoreName, Policy: &pol, Policies: []int{pol}, MinMHz: t.MinMHz, MaxMHz: &max}
			ci.Clusters = append(ci.Clusters, cl)
		}
		cl := &ci.Clusters[k]
		cl.CPUs = append(cl.CPUs, t.CPU)
		if !slices.Contains(cl.Policies, *t.Policy) {
			cl.Policies = append(cl.Policies, *t.Policy)
			cl.Policy = nil
		}
		c.Cluster = k
		ci.CPUs = append(ci.CPUs, c)
	}
	for k := range ci.Clusters {
		cl := &ci.Clusters[k]
		if opp, ok := topOPP[cl.CPUs[0]]; ok && cl.MaxMHz != nil && opp < *cl.MaxMHz && *cl.MaxMHz-opp <= 1 {
			*cl.MaxMHz = opp
		}
	}
	if len(ci.Clusters) == 1 && ci.Clusters[0].MaxMHz != nil && len(l.LscpuMaxMHz) > 0 {
		if m := l.LscpuMaxMHz[len(l.LscpuMaxMHz)-1]; m > 0 && math.Abs(m-*ci.Clusters[0].MaxMHz) < 1 {
			*ci.Clusters[0].MaxMHz = m
		}
	}
	for k := range ci.Clusters {
		cl := &ci.Clusters[k]
		if cl.Policy != nil {
			cl.Governor = l.Identity.Governors[*cl.Policy]
		}
	}
	if len(ci.Clusters) == 0 {
		if cls, source := l.clustersWithoutTopology(); len(cls) > 0 {
			ci.Clusters = cls
			ci.Notes.Add("clusters", "the log prints no CPU topology table; core types from "+source)
		}
	}
	if len(ci.CPUs) == 0 && l.CPUCount > 0 {
		for id := range l.CPUCount {
			c := cpu.CPU{ID: id, Cluster: -1}
			for k, cl := range ci.Clusters {
				if slices.Contains(cl.CPUs, id) {
					c.Cluster, c.Core, c.CoreName = k, cl.Core, cl.CoreName
				}
			}
			ci.CPUs = append(ci.CPUs, c)
		}
	}
	return ci
}

// clusterOf returns the index of the cluster holding id.
func clusterOf(in *inventory.Info, id int) *int {
	for k, cl := range in.CPU.Clusters {
		if slices.Contains(cl.CPUs, id) {
			return &k
		}
	}
	return nil
}

func (l *Log) tools() []result.ToolVersion {
	var out []result.ToolVersion
	for _, b := range l.SevenZip {
		if b.Version != "" {
			out = append(out, result.ToolVersion{Name: "7zip", Version: b.Version, VersionLine: firstLine(b.Raw)})
			break
		}
	}
	if v := l.OpenSSL.Version; v != "" {
		f := strings.Fields(v)
		out = append(out, result.ToolVersion{Name: "openssl", Version: strings.TrimSuffix(f[1], ","), VersionLine: v})
	}
	for _, m := range l.Memory {
		if m.Version != "" {
			out = append(out, result.ToolVersion{Name: "tinymembench", Version: strings.TrimPrefix(m.Version, "v"), VersionLine: firstLine(m.Raw)})
			break
		}
	}
	return out
}

func firstLine(s string) string { f, _, _ := strings.Cut(s, "\n"); return strings.TrimSpace(f) }

// findings are the problems the log's own validation reports.
func (l *Log) findings() []finding.Finding {
	out := []finding.Finding{}
	for _, v := range l.Validation {
		if !IsValidationWarning(v) {
			continue
		}
		id := ValidationFindingID
		if IsThrottlingLine(v) {
			id = ThrottlingFindingID
		}
		out = append(out, finding.Finding{
			ID: id, Severity: finding.Warning, Title: v,
			Evidence: []string{"reported by the imported log's validation section"},
		})
	}
	return out
}

// phases are the log's benchmarks as boardbench phases, then the
// imported-log phase with the original text. The benchmark phases carry no
// raw_output: their text is part of the original, kept once.
func (l *Log) phases(in *inventory.Info, file string) []result.Phase {
	var out []result.Phase
	if len(l.Clock) > 0 {
		out = append(out, clockPhase(result.PhaseClock, "Clockspeeds at each cpufreq OPP (from the log)", l.Clock, in))
	}
	for _, m := range l.Memory {
		p := result.Phase{Name: result.PhaseMemory, Title: "tinymembench" + where(m.CPU, m.Core) + " (from the log)", Status: result.PhaseOK}
		if m.CPU != nil {
			p.CPUs = []int{*m.CPU}
		}
		_ = p.SetFigures(m.Figures)
		out = append(out, p)
	}
	runCPUs := l.opensslCPUs()
	for k, o := range l.OpenSSL.Runs {
		o.CPUs = runCPUs[k]
		title := fmt.Sprintf("openssl speed, run %d", k+1)
		if o.Core != "" {
			title += " on " + o.Core
		}
		p := result.Phase{Name: result.PhaseOpenSSL, Title: title + " (from the log)", CPUs: o.CPUs, Status: result.PhaseOK}
		_ = p.SetFigures(o)
		out = append(out, p)
	}
	var multi []SevenZipBlock
	clusters := map[int][]SevenZipBlock{}
	var groups []int
	for _, b := range l.SevenZip {
		if b.Mode == "multi" {
			multi = append(multi, b)
			continue
		}
		if b.Mode == "cluster" {
			if _, ok := clusters[b.Group]; !ok {
				groups = append(groups, b.Group)
			}
			clusters[b.Group] = append(clusters[b.Group], b)
			continue
		}
		if b.Mode != "single" {
			continue
		}
		f := sevenZipFigures([]SevenZipBlock{b})
		p := result.Phase{Name: result.PhaseSevenZipSingle, Title: "7-Zip single-threaded" + where(b.CPU, b.Core) + " (from the log)", Status: result.PhaseOK}
		if b.CPU != nil {
			p.CPUs, f.CPUs, f.Core = []int{*b.CPU}, []int{*b.CPU}, b.Core
		}
		if f.TotMIPS == nil {
			p.Status, p.Reason = result.PhaseFailed, "the log shows no result of this run"
		}
		_ = p.SetFigures(f)
		out = append(out, p)
	}
	if len(multi) > 0 {
		out = append(out, sevenZipPhase(result.PhaseSevenZipMulti, "7-Zip multi-threaded", multi, l.MultiCPUs))
	}
	for _, g := range groups {
		bs := clusters[g]
		out = append(out, sevenZipPhase(result.PhaseSevenZipCluster, fmt.Sprintf("7-Zip on the cluster of cpu%s", cpu.FormatCPUList(bs[0].CPUs))+coreSuffix(bs[0].Core), bs, bs[0].CPUs))
	}
	if len(l.ClockAfterLoad) > 0 {
		out = append(out, clockPhase(result.PhaseClockAfterLoad, "Clockspeeds checked again under load (from the log)", l.ClockAfterLoad, in))
	}
	imp := result.Phase{Name: result.PhaseImportedLog, Title: "The imported " + result.ImportedFormat, Status: result.PhaseOK, RawOutput: l.Text}
	_ = imp.SetFigures(l.importedFigures(file))
	out = append(out, imp)
	// The log does not record when each benchmark ran or for how long.
	for i := range out {
		out[i].TimingNotRecorded = true
	}
	return out
}

func where(id *int, core string) string {
	switch {
	case id != nil && core != "":
		return fmt.Sprintf(" on cpu%d (%s)", *id, core)
	case id != nil:
		return fmt.Sprintf(" on cpu%d", *id)
	case core != "":
		return " on " + core
	}
	return ""
}

func clockPhase(name, title string, checks []ClusterCheck, in *inventory.Info) result.Phase {
	var f result.ClockFigures
	for _, c := range checks {
		id := c.CPU
		top := c.OPPs[0]
		m := top.MeasuredMHz
		cc := result.ClockCluster{
			ClockMeasurement: result.ClockMeasurement{
				Cluster: clusterOf(in, id), CPUs: c.CPUs, Core: c.Core, CPU: &id,
				MeasuredMHz: &m, Samples: top.Samples,
			},
			Method: "imported",
		}
		if !c.NoCpufreq {
			adv := top.OPPMHz
			cc.AdvertisedMaxMHz = &adv
			cc.DeviationPct = deviation(m, adv)
			for _, o := range c.OPPs {
				req, meas := o.OPPMHz, o.MeasuredMHz
				cc.OPPs = append(cc.OPPs, result.OPPClock{
					OPPMeasurement: result.OPPMeasurement{RequestedMHz: req, MeasuredMHz: &meas},
					DeviationPct:   deviation(meas, req),
				})
			}
		}
		f.Clusters = append(f.Clusters, cc)
	}
	p := result.Phase{Name: name, Title: title, Status: result.PhaseOK}
	_ = p.SetFigures(f)
	return p
}

func deviation(measured, want float64) *float64 {
	if want <= 0 {
		return nil
	}
	d := math.Round((measured-want)/want*100*100) / 100
	return &d
}

func sevenZipFigures(bs []SevenZipBlock) result.SevenZipFigures {
	f := result.SevenZipFigures{Version: bs[0].Version, Flavor: bs[0].Flavor, Threads: bs[0].Threads}
	for _, b := range bs {
		f.Runs = append(f.Runs, b.Run)
	}
	f.TotMIPS, f.DriftPct = result.MeanAndDrift(f.Runs)
	return f
}

func (l *Log) importedFigures(file string) result.ImportedFigures {
	f := result.ImportedFigures{
		File: file, Format: result.ImportedFormat, FormatVersion: l.Version, Device: l.Device,
		Hostname: l.Hostname, Distro: l.Distro, Topology: l.Topology, Ramlat: l.Ramlat,
		Monitoring: l.Monitoring, Throttling: l.Throttling, Validation: l.Validation,
		CPUMinerTotalKHs: l.CPUMiner, PrintedRow: l.PrintedRow, Notes: l.Notes,
	}
	for _, v := range l.Validation {
		if IsValidationWarning(v) {
			f.ValidationWarnings = append(f.ValidationWarnings, v)
		}
	}
	return f
}

// summary derives the headline figures as the log's row does: the clock
// of the first check per cluster, the 7-Zip runs, the best single-threaded
// run per CPU (the multi-threaded mean stands on all runs, as the row
// does), AES-256-CBC at 16 KiB per openssl run (the mean of both
// runs, fractions dropped, when the log ran it twice on one cluster),
// memcpy and memset per tinymembench run.
//
// The imported headline is the log's own row: 7-Zip runs that boardbench's
// rules find disturbed stay in it (the row counts them) and are named by
// the findings and the verdict instead (see judge).
func (l *Log) summary(phases []result.Phase) result.Summary {
	s := result.BuildSummary(phases)
	if len(s.ClockMHz) == 0 {
		// no clock measured before the benchmarks ("Measured on cpu1: 0
		// MHz"): the check repeated under load is the log's measurement
		seen := map[int]bool{}
		for _, c := range l.ClockAfterLoad {
			if m := c.OPPs[0].MeasuredMHz; m > 0 && !seen[c.CPU] {
				seen[c.CPU] = true
				s.ClockMHz = append(s.ClockMHz, result.Value{CPU: c.CPU, Core: c.Core, Value: m})
			}
		}
	}
	s.SevenZipSingleMIPS = []result.Value{}
	for _, p := range phases {
		var f result.SevenZipFigures
		if p.Name != result.PhaseSevenZipSingle || json.Unmarshal(p.Figures, &f) != nil || f.TotMIPS == nil || len(f.CPUs) == 0 {
			continue
		}
		s.SevenZipSingleMIPS = append(s.SevenZipSingleMIPS, result.Value{CPU: f.CPUs[0], Core: f.Core, Value: *f.TotMIPS})
	}
	s.SevenZipMultiMIPS = s.SevenZipMultiMIPSAllRuns
	s.SevenZipMultiMIPSUndisturbed = s.SevenZipMultiMIPSAllRuns
	s.Excluded, s.HeadlineNotes = nil, nil
	for _, b := range l.SevenZip {
		if b.Mode == "single" && b.CPU == nil && b.Run.TotMIPS != nil {
			s.SevenZipSingleMIPS = append(s.SevenZipSingleMIPS, result.Value{CPU: UnknownCPU, Value: *b.Run.TotMIPS})
		}
	}
	s.AES256At16K = []result.Value{}
	runCPUs := l.opensslCPUs()
	for k, o := range l.OpenSSL.Runs {
		if o.Core == ParallelCore {
			continue // all CPUs at once: not a single-threaded figure
		}
		if v := o.KBs("aes-256-cbc", 16384); v != nil {
			id := UnknownCPU
			if len(runCPUs[k]) > 0 {
				id = runCPUs[k][0]
			}
			s.AES256At16K = append(s.AES256At16K, result.Value{CPU: id, Core: o.Core, Value: *v})
		}
	}
	if l.OpenSSL.Twice && len(s.AES256At16K) == 2 {
		a, b := s.AES256At16K[0], s.AES256At16K[1]
		s.AES256At16K = []result.Value{{CPU: UnknownCPU, Core: a.Core, Value: math.Floor((math.Trunc(a.Value) + math.Trunc(b.Value)) / 2)}}
	}
	if s.SevenZipMultiBasis == result.BasisUndisturbedRuns {
		// the log's row stands on all runs; the disturbed ones stay listed
		s.SevenZipMultiBasis = result.BasisAllRuns
	}
	imp := &result.ImportedSummary{ImportedFormat: result.ImportedFormat, ImportedFormatVersion: l.Version, ImportedRow: l.RowCells}
	if len(l.RowCells) > 0 {
		imp.ImportedRowColumns = mdrow.PrintedLayout(l.Version, l.Date)
	}
	imp.CPUMinerKHs = cpuminerFigure(l.CPUMiner)
	s.ImportedSummary = imp
	return s
}

// sevenZipPhase is one phase of several 7-Zip runs on the same CPUs.
func sevenZipPhase(name, title string, bs []SevenZipBlock, cpus []int) result.Phase {
	f := sevenZipFigures(bs)
	f.CPUs, f.Core = cpus, bs[0].Core
	if bs[0].Mode != "cluster" {
		f.Core = ""
	}
	p := result.Phase{Name: name, Title: fmt.Sprintf("%s, %s (from the log)", title, textfmt.Plural(len(bs), "run")), CPUs: cpus, Status: result.PhaseOK}
	if f.TotMIPS == nil {
		p.Status, p.Reason = result.PhaseFailed, "the log shows no result of these runs"
	}
	_ = p.SetFigures(f)
	return p
}

func coreSuffix(core string) string {
	if core == "" {
		return ""
	}
	return " (" + core + ")"
}
