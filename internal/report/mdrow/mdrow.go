// Package mdrow renders a run result as one row of the community's published
// results table of single-board computers, whose columns are
//
//	| Device / details | Clockspeed | Kernel | Distro | 7-zip multi | 7-zip single | AES | memcpy | memset | kH/s |
//
// with the same derivations and rounding, so that a boardbench result can be
// pasted next to years of published rows. docs/report.md describes every
// column. Unknown values are "-". Cells the run did not measure are filled
// from the benchmarks a `monitor -- COMMAND` result wrapped (7-Zip, and
// cpuminer for kH/s), where recognised.
package mdrow

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// Header is the table's header line.
const Header = "| Device / details | Clockspeed | Kernel | Distro | 7-zip multi | 7-zip single | AES | memcpy | memset | kH/s |"

// Separator is the table's alignment line, as published.
const Separator = "| ----- | :--------: | :----: | :----: | ----: | ------: | ------: | -----: | -----: | ---: |"

// Unknown is the cell of a value that is not known or not measured.
const Unknown = "-"

// ClockTolerancePct is how far (in whole percent, truncated) the measured
// clock may be from the advertised maximum before the Clockspeed column
// shows the measured value ("~2290") instead of the cpufreq maxima.
const ClockTolerancePct = 2

// ThrottlingFindingID is the finding that marks the clockspeed "(throttled)".
const ThrottlingFindingID = "throttling"

// Columns are the cells of one row, in table order.
type Columns struct {
	Device       string
	Clockspeed   string
	Kernel       string
	Distro       string
	SevenZipMult string
	SevenZipSing string
	AES          string
	Memcpy       string
	Memset       string
	KHs          string
}

// Cells returns the columns in table order.
func (c Columns) Cells() []string {
	return []string{c.Device, c.Clockspeed, c.Kernel, c.Distro, c.SevenZipMult, c.SevenZipSing, c.AES, c.Memcpy, c.Memset, c.KHs}
}

// String formats the columns as a markdown table row.
func (c Columns) String() string {
	cells := c.Cells()
	for i, s := range cells {
		s = strings.TrimSpace(strings.ReplaceAll(s, "|", "/"))
		if s == "" {
			s = Unknown
		}
		cells[i] = textfmt.MarkdownText(s)
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

// Row returns the table row of r (without a trailing newline). The row of
// an imported result whose log printed one is that row (see ImportedRow).
func Row(r *result.Result) string {
	if cells := ImportedRow(r); cells != nil {
		safe := make([]string, len(cells))
		for i, c := range cells {
			safe[i] = textfmt.MarkdownText(c) // a stranger's log: no live links or HTML
		}
		return "| " + strings.Join(safe, " | ") + " |"
	}
	return Compute(r).String()
}

// Compute returns every column of r: the cells of the row an imported log
// printed in this table's current layout (by the layout its version
// printed, see PrintedLayout: the rows of 0.9.0 to 0.9.8 have as many
// cells in another layout), its clock turned into MHz where it was printed
// in kHz (ClockCellMHz); else the columns Derive derives.
func Compute(r *result.Result) Columns {
	if cells := currentCells(r); cells != nil {
		return Columns{cells[0], ClockCellMHz(cells[1]), cells[2], cells[3], cells[4], cells[5], cells[6], cells[7], cells[8], cells[9]}
	}
	return Derive(r)
}

// Derive derives every column of r from its machine description, summary
// and findings.
func Derive(r *result.Result) Columns {
	var in *inventory.Info
	if r != nil {
		in = r.Info
	}
	c := Columns{
		Device: Device(in),
		Kernel: Kernel(in),
		Distro: Distro(in),
		// boardbench does not run cpuminer: only a wrapped run fills it
		KHs: Unknown,
	}
	if r == nil {
		c.Clockspeed, c.SevenZipMult, c.SevenZipSing, c.AES, c.Memcpy, c.Memset = Unknown, Unknown, Unknown, Unknown, Unknown, Unknown
		return c
	}
	s := r.Summary
	c.Clockspeed = Clockspeed(in, s.ClockMHz, hasFinding(r, ThrottlingFindingID))
	c.SevenZipMult = SevenZipMulti(headlineRuns(s), s.SevenZipMultiHeadline())
	if c.SevenZipMult == Unknown && in != nil && len(in.CPU.CPUs) == 1 {
		// one CPU: no multi-threaded run; the table shows the single score
		c.SevenZipMult = maxCell(s.SevenZipSingleMIPS, tens)
	}
	c.SevenZipSing = maxCell(s.SevenZipSingleMIPS, asInteger)
	c.AES = maxCell(s.AES256At16K, truncatedTens)
	c.Memcpy = maxCell(s.MemcpyMBs, tens)
	c.Memset = maxCell(s.MemsetMBs, tens)
	fillFromWrapped(&c, WrappedFigures(r))
	fillFromImported(&c, r)
	return c
}

// WrappedFigures returns the figures of the benchmarks r's `monitor --
// COMMAND` phases recognised (see docs/wrapped.md); phases without figures
// or with figures of another shape are skipped.
func WrappedFigures(r *result.Result) []wrapped.Figures {
	var out []wrapped.Figures
	for _, p := range r.Phases {
		if p.Name != result.PhaseCommand || len(p.Figures) == 0 {
			continue
		}
		var f wrapped.Figures
		if err := json.Unmarshal(p.Figures, &f); err != nil || f.Benchmark == "" {
			continue
		}
		out = append(out, f)
	}
	return out
}

// KHsAlgorithm is the cpuminer algorithm of the table's kH/s column.
const KHsAlgorithm = "scrypt"

// fillFromWrapped fills the cells the summary left unknown from wrapped
// benchmarks: 7-Zip (multi-threaded runs: the mean of their totals;
// single-threaded: the best total) and cpuminer's scrypt hash rate (the
// median of its Total lines, two decimals) for kH/s.
func fillFromWrapped(c *Columns, figs []wrapped.Figures) {
	for _, f := range figs {
		if z := f.SevenZip; z != nil && len(z.Runs) > 0 {
			var ratings []float64
			var single []result.Value
			for _, run := range z.Runs {
				ratings = append(ratings, float64(run.RatingMIPS))
				single = append(single, result.Value{Value: float64(run.RatingMIPS)})
			}
			switch {
			case z.Single && c.SevenZipSing == Unknown:
				c.SevenZipSing = maxCell(single, asInteger)
			case !z.Single && c.SevenZipMult == Unknown:
				c.SevenZipMult = SevenZipMulti(ratings, nil)
			}
		}
		if m := f.CPUMiner; m != nil && m.Algorithm == KHsAlgorithm && len(m.TotalKHs) > 0 && c.KHs == Unknown {
			c.KHs = fmt.Sprintf("%.2f", m.MedianKHs)
		}
	}
}

func hasFinding(r *result.Result, id string) bool {
	for _, f := range r.Findings {
		if f.ID == id {
			return true
		}
	}
	return false
}

// Device is the board's model (device tree or DMI), else the SoC guess.
func Device(in *inventory.Info) string {
	if in == nil {
		return Unknown
	}
	if m := strings.TrimSpace(in.Board.Model); m != "" {
		return m
	}
	if g := strings.TrimSpace(in.SoC.Guess); g != "" {
		return g
	}
	return Unknown
}

// Kernel is the release's first two dot-separated fields ("6.1.0-rpi7" →
// "6.1"; "6.14-rc6-qcom" stays "6.14-rc6-qcom").
func Kernel(in *inventory.Info) string {
	if in == nil || in.OS.Kernel.Release == "" {
		return Unknown
	}
	parts := strings.SplitN(in.OS.Kernel.Release, ".", 3)
	if len(parts) == 1 {
		return parts[0]
	}
	return parts[0] + "." + parts[1]
}

// kernelArchName returns the name the table uses for a kernel of
// architecture machine (`uname -m`): armhf for armv7l, arm64 for aarch64,
// else machine itself.
func kernelArchName(machine string) string {
	switch machine {
	case "armv7l":
		return "armhf"
	case "aarch64":
		return "arm64"
	}
	return machine
}

// Distro is the distribution's PRETTY_NAME (with the codename in
// parentheses on Ubuntu and its derivatives, unless already there) followed
// by the userland architecture, or "kernel/userland" when the kernel's
// architecture differs (a 64-bit kernel under an armhf userland:
// "arm64/armhf"; x86: "x86_64/amd64"). The kernel's architecture is
// `uname -m` with armv7l and aarch64 named armhf and arm64; the userland's
// is Debian's name from the ELF header; when the userland is unknown, the
// kernel's stands alone.
func Distro(in *inventory.Info) string {
	if in == nil {
		return Unknown
	}
	o := in.OS
	name := strings.TrimSpace(o.Distro.PrettyName)
	if name == "" {
		name = strings.TrimSpace(o.Distro.Name + " " + o.Distro.VersionID)
	}
	if cn := o.Distro.Codename; name != "" && cn != "" && isUbuntuLike(o.Distro.ID, o.Distro.IDLike) && !strings.Contains(strings.ToLower(name), strings.ToLower(cn)) {
		name += " (" + cn + ")"
	}
	user := o.Userland.Arch
	kernel := kernelArchName(o.Kernel.Machine)
	arch := user
	switch {
	case user == "":
		arch = kernel // userland unknown: the kernel's alone
	case kernel != "" && kernel != user:
		arch = kernel + "/" + user
	}
	out := strings.TrimSpace(name + " " + arch)
	if out == "" {
		return Unknown
	}
	return out
}

func isUbuntuLike(id string, like []string) bool {
	if id == "ubuntu" {
		return true
	}
	for _, l := range like {
		if l == "ubuntu" {
			return true
		}
	}
	return false
}

// Clockspeed is the cpufreq maximum of the fastest and of the slowest
// cluster ("2400/1800 MHz", or "2400 MHz" when equal), taken from the
// machine description, unless the measured clock of the fastest cluster
// differs from the highest maximum by more than ClockTolerancePct (whole
// percent, truncated): then the measured clock rounded to 10 MHz, "~2290".
// Without cpufreq the measured clock is shown as "~2000 MHz"; without
// either, "no cpufreq support" (measured clock unknown) as the table does.
// throttled appends " (throttled)".
func Clockspeed(in *inventory.Info, measured []result.Value, throttled bool) string {
	suffix := ""
	if throttled {
		suffix = " (throttled)"
	}
	var clusters []cpu.Cluster
	if in != nil {
		clusters = in.CPU.Clusters
	}
	var highest, lowest *float64
	var fastest *cpu.Cluster
	for i := range clusters {
		cl := &clusters[i]
		if cl.MaxMHz == nil || *cl.MaxMHz <= 0 {
			continue
		}
		v := *cl.MaxMHz
		if highest == nil || v >= *highest {
			highest, fastest = &v, cl
		}
		if lowest == nil || v < *lowest {
			lowest = &v
		}
	}
	if highest == nil {
		m := fastestMeasured(measured)
		if m == nil {
			if in == nil {
				return Unknown
			}
			return "no cpufreq support"
		}
		// the table rounds the whole-MHz value up by half a step of 10
		whole := math.RoundToEven(*m)
		return fmt.Sprintf("~%.0f MHz%s", math.RoundToEven(whole/10+0.5)*10, suffix)
	}
	if m := measuredFor(measured, fastest); m != nil {
		whole := math.RoundToEven(*m)
		pct := math.Floor(100 * whole / *highest)
		if pct < 100-ClockTolerancePct || pct > 100+ClockTolerancePct {
			return fmt.Sprintf("~%.0f%s", round10(whole), suffix)
		}
	}
	hi, lo := math.Floor(*highest), math.Floor(*lowest)
	if hi == lo {
		return fmt.Sprintf("%.0f MHz%s", hi, suffix)
	}
	return fmt.Sprintf("%.0f/%.0f MHz%s", hi, lo, suffix)
}

// measuredFor returns the measured clock of a CPU of cl; when several, the
// last one listed.
func measuredFor(vs []result.Value, cl *cpu.Cluster) *float64 {
	if cl == nil {
		return nil
	}
	var out *float64
	for _, v := range vs {
		for _, id := range cl.CPUs {
			if v.CPU == id && v.Value > 0 {
				x := v.Value
				out = &x
			}
		}
	}
	return out
}

func fastestMeasured(vs []result.Value) *float64 {
	var out *float64
	for _, v := range vs {
		if v.Value > 0 && (out == nil || v.Value > *out) {
			x := v.Value
			out = &x
		}
	}
	return out
}

// SevenZipMulti is the mean of the multi-threaded totals (integer division
// of their sum, as the table does) rounded to 10 MIPS; without the runs,
// the stored mean rounded the same way.
func SevenZipMulti(runs []float64, mean *float64) string {
	var m float64
	switch {
	case len(runs) > 0:
		var sum float64
		for _, x := range runs {
			sum += math.RoundToEven(x)
		}
		m = math.Floor(sum / float64(len(runs)))
	case mean != nil:
		m = *mean
	default:
		return Unknown
	}
	if m <= 0 {
		return Unknown
	}
	return fmt.Sprintf("%.0f", round10(m))
}

// headlineRuns are the multi-threaded 7-Zip runs the summary's headline
// stands on: all runs, or the undisturbed ones when the summary says it
// uses those (run numbers in SevenZipMultiDisturbedRuns count from 1).
func headlineRuns(s result.Summary) []float64 {
	if s.SevenZipMultiBasis != result.BasisUndisturbedRuns {
		return s.SevenZipMultiRuns
	}
	var out []float64
	for i, v := range s.SevenZipMultiRuns {
		if !slices.Contains(s.SevenZipMultiDisturbedRuns, i+1) {
			out = append(out, v)
		}
	}
	return out
}

// rounding says how a column rounds its value.
type rounding int

const (
	// asInteger rounds to a whole number (7-Zip single: MIPS as printed).
	asInteger rounding = iota
	// tens rounds to 10 (memcpy, memset).
	tens
	// truncatedTens drops the fraction, then rounds to 10 (AES).
	truncatedTens
)

// maxCell is the highest value of vs, rounded as rnd says.
func maxCell(vs []result.Value, rnd rounding) string {
	var best *float64
	for _, v := range vs {
		if v.Value > 0 && (best == nil || v.Value > *best) {
			x := v.Value
			best = &x
		}
	}
	if best == nil {
		return Unknown
	}
	switch rnd {
	case tens:
		return fmt.Sprintf("%.0f", round10(*best))
	case truncatedTens:
		return fmt.Sprintf("%.0f", round10(math.Trunc(*best)))
	}
	return fmt.Sprintf("%.0f", math.RoundToEven(*best))
}

// round10 rounds to a multiple of 10, halves to even (printf's rounding).
func round10(x float64) float64 { return math.RoundToEven(x/10) * 10 }

// Table writes one table of rs: the header and separator lines when header
// is set, then one row per result, in order.
func Table(w io.Writer, rs []*result.Result, header bool) error {
	var b strings.Builder
	if header {
		b.WriteString(Header + "\n" + Separator + "\n")
	}
	for _, r := range rs {
		b.WriteString(Row(r) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
