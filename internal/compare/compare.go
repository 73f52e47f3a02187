// Package compare sets two or more results side by side: the conditions
// that differ between them first (kernel, distribution, userland bitness,
// tool versions, governor, measured clocks, throttling, findings), then
// every headline figure and every per-core-type figure with its change in
// percent against the first result, marked where the change is beyond the
// run-to-run spread the results themselves record. `boardbench compare`
// renders it as text, JSON or markdown; `serve` as HTML.
package compare

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/store"
)

// Input is one result to compare with the label that names it (a file
// name or a store id).
type Input struct {
	Label  string
	Result *result.Result
	// Doc is the result's JSON document, used to find the headline
	// figures of every command (package store's Figures); nil means the
	// document is made again from Result.
	Doc []byte
}

// Comparison is the typed side-by-side view of the inputs, the first being
// the base every change is measured against.
type Comparison struct {
	Results []Column `json:"results"`
	// Conditions are every condition, those that differ first (in the
	// order below), then those that are the same.
	Conditions []Condition `json:"conditions"`
	// Figures are the headline figures, then the per-core-type figures,
	// then the other commands' headline figures by name.
	Figures []Figure `json:"figures"`
	// Notes warn about what the figures cannot say: results of a quick
	// mode beside standard ones (no change is computed between them).
	Notes []string `json:"notes,omitempty"`
}

// Column names one compared result.
type Column struct {
	Label string `json:"label"`
	// Quick is true for a result of a quick mode (result.Result.Quick).
	Quick bool `json:"quick,omitempty"`
	store.Heading
}

// Condition is one condition of the measurement in each result.
type Condition struct {
	Name string `json:"name"`
	// Values has one entry per result, "" when the result does not say.
	Values []string `json:"values"`
	// Differs is true when the known values are not all the same.
	Differs bool `json:"differs"`
}

// Figure is one figure across the results.
type Figure struct {
	// Key is the figure's stable name, e.g. "sevenzip_multi_mips",
	// "sevenzip_single_mips/Cortex-A76".
	Key string `json:"key"`
	// Name is its description, e.g. "7-Zip single-threaded".
	Name string `json:"name"`
	// Core is the core type of a per-core-type figure; "" otherwise.
	Core string `json:"core,omitempty"`
	Unit string `json:"unit"`
	// Values has one entry per result; nil where the result lacks it.
	Values []*float64 `json:"values"`
	// ChangePct is the change from the first result in percent; nil for
	// the first and where either value is missing or the base is zero.
	ChangePct []*float64 `json:"change_pct"`
	// SpreadPct is the run-to-run spread each result records for the
	// figure ((max-min)/mean of its runs, in percent); nil where it
	// records none.
	SpreadPct []*float64 `json:"spread_pct"`
	// BeyondSpread marks a change larger than LimitPct.
	BeyondSpread []bool `json:"beyond_spread"`
	// LimitPct is the change (in percent, either way) a change must pass
	// to be marked, per result (nil for the first and where no change is
	// computed): the larger of the two results' spreads of this figure;
	// for a figure neither records a spread of, the larger of
	// DefaultSpreadPct and the largest spread of any figure the two
	// results record (see spreadLimit).
	LimitPct []*float64 `json:"limit_pct"`
	// Role is set when the results' core types differ and per-core
	// figures are matched by role ("fastest", "slowest"); Core then names
	// the role and each result's core type.
	Role string `json:"role,omitempty"`
	// NotComparable marks, per result, a value that is not compared with
	// the first result's (a different 7-Zip version for a 7-Zip figure;
	// see Comparison.Notes): no change is computed.
	NotComparable []bool `json:"not_comparable,omitempty"`
}

// Compare builds the comparison of two or more inputs.
func Compare(in []Input) (*Comparison, error) {
	if len(in) < 2 {
		return nil, fmt.Errorf("compare needs two or more results, got %d", len(in))
	}
	c := &Comparison{}
	for _, x := range in {
		if x.Result == nil {
			return nil, fmt.Errorf("%s: no result", x.Label)
		}
		h := store.RecordOf(x.Result).Heading()
		h.CreatedAt = x.Result.StartedAt // as the result says, not in UTC as indexed
		c.Results = append(c.Results, Column{Label: x.Label, Quick: x.Result.Quick, Heading: h})
	}
	c.Conditions = conditions(in)
	c.Figures = figures(in)
	if matchByRole(in) {
		c.Notes = append(c.Notes, roleNote(in))
	}
	c.Notes = append(c.Notes, sevenZipVersions(in, c.Figures)...)
	c.Notes = append(c.Notes, sweepNotes(in)...)
	var quick []string
	for i, x := range in {
		if x.Result.Quick != in[0].Result.Quick {
			for k := range c.Figures {
				c.Figures[k].ChangePct[i], c.Figures[k].BeyondSpread[i], c.Figures[k].LimitPct[i] = nil, false, nil
			}
		}
		if x.Result.Quick {
			quick = append(quick, x.Label)
		}
	}
	if len(quick) > 0 && len(quick) < len(in) {
		c.Notes = append(c.Notes, fmt.Sprintf("%s %s of a quick mode (smaller sizes, fewer passes): %s figures do not compare with standard results, and no change is computed between them",
			strings.Join(quick, ", "), map[bool]string{true: "is a result", false: "are results"}[len(quick) == 1], map[bool]string{true: "its", false: "their"}[len(quick) == 1]))
	}
	return c, nil
}

// modeOf names a result's mode: "quick" or "standard".
func modeOf(r *result.Result) string {
	if r.Quick {
		return "quick"
	}
	return "standard"
}

// conditionFuncs are the conditions, in the order they are listed.
var conditionFuncs = []struct {
	name string
	of   func(r *result.Result) string
}{
	{"mode", modeOf},
	{"kernel", func(r *result.Result) string {
		return info(r, func(i *inventory.Info) string { return i.OS.Kernel.Release })
	}},
	{"distribution", func(r *result.Result) string { return store.RecordOf(r).Distro }},
	{"userland", userland},
	{"kernel architecture", func(r *result.Result) string {
		return info(r, func(i *inventory.Info) string { return i.OS.Kernel.Machine })
	}},
	{"7-Zip", sevenZipVersion},
	{"openssl", func(r *result.Result) string { return tool(r, "openssl") }},
	{"storage device", storageDevice},
	{"governor", governors},
	{"clocks measured", clocks},
	{"throttling", throttling},
	{"findings", findings},
	{"board", func(r *result.Result) string { return store.RecordOf(r).Board }},
	{"SoC", func(r *result.Result) string { return store.RecordOf(r).SoC }},
	{"core types", store.CoreTypes},
	{"status", func(r *result.Result) string { return r.Status }},
	{"valid", func(r *result.Result) string { return strconv.FormatBool(r.Summary.Valid) }},
	{"made by", madeBy},
}

// onlyWhenKnown reports whether the condition named name is one of some
// kinds of results only (the storage device): left out when no result has
// a value.
func onlyWhenKnown(name string) bool {
	return name == "storage device"
}

// sameCondition returns, for the conditions whose values may read
// differently while being the same, the function that tells whether two
// results' are; nil for the other conditions, which are the same when
// their values are equal.
func sameCondition(name string) func(a, b *result.Result) bool {
	if name == "clocks measured" {
		return sameClocks
	}
	return nil
}

func conditions(in []Input) []Condition {
	var diff, same []Condition
	for _, cf := range conditionFuncs {
		c := Condition{Name: cf.name}
		for _, x := range in {
			c.Values = append(c.Values, cf.of(x.Result))
		}
		if onlyWhenKnown(cf.name) && !slices.ContainsFunc(c.Values, func(v string) bool { return v != "" }) {
			continue
		}
		c.Differs = differs(c.Values)
		if eq := sameCondition(cf.name); eq != nil && c.Differs && c.Values[0] != "" {
			c.Differs = false
			for _, x := range in[1:] {
				if !eq(in[0].Result, x.Result) {
					c.Differs = true
				}
			}
		}
		if c.Differs {
			diff = append(diff, c)
		} else {
			same = append(same, c)
		}
	}
	return append(diff, same...)
}

// differs reports whether values are not all equal. An unknown value
// ("") against a known one counts as a difference: it is not known to be
// the same.
func differs(values []string) bool {
	for _, v := range values[1:] {
		if v != values[0] {
			return true
		}
	}
	return false
}

// info returns f of r's machine description, "" without one.
func info(r *result.Result, f func(i *inventory.Info) string) string {
	if r.Info == nil {
		return ""
	}
	return f(r.Info)
}

// madeBy is the tool that made the figures and, for an imported
// result, the boardbench that imported it.
func madeBy(r *result.Result) string {
	if imp := result.Importer(r); imp != "" {
		return result.Maker(r) + ", " + imp
	}
	return result.Maker(r)
}

// archBits returns the bitness of a userland architecture whose name says
// it (Debian's names and the kernel's), for a result that records the
// architecture but not its bitness (an imported log): "amd64" is
// "amd64 (64-bit)", not a different userland. A function, not a map: no
// table is built when boardbench starts.
func archBits(arch string) (int, bool) {
	switch arch {
	case "amd64", "x86_64", "arm64", "aarch64", "riscv64", "ppc64el", "ppc64le", "s390x", "loong64", "mips64el":
		return 64, true
	case "armhf", "armel", "i386", "i686", "armv7l", "armv6l", "armv7", "armv6", "mipsel":
		return 32, true
	}
	return 0, false
}

func userland(r *result.Result) string {
	if r.Info == nil {
		return ""
	}
	u := r.Info.OS.Userland
	s := u.Arch
	bits := u.Bits
	if b, ok := archBits(strings.ToLower(strings.TrimSpace(u.Arch))); bits == nil && ok {
		bits = &b
	}
	if bits != nil {
		s = strings.TrimSpace(s + " (" + strconv.Itoa(*bits) + "-bit)")
	}
	if r.Info.OS.MixedArch {
		s += ", kernel of other bitness"
	}
	return s
}

func tool(r *result.Result, names ...string) string {
	for _, t := range r.Tools {
		if slices.Contains(names, strings.ToLower(t.Name)) && t.Version != "" {
			return t.Version
		}
	}
	return ""
}

func governors(r *result.Result) string {
	if r.Info == nil {
		return ""
	}
	var parts []string
	for _, c := range r.Info.CPU.Clusters {
		if c.Governor != "" && !slices.Contains(parts, c.Governor) {
			parts = append(parts, c.Governor)
		}
	}
	s := strings.Join(parts, ", ")
	for _, ch := range r.Tuning.Changed {
		if strings.Contains(ch, "governor") {
			s = strings.TrimPrefix(s+"; set: "+ch, "; ")
		}
	}
	return s
}

func clocks(r *result.Result) string {
	var parts []string
	for _, v := range r.Summary.ClockMHz {
		parts = append(parts, fmt.Sprintf("%s %.0f MHz", coreName(v.Core, v.CPU), v.Value))
	}
	return strings.Join(parts, ", ")
}

// ClockToleranceMHz and ClockTolerancePct: two measured clocks closer
// than the larger of the two are the same condition (measurement noise,
// not a different clock).
const (
	ClockToleranceMHz = 10.0
	ClockTolerancePct = 1.0
)

// sameClocks reports whether a and b measured the same clocks: the same
// CPUs or core types, in the same order, each within the tolerance.
func sameClocks(a, b *result.Result) bool {
	ca, cb := a.Summary.ClockMHz, b.Summary.ClockMHz
	if len(ca) != len(cb) || len(ca) == 0 {
		return len(ca) == len(cb) && clocks(a) == clocks(b)
	}
	for i := range ca {
		if coreName(ca[i].Core, ca[i].CPU) != coreName(cb[i].Core, cb[i].CPU) || !SameClock(ca[i].Value, cb[i].Value) {
			return false
		}
	}
	return true
}

// SameClock reports whether two measured clocks (MHz) differ by less than
// ClockToleranceMHz or ClockTolerancePct of the larger.
func SameClock(a, b float64) bool {
	tol := max(ClockToleranceMHz, max(a, b)*ClockTolerancePct/100)
	return math.Abs(a-b) < tol
}

// coreName names the CPU of a figure: its core type or the source's own
// label ("big core"), else "cpu4", else "unknown CPU" for a CPU the
// source did not name (a negative number: an imported log's).
func coreName(core string, cpu int) string {
	switch {
	case core != "":
		return core
	case cpu < 0:
		return "unknown CPU"
	}
	return "cpu" + strconv.Itoa(cpu)
}

// relativeCores are labels an imported log gives a CPU that say where it
// stands in its own machine, not its core type: one board's "little core"
// may be another's big one.
var relativeCores = []string{"big core", "little core", "middle core"}

// coreType returns the core type v was measured on: its own when it names
// one, else that of its CPU in r's machine description, else the only core
// type r's machine has; "" when not known.
func coreType(r *result.Result, v result.Value) string {
	if v.Core != "" && !slices.Contains(relativeCores, strings.ToLower(v.Core)) {
		return v.Core
	}
	if r.Info == nil {
		return ""
	}
	var types []string
	for _, cl := range r.Info.CPU.Clusters {
		if v.CPU >= 0 && slices.Contains(cl.CPUs, v.CPU) {
			return cl.Core
		}
		if !slices.Contains(types, cl.Core) {
			types = append(types, cl.Core)
		}
	}
	if len(types) == 1 {
		return types[0] // "" when that one is unknown
	}
	return ""
}

// valueLabel is the label of v's row: its core type when known, else
// coreName.
func valueLabel(r *result.Result, v result.Value) string {
	if c := coreType(r, v); c != "" {
		return c
	}
	return coreName(v.Core, v.CPU)
}

// otherLabel names a headline figure of another command that has no
// self-explaining name, and its unit; ok is false for the other figures.
func otherLabel(figure string) (name, unit string, ok bool) {
	if figure == "cpuminer_khs" {
		return "cpuminer scrypt hash rate", "kH/s", true
	}
	return "", "", false
}

func throttling(r *result.Result) string {
	for _, f := range r.Findings {
		if f.ID == "throttling" {
			return "yes"
		}
	}
	if r.Status == result.StatusComplete {
		return "no"
	}
	return ""
}

func findings(r *result.Result) string {
	ids := []string{}
	for _, f := range r.Findings {
		if !slices.Contains(ids, f.ID) {
			ids = append(ids, f.ID)
		}
	}
	slices.Sort(ids)
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// perCore are the per-core-type figures of the run summary.
var perCore = []struct {
	key, name, unit string
	of              func(s result.Summary) []result.Value
}{
	{"sevenzip_single_mips", "7-Zip single-threaded", "MIPS", func(s result.Summary) []result.Value { return s.SevenZipSingleMIPS }},
	{"aes256_16k", "AES-256-CBC 16 KiB", "kB/s", func(s result.Summary) []result.Value { return s.AES256At16K }},
	{"memcpy_mb_s", "memcpy", "MB/s", func(s result.Summary) []result.Value { return s.MemcpyMBs }},
	{"memset_mb_s", "memset", "MB/s", func(s result.Summary) []result.Value { return s.MemsetMBs }},
	{"clock_mhz", "clock measured", "MHz", func(s result.Summary) []result.Value { return s.ClockMHz }},
}

// known are the summary fields the figures above cover; the flattened
// figures of other fields are listed by name.
var known = []string{"sevenzip_multi_mips", "sevenzip_multi_mips_undisturbed", "sevenzip_single_mips", "aes256_16k",
	"memcpy_mb_s", "memset_mb_s", "clock_mhz", "clock_all_disturbed_mhz", "sweep", "workloads"}

func figures(in []Input) []Figure {
	n := len(in)
	var out []Figure
	// The 7-Zip multi-threaded headline with the spread of its runs.
	multi := Figure{Key: "sevenzip_multi_mips", Name: "7-Zip multi-threaded", Unit: "MIPS", Values: make([]*float64, n), SpreadPct: make([]*float64, n)}
	for i, x := range in {
		multi.Values[i] = x.Result.Summary.SevenZipMultiHeadline()
		multi.SpreadPct[i] = spread(x.Result.Summary.SevenZipMultiRuns)
	}
	if anyValue(multi.Values) {
		out = append(out, multi)
	}
	byRole := matchByRole(in)
	roles := make([]map[string]string, n)
	for i, x := range in {
		roles[i] = coreRoles(x.Result)
	}
	for _, pc := range perCore {
		keys := []string{}
		vals := map[string][]*float64{}
		labels := map[string]string{}
		names := map[string][]string{}
		for i, x := range in {
			seen := map[string]int{}
			for _, v := range pc.of(x.Result.Summary) {
				core, label := coreType(x.Result, v), valueLabel(x.Result, v)
				// Match by core type (by role when the results' core
				// types differ), then by position within it; a figure of
				// unknown core type is this result's alone.
				match := core
				if core == "" {
					match = label + "@" + strconv.Itoa(i+1)
				} else if byRole {
					match, label = "role:"+roles[i][core], roles[i][core]+" core type"
				}
				seen[match]++
				key := match
				if seen[match] > 1 {
					key += " #" + strconv.Itoa(seen[match])
					label += " #" + strconv.Itoa(seen[match])
				}
				if vals[key] == nil {
					vals[key] = make([]*float64, n)
					keys = append(keys, key)
					labels[key] = label
				}
				val := v.Value
				vals[key][i] = &val
				if byRole && core != "" && !slices.Contains(names[key], core) {
					names[key] = append(names[key], core)
				}
			}
		}
		for _, k := range keys {
			f := Figure{Key: pc.key + "/" + k, Name: pc.name, Core: labels[k], Unit: pc.unit, Values: vals[k], SpreadPct: make([]*float64, n)}
			if len(names[k]) > 0 {
				f.Core += " (" + strings.Join(names[k], " | ") + ")"
				f.Role = strings.TrimPrefix(strings.SplitN(k, " #", 2)[0], "role:")
			}
			out = append(out, f)
		}
	}
	// The storage tables, cell by cell.
	out = append(out, storageFigures(in)...)
	// The sweep rows, matched by clock (sweepFigures).
	out = append(out, sweepFigures(in)...)
	// The workloads of run --workloads (workloadFigures).
	out = append(out, workloadFigures(in)...)
	// Every other headline figure of any command, by name.
	other := map[string][]*float64{}
	for i, x := range in {
		doc := x.Doc
		if doc == nil {
			doc, _ = result.Marshal(x.Result)
		}
		for name, v := range store.Figures(doc) {
			if isKnown(name) {
				continue
			}
			if other[name] == nil {
				other[name] = make([]*float64, n)
			}
			val := v
			other[name][i] = &val
		}
	}
	for _, name := range slices.Sorted(maps.Keys(other)) {
		f := Figure{Key: name, Name: name, Values: other[name], SpreadPct: make([]*float64, n)}
		if label, unit, ok := otherLabel(name); ok {
			f.Name, f.Unit = label, unit
		}
		out = append(out, f)
	}
	noise := largestSpreads(out)
	for i := range out {
		changes(&out[i], noise)
	}
	return out
}

func isKnown(name string) bool {
	for _, k := range known {
		if name == k || strings.HasPrefix(name, k+".") {
			return true
		}
	}
	return false
}

func anyValue(vs []*float64) bool {
	return slices.ContainsFunc(vs, func(v *float64) bool { return v != nil })
}

// spread is (max-min)/mean of runs in percent; nil with fewer than two.
func spread(runs []float64) *float64 {
	if len(runs) < 2 {
		return nil
	}
	lo, hi, sum := runs[0], runs[0], 0.0
	for _, v := range runs {
		lo, hi, sum = min(lo, v), max(hi, v), sum+v
	}
	mean := sum / float64(len(runs))
	if mean <= 0 {
		return nil
	}
	s := math.Round((hi-lo)/mean*100*100) / 100
	return &s
}

// DefaultSpreadPct is the least change, in percent, that marks a figure
// whose results record no spread of its own (AES, memcpy, a storage
// cell): repeated standard runs of one board under boardbench's
// validation differ by a few percent, so a smaller change is not told
// from noise.
const DefaultSpreadPct = 5.0

// largestSpreads returns, per result, the largest spread any of its
// figures records (nil where none does).
func largestSpreads(figs []Figure) []*float64 {
	if len(figs) == 0 {
		return nil
	}
	out := make([]*float64, len(figs[0].SpreadPct))
	for _, f := range figs {
		for i, s := range f.SpreadPct {
			if s != nil && (out[i] == nil || *s > *out[i]) {
				v := *s
				out[i] = &v
			}
		}
	}
	return out
}

// spreadLimit is the change figure f's result i must pass to be marked:
// the larger of the two results' spreads of f; when neither records one,
// the larger of DefaultSpreadPct and the largest spread any figure of the
// two results records (noise): a figure measured once is as noisy as the
// noisiest figure measured several times, and at least DefaultSpreadPct.
func spreadLimit(f *Figure, i int, noise []*float64) float64 {
	a, b := f.SpreadPct[0], f.SpreadPct[i]
	if a != nil || b != nil {
		limit := 0.0
		if a != nil {
			limit = *a
		}
		if b != nil {
			limit = max(limit, *b)
		}
		return limit
	}
	limit := DefaultSpreadPct
	for _, j := range []int{0, i} {
		if j < len(noise) && noise[j] != nil {
			limit = max(limit, *noise[j])
		}
	}
	return limit
}

// changes fills the change against the first result and the marks.
func changes(f *Figure, noise []*float64) {
	n := len(f.Values)
	f.ChangePct = make([]*float64, n)
	f.BeyondSpread = make([]bool, n)
	f.LimitPct = make([]*float64, n)
	base := f.Values[0]
	for i := 1; i < n; i++ {
		v := f.Values[i]
		if base == nil || v == nil || *base == 0 {
			continue
		}
		c := math.Round((*v-*base) / *base * 100 * 100) / 100
		f.ChangePct[i] = &c
		limit := spreadLimit(f, i, noise)
		f.LimitPct[i] = &limit
		f.BeyondSpread[i] = math.Abs(c) > limit
	}
}

// sevenZipVersions marks the 7-Zip figures (the multi- and
// single-threaded ratings, a sweep's MIPS and MIPS/W) of each result whose
// 7-Zip version differs from the first result's as not comparable: 7-Zip's
// rating changes between versions, so a change would be the versions'. It
// returns the notes that say so. An unknown version is not a difference.
func sevenZipVersions(in []Input, figs []Figure) []string {
	base := sevenZipVersion(in[0].Result)
	var notes []string
	for i := 1; i < len(in); i++ {
		v := sevenZipVersion(in[i].Result)
		if base == "" || v == "" || v == base {
			continue
		}
		marked := false
		for k := range figs {
			f := &figs[k]
			if !isSevenZipFigure(f.Key) || f.Values[i] == nil {
				continue
			}
			if f.NotComparable == nil {
				f.NotComparable = make([]bool, len(in))
			}
			f.NotComparable[i], marked = true, true
			f.ChangePct[i], f.BeyondSpread[i], f.LimitPct[i] = nil, false, nil
		}
		if marked {
			notes = append(notes, fmt.Sprintf("%s ran 7-Zip %s, the first result 7-Zip %s: 7-Zip's ratings change between versions, so its figures are not comparable (no change is computed)",
				in[i].Label, v, base))
		}
	}
	return notes
}

func sevenZipVersion(r *result.Result) string { return tool(r, "7zip", "7z", "7zz", "7za", "p7zip") }

func isSevenZipFigure(key string) bool {
	return strings.HasPrefix(key, "sevenzip_") || strings.HasPrefix(key, "sweep.mips/") || strings.HasPrefix(key, "sweep.mips_per_w/")
}
