package reference

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"boardbench/internal/result"
)

// MinForPercentile is the least number of reference results a percentile
// is given from; below it a placement says how few there are.
const MinForPercentile = 5

// The gap rule (docs/reference.md): a figure is clearly below its
// reference results when it is more than GapShare below their median and,
// with at least MinForPercentile of them, below their 25th percentile;
// with MinForGap to MinForPercentile-1 of them, below every one.
const (
	GapShare  = 0.10
	MinForGap = 3
)

// The bases of a placement.
const (
	BasisSoC   = "soc"
	BasisCores = "cores"
)

// Placement places a result's headline figures among the reference
// results of its SoC.
type Placement struct {
	// SoC is the result's SoC as named; Cores its core configuration.
	SoC   string `json:"soc"`
	Cores string `json:"cores"`
	// Basis is BasisSoC, BasisCores (no result of the SoC: the same core
	// configuration, a second best) or "" (nothing to compare with).
	Basis string `json:"basis"`
	// Group names what was compared with: the SoC's label or the core
	// configuration.
	Group string `json:"group"`
	// NotPlaced says why the figures are not placed ("" when they are).
	NotPlaced string `json:"not_placed,omitempty"`
	// Note explains the basis (a second best, no reference at all).
	Note    string            `json:"note,omitempty"`
	Figures []FigurePlacement `json:"figures"`
}

// FigurePlacement is one figure among its population.
type FigurePlacement struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Unit  string `json:"unit"`
	// Value is this result's figure; nil when it has none.
	Value *float64 `json:"value"`
	// Population describes the reference results compared with
	// ("7-Zip 16.02, 64-bit userland").
	Population string `json:"population"`
	// N is their number; Median, P10, P90 (nil below MinForPercentile)
	// and P25 their distribution.
	N      int      `json:"n"`
	Median *float64 `json:"median"`
	P10    *float64 `json:"p10"`
	P25    *float64 `json:"p25"`
	P90    *float64 `json:"p90"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
	// Percentile is this result's percentile among them (0–100); nil
	// below MinForPercentile results or without a value.
	Percentile *float64 `json:"percentile"`
	// Note says why a figure is not placed or is placed on few results.
	Note string `json:"note,omitempty"`
	// Values are the reference figures, ascending, and Logs their logs'
	// ids in the same order.
	Values []float64 `json:"values"`
	Logs   []string  `json:"logs"`
	// Below is set when the figure is clearly below (see GapShare); Gap is
	// then its shortfall against the median (0.25 = 25%), Causes the
	// measured causes ranked, NoCause set when none explains it.
	Below   bool    `json:"below"`
	Gap     float64 `json:"gap,omitempty"`
	Causes  []Cause `json:"causes,omitempty"`
	NoCause string  `json:"no_cause,omitempty"`
}

// Place places r's headline figures among the reference results of its
// SoC, or of its core configuration when the set has none of the SoC.
func (s *Set) Place(r *result.Result) Placement {
	c := ConditionsOf(r)
	p := Placement{SoC: c.SoC, Cores: c.Cores, Figures: []FigurePlacement{}}
	if q, _ := r.Options["quick"].(bool); q || r.Quick {
		p.NotPlaced = "a quick result is not placed: its figures are not comparable with full runs"
		return p
	}
	figs := FiguresOf(r.Summary)
	if len(figs) == 0 {
		p.NotPlaced = "the result has no headline figure to place"
		return p
	}
	self := selfLog(r)
	var entries []Entry
	if g, ok := s.Group(c.SoC); ok && c.SoC != "" {
		entries = usable(g.Entries, self)
		p.Basis, p.Group = BasisSoC, g.Label
	}
	if len(entries) == 0 {
		soc := c.SoC
		if soc == "" {
			soc = "unknown"
		}
		if cs := usable(s.ByCores(c.Cores), self); len(cs) > 0 {
			entries = cs
			p.Basis, p.Group = BasisCores, c.Cores
			p.Note = fmt.Sprintf("no reference results for SoC %s; second best: the %d reference results with the same core configuration (%s), which may differ in memory, clocks and cooling",
				soc, len(cs), c.Cores)
		} else {
			p.Basis, p.Group = "", ""
			cores := c.Cores
			if cores == "" {
				cores = "unknown"
			}
			p.NotPlaced = fmt.Sprintf("no reference results for SoC %s, nor for its core configuration (%s)", soc, cores)
			return p
		}
	}
	for _, f := range Figures() {
		fp := FigurePlacement{Key: f.Key, Label: f.Label, Unit: f.Unit, Values: []float64{}, Logs: []string{}}
		if v, ok := figs[f.Key]; ok {
			fp.Value = &v
		}
		pop, label, note := population(f, entries, c)
		fp.Population, fp.Note = label, note
		fill(&fp, pop, f.Key)
		if fp.Value != nil && fp.N > 0 {
			judge(&fp, f, pop, c, r, p.Group)
		}
		p.Figures = append(p.Figures, fp)
	}
	return p
}

// selfLog is the log id of an imported result, so that a log in the set is
// not compared with itself.
func selfLog(r *result.Result) string {
	if r.Command != result.CommandImport {
		return ""
	}
	f, _ := r.Options["file"].(string)
	return strings.TrimSuffix(path.Base(f), ".txt")
}

func usable(es []Entry, self string) []Entry {
	var out []Entry
	for _, e := range es {
		if e.Usable() && (self == "" || e.Log != self) {
			out = append(out, e)
		}
	}
	return out
}

// population picks the entries comparable with the result for figure f:
// the same 7-Zip population for the 7-Zip figures, and for the CPU-bound
// figures the same userland bitness where the SoC's results hold both.
func population(f Figure, entries []Entry, c Conditions) ([]Entry, string, string) {
	var with []Entry
	for _, e := range entries {
		if _, ok := e.Figures[f.Key]; ok {
			with = append(with, e)
		}
	}
	var parts []string
	note := ""
	if f.SevenZip {
		class := SevenZipClass(c.SevenZip)
		if class == "" {
			note = "this result's 7-Zip version is unknown: compared with every version"
		} else {
			var same []Entry
			classes := map[string]bool{}
			for _, e := range with {
				ec := SevenZipClass(e.SevenZip)
				classes[ec] = true
				if ec == class {
					same = append(same, e)
				}
			}
			if len(same) == 0 && len(with) > 0 {
				return nil, "7-Zip " + class, fmt.Sprintf("not comparable: this result ran 7-Zip %s, the reference results 7-Zip %s only (7-Zip ≥ 21 scores about 1.5× higher than 16.02 on the same board)",
					c.SevenZip, strings.Join(keys(classes), ", "))
			}
			with = same
			parts = append(parts, "7-Zip "+class)
		}
	}
	if f.CPUBound && c.Bits != 0 {
		var same, other int
		for _, e := range with {
			switch {
			case e.Bits == c.Bits:
				same++
			case e.Bits != 0:
				other++
			}
		}
		if same > 0 && other > 0 {
			var keep []Entry
			for _, e := range with {
				if e.Bits == c.Bits {
					keep = append(keep, e)
				}
			}
			with = keep
			parts = append(parts, fmt.Sprintf("%d-bit userland", c.Bits))
		}
	}
	if len(with) == 0 && note == "" {
		note = "no reference result has this figure"
	}
	label := "all"
	if len(parts) > 0 {
		label = strings.Join(parts, ", ")
	}
	return with, label, note
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k == "" {
			k = "unknown"
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fill computes the distribution of the population's figure.
func fill(fp *FigurePlacement, pop []Entry, key string) {
	type lv struct {
		log string
		v   float64
	}
	var xs []lv
	for _, e := range pop {
		xs = append(xs, lv{e.Log, e.Figures[key]})
	}
	sort.Slice(xs, func(i, j int) bool {
		if xs[i].v != xs[j].v {
			return xs[i].v < xs[j].v
		}
		return xs[i].log < xs[j].log
	})
	for _, x := range xs {
		fp.Values = append(fp.Values, x.v)
		fp.Logs = append(fp.Logs, x.log)
	}
	fp.N = len(xs)
	if fp.N == 0 {
		return
	}
	fp.Median = ptr(Quantile(fp.Values, 0.5))
	fp.Min, fp.Max = ptr(fp.Values[0]), ptr(fp.Values[fp.N-1])
	if fp.N < MinForPercentile {
		if fp.Note == "" {
			fp.Note = fmt.Sprintf("only %d reference result%s: no percentile", fp.N, plural(fp.N))
		}
		return
	}
	fp.P10 = ptr(Quantile(fp.Values, 0.10))
	fp.P25 = ptr(Quantile(fp.Values, 0.25))
	fp.P90 = ptr(Quantile(fp.Values, 0.90))
	if fp.Value != nil {
		fp.Percentile = ptr(PercentileOf(fp.Values, *fp.Value))
	}
}

// judge applies the gap rule and, for a figure clearly below, lists the
// causes.
func judge(fp *FigurePlacement, f Figure, pop []Entry, c Conditions, r *result.Result, group string) {
	v, med := *fp.Value, *fp.Median
	if med <= 0 || fp.N < MinForGap || v >= (1-GapShare)*med {
		return
	}
	if fp.N >= MinForPercentile {
		if v >= *fp.P25 {
			return
		}
	} else if v >= *fp.Min {
		return
	}
	fp.Below = true
	fp.Gap = 1 - v/med
	fp.Causes = causes(f, fp.Gap, pop, c, r, group)
	if len(fp.Causes) == 0 {
		fp.NoCause = "none of the measured causes (clock, cpufreq and memory governors, throttling, background activity, userland, 7-Zip version, kernel, swap) explains it"
		return
	}
	// every cause measured and together well short of the gap: say so
	sum := 0.0
	for _, c := range fp.Causes {
		if c.Explains == nil {
			return
		}
		sum += *c.Explains
	}
	if sum < 0.9 {
		fp.NoCause = fmt.Sprintf("the causes above explain at most %.0f%% of the gap; no measured cause explains the rest", 100*min(sum, 1))
	}
}

// Quantile returns the q-quantile (0–1) of ascending values, interpolated
// linearly between neighbours.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	pos := q * float64(n-1)
	lo := int(math.Floor(pos))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (pos-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// PercentileOf returns the share (0–100) of the values below v, ties
// counted half.
func PercentileOf(sorted []float64, v float64) float64 {
	below, equal := 0, 0
	for _, x := range sorted {
		switch {
		case x < v:
			below++
		case x == v:
			equal++
		}
	}
	return 100 * (float64(below) + float64(equal)/2) / float64(len(sorted))
}

func ptr(v float64) *float64 { return &v }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Distributions returns each figure's distribution among a group's usable
// results, one per population (7-Zip version class; userland bitness for
// the CPU-bound figures where the group holds both).
func Distributions(g Group) []FigurePlacement {
	entries := usable(g.Entries, "")
	var out []FigurePlacement
	for _, f := range Figures() {
		versions := map[string]string{"": ""}
		if f.SevenZip {
			versions = map[string]string{}
			for _, e := range entries {
				if _, ok := e.Figures[f.Key]; ok {
					versions[SevenZipClass(e.SevenZip)] = e.SevenZip
				}
			}
		}
		bits := []int{0}
		if f.CPUBound {
			has := map[int]bool{}
			for _, e := range entries {
				if _, ok := e.Figures[f.Key]; ok && e.Bits != 0 {
					has[e.Bits] = true
				}
			}
			if has[32] && has[64] {
				bits = []int{64, 32}
			}
		}
		for _, class := range sortedKeys(countKeys(versions)) {
			for _, b := range bits {
				pop, label, _ := population(f, entries, Conditions{SevenZip: versions[class], Bits: b})
				if len(pop) == 0 {
					continue
				}
				fp := FigurePlacement{Key: f.Key, Label: f.Label, Unit: f.Unit, Population: label, Values: []float64{}, Logs: []string{}}
				fill(&fp, pop, f.Key)
				out = append(out, fp)
			}
		}
	}
	return out
}

func countKeys(m map[string]string) map[string]int {
	out := make(map[string]int, len(m))
	for k := range m {
		out[k] = 1
	}
	return out
}

// Applies reports whether a result's figures are placed: those of `run`
// and of imported logs, the commands whose headline figures the reference
// set holds.
func Applies(r *result.Result) bool {
	return r != nil && (r.Command == "run" || r.Command == result.CommandImport)
}
