// Package runtext renders a run result (of `boardbench run` or `boardbench
// monitor -- COMMAND`) as the text report shown at the end of a run and by
// `boardbench report`: a summary of the headline figures and of their
// validity, the validation findings, then every phase with its figures,
// evidence and monitor lines. docs/report.md describes the sections.
package runtext

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/report/infotext"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// Render writes the text report of r to w; color enables bold headings and
// a red verdict when the figures are not valid or the run did not finish.
func Render(w io.Writer, r *result.Result, color bool) {
	if r == nil {
		fmt.Fprintln(w, "no result")
		return
	}
	tw := textfmt.New(w, color)
	renderBanner(tw, r)
	renderSummary(tw, r)
	renderReference(tw, r)
	renderSweep(tw, r)
	renderThermal(tw, r)
	RenderDevice(tw, r.Device)
	renderFindings(tw, r)
	renderPhases(tw, r)
}

// renderBanner writes the title line and, when the run did not complete or
// its figures are not valid, a prominent warning line before any section.
func renderBanner(w *textfmt.Writer, r *result.Result) {
	title := "boardbench " + orDash(r.Command) + " result"
	if b := board(r); b != "" {
		title += ": " + b
	}
	fmt.Fprint(w.W, textfmt.Indent(title, "", "  ", textfmt.MaxWidth))
	var warnings []string
	if s := statusWarning(r); s != "" {
		warnings = append(warnings, s)
	}
	if titles := invalidatingTitles(r.Findings); len(titles) > 0 {
		warnings = append(warnings, "NOT VALID: "+strings.Join(titles, "; "))
	}
	for _, s := range warnings {
		for _, l := range strings.SplitAfter(textfmt.Indent(s, "!! ", "   ", textfmt.MaxWidth), "\n") {
			if l == "" {
				continue
			}
			if w.Color {
				fmt.Fprintf(w.W, "\x1b[1;31m%s\x1b[0m\n", strings.TrimSuffix(l, "\n"))
			} else {
				fmt.Fprint(w.W, l)
			}
		}
	}
	fmt.Fprintln(w.W)
}

// statusWarning is the banner text of a run that did not complete, "" for
// a complete one.
func statusWarning(r *result.Result) string {
	done := finishedPhases(r)
	list := "none"
	if len(done) > 0 {
		list = strings.Join(done, ", ")
	}
	switch r.Status {
	case result.StatusComplete:
		return ""
	case result.StatusInterrupted:
		return fmt.Sprintf("INTERRUPTED: the run was stopped; %s finished: %s", textfmt.Plural(len(done), "phase"), list)
	case result.StatusFailed:
		return fmt.Sprintf("FAILED: the run ended with an error; %s finished: %s", textfmt.Plural(len(done), "phase"), list)
	case result.StatusRunning:
		return fmt.Sprintf("UNFINISHED: the result was saved while the run was still going (or it crashed); %s finished: %s", textfmt.Plural(len(done), "phase"), list)
	}
	return fmt.Sprintf("status %q; %s finished: %s", r.Status, textfmt.Plural(len(done), "phase"), list)
}

// finishedPhases names the phases that ended ok, with their CPUs where a
// phase kind repeats ("7zip-single cpu4").
func finishedPhases(r *result.Result) []string {
	count := map[string]int{}
	for _, p := range r.Phases {
		count[p.Name]++
	}
	var out []string
	for _, p := range r.Phases {
		if p.Status != result.PhaseOK {
			continue
		}
		out = append(out, phaseLabel(p, count[p.Name] > 1))
	}
	return out
}

func phaseLabel(p result.Phase, withCPUs bool) string {
	name := orDash(p.Name)
	if withCPUs && len(p.CPUs) > 0 {
		name += " cpu" + cpu.FormatCPUList(p.CPUs)
	}
	return name
}

// invalidating returns the ids of findings that invalidate the figures,
// without repeats, in the findings' order.
func invalidating(fs []finding.Finding) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		if f.Severity == finding.Invalidates && !seen[f.ID] {
			seen[f.ID] = true
			out = append(out, f.ID)
		}
	}
	return out
}

// invalidatingTitles returns the titles of the findings that invalidate the
// figures (the id where a finding has no title), without repeats.
func invalidatingTitles(fs []finding.Finding) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		t := firstNonEmpty(f.Title, f.ID)
		if f.Severity == finding.Invalidates && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// machineLabel is the summary's label for board(r): "board" when a board
// model is known, otherwise infotext.ChipLabel: "SoC", or "processor" when
// all that is known is the CPU's model name.
func machineLabel(r *result.Result) string {
	if r.Info == nil || r.Info.Board.Model != "" {
		return "board"
	}
	return infotext.ChipLabel(r.Info.SoC)
}

// board names the machine: board model and SoC guess.
func board(r *result.Result) string {
	if r.Info == nil {
		return ""
	}
	model, soc := r.Info.Board.Model, r.Info.SoC.Guess
	switch {
	case model != "" && soc != "" && !strings.Contains(model, soc):
		return model + " (" + soc + ")"
	case model != "":
		return model
	}
	return soc
}

// renderSummary writes the summary block: status, verdict, machine and OS,
// headline figures, tools and tuning.
func renderSummary(w *textfmt.Writer, r *result.Result) {
	w.Section("Summary")
	pairs := [][2]string{
		{"status", statusLine(r)},
		{"verdict", verdictLine(r)},
	}
	if r.Quick {
		pairs = append(pairs, [2]string{"mode", QuickMode})
	}
	pairs = append(pairs, [][2]string{
		{"started", localTime(r.StartedAt)},
		{"tool", toolLine(r)},
		{machineLabel(r), orNA(board(r), "machine description missing")},
	}...)
	pairs = append(pairs, osPairs(r)...)
	if figures, ok := summaryFigures(r.Command); ok {
		w.KV(append(pairs, figures(r)...)...)
		return
	}
	renderRunSummary(w, r, pairs)
}

// QuickMode describes a quick result in the summary.
const QuickMode = "quick (smaller sizes, fewer passes): judged by the same rules; figures do not compare with standard results"

func statusLine(r *result.Result) string {
	s := orDash(r.Status)
	if r.Status == result.StatusInterrupted {
		s = "INTERRUPTED"
	}
	ok := 0
	for _, p := range r.Phases {
		if p.Status == result.PhaseOK {
			ok++
		}
	}
	s += fmt.Sprintf(", %d of %s ok", ok, textfmt.Plural(len(r.Phases), "phase"))
	if r.FinishedAt != nil && !r.StartedAt.IsZero() {
		s += ", " + duration(r.FinishedAt.Sub(r.StartedAt).Seconds()) + " in all"
	}
	return s
}

func verdictLine(r *result.Result) string {
	if titles := invalidatingTitles(r.Findings); len(titles) > 0 {
		return "NOT VALID, these figures must not be compared: " + strings.Join(titles, "; ")
	}
	if v := r.Summary.Verdict; v != "" {
		return v
	}
	if len(r.Findings) == 0 && r.Status != result.StatusComplete {
		return "not validated (the run did not finish)"
	}
	if r.Summary.Valid {
		return "valid"
	}
	return "n/a (no verdict recorded)"
}

func toolLine(r *result.Result) string {
	t := r.Tool
	s := result.Maker(r)
	var extra []string
	if imp := result.Importer(r); imp != "" {
		// The figures are the log's; the revision and Go version below
		// are the importing boardbench's.
		extra = append(extra, imp)
	}
	if t.Revision != "" {
		rev := t.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		extra = append(extra, "revision "+rev)
	}
	if t.Arch != "" {
		extra = append(extra, t.Arch)
	}
	if t.GoVersion != "" {
		extra = append(extra, t.GoVersion)
	}
	extra = append(extra, "schema "+orDash(r.SchemaVersion))
	return s + " (" + strings.Join(extra, ", ") + ")"
}

// osPairs are the kernel, distribution and userland lines.
func osPairs(r *result.Result) [][2]string {
	if r.Info == nil {
		na := "n/a (machine description missing)"
		return [][2]string{{"kernel", na}, {"distro", na}, {"userland", na}}
	}
	o := r.Info.OS
	kernelNA, distroNA, userNA := "not exposed", "os-release not readable", "no readable executable"
	if r.Command == result.CommandImport {
		// the log did not say, and nothing was read on this machine
		kernelNA, distroNA, userNA = notRecorded, notRecorded, notRecorded
	}
	kernel := orNA(o.Kernel.Release, kernelNA)
	if o.Kernel.Arch != "" || o.Kernel.Machine != "" {
		kernel += " (" + firstNonEmpty(o.Kernel.Arch, o.Kernel.Machine) + ")"
	}
	distro := o.Distro.PrettyName
	if distro == "" {
		distro = strings.TrimSpace(o.Distro.Name + " " + o.Distro.VersionID)
	}
	if a := o.Armbian; a != nil && a.Version != "" {
		distro = strings.TrimSpace(distro + ", Armbian " + a.Version)
	}
	if rp := o.RaspberryPiOS; rp != nil && rp.ImageDate != "" {
		distro = strings.TrimSpace(distro + ", Raspberry Pi OS image " + rp.ImageDate)
	}
	user := orNA(o.Userland.Arch, userNA)
	if o.Userland.Bits != nil {
		user += fmt.Sprintf(" (%d-bit)", *o.Userland.Bits)
	}
	if o.MixedArch {
		user += ", kernel and userland differ in bitness"
	}
	return [][2]string{
		{"kernel", kernel},
		{"distro", orNA(distro, distroNA)},
		{"userland", user},
	}
}

// monitorPairs summarise a `monitor -- COMMAND` result: the command and
// how it ended.
func monitorPairs(r *result.Result) [][2]string {
	var pairs [][2]string
	for _, p := range r.Phases {
		pairs = append(pairs, [2]string{"command", orDash(p.Title)})
		exit := "n/a (the command did not end normally)"
		if p.ExitStatus != nil {
			exit = fmt.Sprintf("%d", *p.ExitStatus)
		}
		pairs = append(pairs, [2]string{"exit status", exit})
		if len(p.CPUs) > 0 {
			cpus := "cpu" + cpu.FormatCPUList(p.CPUs)
			if pinned, _ := r.Options["cpus"].(string); pinned != "" {
				cpus += " (pinned)"
			} else {
				cpus += " (not pinned)"
			}
			pairs = append(pairs, [2]string{"CPUs", cpus})
		}
		pairs = append(pairs, [2]string{"duration", duration(p.DurationS)})
	}
	if len(r.Phases) == 0 {
		pairs = append(pairs, [2]string{"command", "n/a (no phase recorded)"})
	}
	return pairs
}

// sevenZipMultiLine is the multi-threaded 7-Zip headline with its runs:
// the mean of the valid runs (result.Summary.SevenZipMultiMIPS); the runs
// left out as disturbed are named, and a headline with no valid run is no
// figure, with the reason.
func sevenZipMultiLine(r *result.Result) string {
	s := r.Summary
	runs := make([]string, len(s.SevenZipMultiRuns))
	for i, v := range s.SevenZipMultiRuns {
		runs[i] = fmt.Sprintf("%.0f", v)
	}
	all := fmt.Sprintf("%s: %s MIPS", textfmt.Plural(len(runs), "run"), strings.Join(runs, ", "))
	disturbed := make([]string, len(s.SevenZipMultiDisturbedRuns))
	for i, n := range s.SevenZipMultiDisturbedRuns {
		disturbed[i] = fmt.Sprintf("%d", n)
	}
	var out string
	switch {
	case s.SevenZipMultiMIPS == nil && len(runs) > 0:
		out = "no figure: " + headlineNote(s, "sevenzip_multi_mips") + " (" + all + ", not figures)"
	case s.SevenZipMultiMIPS == nil:
		return "n/a (" + missingReason(r, result.PhaseSevenZipMulti) + ")"
	case len(disturbed) > 0:
		out = fmt.Sprintf("%.0f MIPS (mean of the valid runs; run %s disturbed, left out; %s)",
			*s.SevenZipMultiMIPS, strings.Join(disturbed, ", "), all)
	default:
		out = fmt.Sprintf("%.0f MIPS", *s.SevenZipMultiMIPS)
		if len(runs) > 0 {
			out += " (mean of " + all + ")"
		}
	}
	if ids := disturbingFindings(r, result.PhaseSevenZipMulti); len(ids) > 0 {
		out += "; DISTURBED: " + strings.Join(ids, ", ")
	}
	return out
}

// disturbingFindings returns the ids of the findings that say other tasks
// or other guests took CPU time during the phase.
func disturbingFindings(r *result.Result, phase string) []string {
	var out []string
	for _, f := range r.Findings {
		if (f.ID == "background_activity" || f.ID == "steal_time") && slices.Contains(f.Phases, phase) && !slices.Contains(out, f.ID) {
			out = append(out, f.ID)
		}
	}
	return out
}

// toolPairs are one line per external tool: its real version and path, or
// why it is missing; "tools: none recorded" without any.
func toolPairs(r *result.Result) [][2]string {
	if len(r.Tools) == 0 {
		return [][2]string{{"tools", "none recorded"}}
	}
	var pairs [][2]string
	for _, t := range r.Tools {
		var s string
		switch {
		case t.Version != "":
			s = t.Version
		case t.Path != "":
			s = "version unknown"
		}
		if t.Path != "" {
			s += " (" + t.Path + ")"
		}
		if t.Note != "" {
			s = strings.TrimSpace(s + " " + t.Note)
		}
		pairs = append(pairs, [2]string{"tool " + orDash(t.Name), orNA(s, "nothing recorded")})
	}
	return pairs
}

func tuningLine(t result.Tuning) string {
	if len(t.Changed) == 0 {
		if t.Note != "" {
			return "nothing changed (" + t.Note + ")"
		}
		return "nothing changed"
	}
	s := strings.Join(t.Changed, "; ")
	if t.Restored {
		return s + "; all restored"
	}
	return s + "; NOT all restored"
}

// perCoreTypeKey identifies a row of the per-core-type table: a CPU, or
// for figures of a CPU not named (cpu < 0) their core type and position.
type perCoreTypeKey struct {
	cpu  int
	core string
	n    int
}

// cpuName is "cpu4", or "unknown CPU" for a CPU the source did not name
// (a negative number, sbcimport.UnknownCPU).
func cpuName(id int) string {
	if id < 0 {
		return "unknown CPU"
	}
	return "cpu" + strconv.Itoa(id)
}

// perCoreTypeRow is one CPU of the per-core-type table.
type perCoreTypeRow struct {
	cpu   int
	core  string
	cells [5]string
}

// renderPerCoreType writes the per-CPU figures (clock per cluster, the
// single-CPU figures per core type) as one table, then what is missing.
func renderPerCoreType(w *textfmt.Writer, r *result.Result) {
	s := r.Summary
	cols := []struct {
		name   string
		values []result.Value
		format string
		phase  string
	}{
		{"clock", s.ClockMHz, "%.0f MHz", result.PhaseClock},
		{"7-Zip single", s.SevenZipSingleMIPS, "%.0f MIPS", result.PhaseSevenZipSingle},
		{"AES-256 16 KiB", s.AES256At16K, "%.0f kB/s", result.PhaseOpenSSL},
		{"memcpy", s.MemcpyMBs, "%.0f MB/s", result.PhaseMemory},
		{"memset", s.MemsetMBs, "%.0f MB/s", result.PhaseMemory},
	}
	rows := map[perCoreTypeKey]*perCoreTypeRow{}
	var unknownOrder []perCoreTypeKey
	// Figures that are not figures (a clock whose samples were all
	// disturbed) or that were disturbed are marked in their cell.
	marks := map[[2]int]string{}
	for _, v := range s.ClockAllDisturbed {
		marks[[2]int{0, v.CPU}] = "disturbed"
	}
	colOf := map[string]int{"sevenzip_single_mips": 1, "aes256_16k": 2, "memcpy_mb_s": 3, "memset_mb_s": 4}
	var excluded []result.ExcludedFigure
	for _, e := range s.Excluded {
		ci, ok := colOf[e.Figure]
		if !ok || e.CPU == nil {
			continue
		}
		marks[[2]int{ci, *e.CPU}] = "disturbed"
		cols[ci].values = append(append([]result.Value(nil), cols[ci].values...), result.Value{CPU: *e.CPU, Value: e.Measured})
		excluded = append(excluded, e)
	}
	cols[0].values = append(append([]result.Value(nil), s.ClockMHz...), s.ClockAllDisturbed...)
	for ci, c := range cols {
		seen := map[string]int{}
		for vi, v := range c.values {
			key := perCoreTypeKey{cpu: v.CPU}
			if v.CPU < 0 {
				// A figure of a CPU the source did not name (an imported
				// log) lines up with the others of its core type by
				// position; without a core type it has a row of its own.
				key = perCoreTypeKey{cpu: -1, core: v.Core, n: seen[v.Core]}
				seen[v.Core]++
				if v.Core == "" {
					key.n = ci*1000 + vi
				}
			}
			row, ok := rows[key]
			if !ok {
				row = &perCoreTypeRow{cpu: v.CPU, core: v.Core}
				for i := range row.cells {
					row.cells[i] = "-"
				}
				rows[key] = row
				if v.CPU < 0 {
					unknownOrder = append(unknownOrder, key)
				}
			}
			if row.core == "" {
				row.core = v.Core
			}
			mark := ""
			if v.CPU >= 0 {
				mark = marks[[2]int{ci, v.CPU}]
			}
			switch mark {
			case "":
				row.cells[ci] = fmt.Sprintf(c.format, v.Value)
			case "*":
				row.cells[ci] = fmt.Sprintf(c.format, v.Value) + mark
			default:
				row.cells[ci] = mark
			}
		}
	}
	var missing []string
	for ci, c := range cols {
		if len(c.values) > 0 {
			continue
		}
		missing = append(missing, fmt.Sprintf("%s: n/a (%s)", c.name, missingReason(r, c.phase)))
		for _, row := range rows {
			row.cells[ci] = "n/a"
		}
	}
	fmt.Fprintln(w.W)
	if len(rows) == 0 {
		w.Line("per core type: n/a (no per-CPU figure was measured)")
	} else {
		var keys []perCoreTypeKey
		for k := range rows {
			if k.cpu >= 0 {
				keys = append(keys, k)
			}
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].cpu < keys[j].cpu })
		t := textfmt.NewTable("CPU", "core", "clock", "7-Zip single", "AES-256 16 KiB", "memcpy", "memset")
		for i := 2; i <= 6; i++ {
			t.RightAlign[i] = true
		}
		for _, k := range append(keys, unknownOrder...) {
			row := rows[k]
			t.Row(append([]string{cpuName(row.cpu), orDash(row.core)}, row.cells[:]...)...)
		}
		w.Table(t)
		w.Line("clock: measured, one CPU per cluster; the other figures: one CPU per core type (- = not run on that CPU)")
		w.Line("AES-256-CBC on 16 KiB blocks in kB/s, memcpy and memset in MB/s (1 kB = 1000 B, 1 MB = 10^6 B)")
	}
	for _, v := range s.ClockAllDisturbed {
		w.Line("clock on cpu%d: no figure: every sample was disturbed by other tasks (they read %.0f MHz, which is not the clock)", v.CPU, v.Value)
	}
	for _, e := range excluded {
		name, format := excludedFigure(e.Figure)
		w.Line("%s on cpu%d: no figure: it read %s, but %s", name, *e.CPU, strings.TrimSpace(fmt.Sprintf(format, e.Measured)), e.Reason)
	}
	for _, m := range missing {
		w.Line("%s", m)
	}
}

// missingReason says why a phase kind's figures are missing: the reason of
// a skipped or failed phase, an interruption, or a run that ended first.
func missingReason(r *result.Result, name string) string {
	var reasons []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			reasons = append(reasons, s)
		}
	}
	found := false
	for _, p := range r.Phases {
		if p.Name != name {
			continue
		}
		found = true
		switch p.Status {
		case result.PhaseSkipped:
			add("skipped: " + orNA(textfmt.Reason(p.Reason), "no reason recorded"))
		case result.PhaseFailed:
			add("failed: " + orNA(textfmt.Reason(p.Reason), "no reason recorded"))
		case result.PhaseInterrupted:
			add("interrupted")
		default:
			add("no result in the phase")
		}
	}
	if found {
		return strings.Join(reasons, "; ")
	}
	if r.Status != result.StatusComplete {
		return "the run ended before this phase"
	}
	return "not measured"
}

// localTime formats t in the local time zone with its name.
func localTime(t time.Time) string {
	if t.IsZero() {
		return "n/a (not recorded)"
	}
	return t.Local().Format("2006-01-02 15:04:05 MST")
}

// duration formats seconds as "12.3 s" or "3 min 12 s".
func duration(s float64) string {
	if s < 0 {
		return "n/a (clock went backwards)"
	}
	if s < 60 {
		return fmt.Sprintf("%.1f s", s)
	}
	total := int64(s + 0.5)
	if total < 3600 {
		return fmt.Sprintf("%d min %d s", total/60, total%60)
	}
	return fmt.Sprintf("%d h %d min %d s", total/3600, total%3600/60, total%60)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// orNA returns s, or "n/a (reason)" when s is empty.
func orNA(s, reason string) string {
	if s == "" {
		return "n/a (" + reason + ")"
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// headlineNote is the reason a headline figure is null, "" when none is
// recorded.
func headlineNote(s result.Summary, figure string) string {
	for _, n := range s.HeadlineNotes {
		if n.Figure == figure {
			return n.Reason
		}
	}
	return "every measurement was disturbed"
}

// excludedFigure names a per-CPU headline figure in lines about excluded
// figures, and gives the format of its value; both are "" for another
// figure.
func excludedFigure(figure string) (name, format string) {
	switch figure {
	case "sevenzip_single_mips":
		return "7-Zip single", "%.0f MIPS"
	case "aes256_16k":
		return "AES-256 16 KiB", "%.0f kB/s"
	case "memcpy_mb_s":
		return "memcpy", "%.0f MB/s"
	case "memset_mb_s":
		return "memset", "%.0f MB/s"
	}
	return "", ""
}
