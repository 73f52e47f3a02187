// Package published compares imported sbc-bench result logs with the
// published results table of the bash tool (the table the user downloads;
// it is not part of boardbench): it reads the table's rows, finds each
// row's log by the id its link names, and checks, figure by figure, that
// the figures boardbench imported from the log agree with the row to the
// table's rounding. scripts/compare-published.sh runs it; docs/import.md
// gives the agreement reached.
package published

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/report/mdrow"
	"boardbench/internal/result"
	"boardbench/internal/sbcimport"
)

// Row is one row of the published table.
type Row struct {
	// ID is the log's id, from the row's link: the file name without
	// ".txt" of "results/ID.txt", "http://ix.io/ID" or "sprunge.us/ID".
	ID string
	// Device is the first cell's link text.
	Device string
	// Cells are the row's cells, trimmed, in the table's order.
	Cells []string
	// Line is the row's line number in the table (from 1).
	Line int
}

// The columns of the table (its current ten-column layout).
const (
	colClock  = 1
	colMulti  = 4
	colSingle = 5
	colAES    = 6
	colMemcpy = 7
	colMemset = 8
)

var (
	reLink = regexp.MustCompile(`^\[(.*)\]\(\s*([^)]*?)\s*\)`)
	reNum  = regexp.MustCompile(`\d+(?:\.\d+)?`)
)

// ParseTable reads the rows of the table's markdown that link a log. The
// table's header must name the columns this package compares, in their
// current order; rows of another width are skipped.
func ParseTable(r io.Reader) ([]Row, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var rows []Row
	header := false
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := splitRow(line)
		if !header {
			if len(cells) == 10 && strings.EqualFold(cells[0], "Device / details") {
				want := strings.Split(strings.Trim(mdrow.Header, "| "), " | ")
				if !slices.Equal(cells, want) {
					return nil, fmt.Errorf("line %d: the table's columns are %q, not %q", n, cells, want)
				}
				header = true
			}
			continue
		}
		if len(cells) != 10 {
			continue
		}
		m := reLink.FindStringSubmatch(cells[0])
		if m == nil {
			continue
		}
		id := LogID(m[2])
		if id == "" {
			continue
		}
		rows = append(rows, Row{ID: id, Device: m[1], Cells: cells, Line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !header {
		return nil, fmt.Errorf("no results table: no header line starting %q", "| Device / details |")
	}
	return rows, nil
}

// splitRow returns the trimmed cells of "| a | b |".
func splitRow(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(line, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

// LogID returns the log id a link names: the last path element without a
// ".txt" suffix ("results/4a5U.txt" and "http://ix.io/4a5U" give "4a5U");
// "" when it names none.
func LogID(link string) string {
	link = strings.TrimSpace(link)
	if i := strings.IndexAny(link, "?#"); i >= 0 {
		link = link[:i]
	}
	id := strings.TrimSuffix(path.Base(strings.TrimSuffix(link, "/")), ".txt")
	if id == "." || id == "/" || id == "" {
		return ""
	}
	return id
}

// Figure names, in the order they are reported.
var Figures = []string{"7-zip multi", "7-zip single", "AES", "memcpy", "memset", "clock"}

// Outcome of one figure of one row.
type Outcome struct {
	Figure string
	// Table is the table's cell, Imported what boardbench imported,
	// formatted alike; Agrees whether they agree; Compared false when the
	// table has no figure (then Agrees is false too). A figure the table
	// has and the import has not is compared and disagrees.
	Table, Imported  string
	Compared, Agrees bool
	// Alternative names the other statistic of the same runs that agrees
	// where the figure's own statistic does not (7-zip multi: the best
	// run; AES: the highest or the mean of all single-threaded runs);
	// "" when none is tried or none agrees.
	Alternative string
	// Note says how the figure was compared or why not.
	Note string
}

// AgreesEither reports whether the figure or one of its alternative
// statistics agrees.
func (o Outcome) AgreesEither() bool { return o.Agrees || o.Alternative != "" }

// ClockTolerance is how far (relative) an imported clock may lie from the
// table's and still agree: the table's clocks are partly edited by hand.
const ClockTolerance = 0.02

// Compare checks the figures of r, the imported result of row's log,
// against the row.
func Compare(row Row, r *result.Result) []Outcome {
	s := r.Summary
	var out []Outcome
	multi := compareNumber("7-zip multi", row.Cells[colMulti], multiMean(r))
	tryAlternative(&multi, "best run", best(s.SevenZipMultiRuns))
	out = append(out, multi)
	out = append(out, compareNumber("7-zip single", row.Cells[colSingle], maxValue(s.SevenZipSingleMIPS)))
	aes := compareNumber("AES", row.Cells[colAES], maxValue(s.AES256At16K))
	runs := aesRuns(r)
	tryAlternative(&aes, "highest run", best(runs))
	tryAlternative(&aes, "mean of all runs", mean(runs))
	out = append(out, aes)
	out = append(out, compareNumber("memcpy", row.Cells[colMemcpy], maxValue(s.MemcpyMBs)))
	out = append(out, compareNumber("memset", row.Cells[colMemset], maxValue(s.MemsetMBs)))
	out = append(out, compareClock(row.Cells[colClock], measuredClocks(s.ClockMHz)))
	return out
}

// measuredClocks formats the measured clock of each cluster, highest first
// ("2352/1800 MHz"), as the table lists the clusters of a big.LITTLE
// machine: clusters within 2% of a faster one's clock are listed once, as
// the table does; "" when none was measured. The table shows either the cpufreq
// maxima or, where they differ by more than 2% or by hand, the measured
// clocks: within 2%, the measured clock agrees with both.
func measuredClocks(vs []result.Value) string {
	var mhz []float64
	for _, v := range vs {
		if v.Value > 0 {
			mhz = append(mhz, math.Round(v.Value))
		}
	}
	if len(mhz) == 0 {
		return ""
	}
	slices.SortFunc(mhz, func(a, b float64) int { return cmp.Compare(b, a) })
	var parts []string
	last := math.Inf(1)
	for _, v := range mhz {
		if !math.IsInf(last, 1) && last-v <= ClockTolerance*last {
			continue // another cluster at the same clock (RK3588's two A76 clusters)
		}
		parts = append(parts, strconv.FormatFloat(v, 'f', -1, 64))
		last = v
	}
	return strings.Join(parts, "/") + " MHz"
}

// tryAlternative notes the alternative statistic v when the figure's own
// disagrees and v agrees.
func tryAlternative(o *Outcome, name string, v *float64) {
	if !o.Compared || o.Agrees || o.Alternative != "" || v == nil {
		return
	}
	if alt := compareNumber(o.Figure, o.Table, v); alt.Agrees {
		o.Alternative = fmt.Sprintf("%s %s", name, alt.Imported)
	}
}

// aesRuns are the AES-256-CBC figures at 16 KiB of every single-threaded
// openssl run of the import (one phase per run).
func aesRuns(r *result.Result) []float64 {
	var out []float64
	for _, p := range r.Phases {
		if p.Name != result.PhaseOpenSSL || len(p.Figures) == 0 {
			continue
		}
		var f result.OpenSSLFigures
		if json.Unmarshal(p.Figures, &f) != nil || f.Core == sbcimport.ParallelCore {
			continue
		}
		if v := f.KBs("aes-256-cbc", 16384); v != nil {
			out = append(out, *v)
		}
	}
	return out
}

func best(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	m := slices.Max(vs)
	return &m
}

func mean(vs []float64) *float64 {
	if len(vs) == 0 {
		return nil
	}
	var sum float64
	for _, v := range vs {
		sum += v
	}
	m := sum / float64(len(vs))
	return &m
}

// multiMean is the mean of the multi-threaded 7-Zip runs the table shows
// (all runs, as the log's row takes them); with one CPU, the
// single-threaded score.
func multiMean(r *result.Result) *float64 {
	s := r.Summary
	if len(s.SevenZipMultiRuns) > 0 {
		var sum float64
		for _, v := range s.SevenZipMultiRuns {
			sum += v
		}
		m := sum / float64(len(s.SevenZipMultiRuns))
		return &m
	}
	if s.SevenZipMultiMIPS != nil {
		return s.SevenZipMultiMIPS
	}
	if r.Info != nil && len(r.Info.CPU.CPUs) == 1 {
		return maxValue(s.SevenZipSingleMIPS)
	}
	return nil
}

func maxValue(vs []result.Value) *float64 {
	var best *float64
	for _, v := range vs {
		if v.Value > 0 && (best == nil || v.Value > *best) {
			x := v.Value
			best = &x
		}
	}
	return best
}

// tableNumber is the first number of a table cell ("42500 &ast;98560"
// gives 42500), with the step it was rounded to as its trailing zeros show
// it: 10 for "14820", 100 for "644200" (the oldest rows), 1 for "7469";
// steps above 10 only where they are at most 1% of the value (a memcpy
// of "2000" is taken to 10).
// ok is false for "-" and cells without a number.
func tableNumber(cell string) (v, step float64, ok bool) {
	cell = strings.ReplaceAll(cell, "*", "")
	m := reNum.FindString(cell)
	if m == "" {
		return 0, 0, false
	}
	v, err := strconv.ParseFloat(m, 64)
	if err != nil || v <= 0 {
		return 0, 0, false
	}
	step = 1
	if !strings.Contains(m, ".") && math.Mod(v, 10) == 0 {
		step = 10
		for math.Mod(v, step*10) == 0 && step*10 <= v/100 {
			step *= 10
		}
	}
	return v, step, true
}

// compareNumber: the imported value agrees when rounded or truncated to
// the table's step it gives the table's number.
func compareNumber(name, cell string, imported *float64) Outcome {
	o := Outcome{Figure: name, Table: cell, Imported: "-"}
	if imported != nil {
		o.Imported = strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(*imported, 'f', 2, 64), "0"), ".")
	}
	t, step, ok := tableNumber(cell)
	switch {
	case !ok:
		o.Note = "no figure in the table"
		return o
	}
	o.Compared = true // the table has a figure: one not imported disagrees
	if imported == nil {
		o.Note = "not imported"
		return o
	}
	rounded := math.Round(*imported/step) * step
	truncated := math.Trunc(*imported/step) * step
	o.Agrees = rounded == t || truncated == t
	if step > 1 {
		o.Note = fmt.Sprintf("to %g", step)
	}
	return o
}

// clockNumbers are the MHz figures of a clock cell ("2400/1800 MHz",
// "~2290", "2980/? MHz"); NaN for "?".
func clockNumbers(cell string) []float64 {
	cell = strings.TrimSpace(cell)
	if i := strings.Index(cell, "("); i >= 0 {
		cell = cell[:i] // "(throttled)"
	}
	var out []float64
	for _, part := range strings.Split(cell, "/") {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "?") {
			out = append(out, math.NaN())
			continue
		}
		if m := reNum.FindString(part); m != "" {
			v, _ := strconv.ParseFloat(m, 64)
			out = append(out, v)
		}
	}
	return out
}

// compareClock: the clocks agree when both list as many clusters and,
// highest first, each lies within ClockTolerance of the table's (a "?" in
// the table matches anything).
func compareClock(cell, imported string) Outcome {
	o := Outcome{Figure: "clock", Table: cell, Imported: imported}
	t, got := clockNumbers(cell), clockNumbers(imported)
	switch {
	case len(t) == 0:
		o.Note = "no clock in the table"
		return o
	}
	o.Compared = true
	if len(got) == 0 {
		o.Note = "not imported"
		return o
	}
	if len(t) != len(got) {
		o.Note = fmt.Sprintf("%d clock(s) in the table, %d imported", len(t), len(got))
		return o
	}
	slices.SortFunc(t, func(a, b float64) int {
		if math.IsNaN(a) || math.IsNaN(b) {
			return 0
		}
		return cmp.Compare(b, a)
	})
	for i := range t {
		if math.IsNaN(t[i]) {
			continue
		}
		if math.Abs(got[i]-t[i]) > ClockTolerance*t[i] {
			o.Note = "beyond 2%"
			return o
		}
	}
	o.Agrees = true
	return o
}
