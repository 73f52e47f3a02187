package sevenzip

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/testutil/shareddata"
)

// logBlock is one 7-Zip benchmark run cut out of a log.
type logBlock struct {
	line int    // line number of the banner, 1-based
	text string // banner to Tot: line
}

// extractBlocks cuts every 7-Zip benchmark run out of a log, independently
// of the parser: from the "7-Zip ... Igor Pavlov" banner to the "Tot:" line.
func extractBlocks(log string) []logBlock {
	var blocks []logBlock
	var cur []string
	start := 0
	for i, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "7-Zip") && strings.Contains(line, "Igor Pavlov") {
			cur, start = []string{line}, i+1
			continue
		}
		if cur == nil {
			continue
		}
		cur = append(cur, line)
		if strings.HasPrefix(line, "Tot:") {
			blocks = append(blocks, logBlock{line: start, text: strings.Join(cur, "\n")})
			cur = nil
		}
	}
	return blocks
}

var (
	summaryListRE = regexp.MustCompile(`^(Total|Compression|Decompression): (\d+(?:,\d+)*)\s*$`)
	mipsLineRE    = regexp.MustCompile(`7-zip MIPS \((\d+) consecutive runs\): ([\d, ]+) \((\d+) avg\), single-threaded: (\d+)`)
)

func parseList(s string) []int64 {
	var out []int64
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err == nil {
			out = append(out, v)
		}
	}
	return out
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestSbcBenchLogs parses every 7-Zip benchmark run in the reference logs
// and checks the figures against the summaries each log prints:
//
//   - "Total: a,b,c" lists the Tot ratings of the multi-threaded runs just
//     before it; "Compression:" and "Decompression:" their Avr ratings.
//   - "7-zip MIPS (3 consecutive runs): a, b, c (m avg), single-threaded: s"
//     repeats those ratings, their mean (rounded to 10) and the highest Tot
//     rating of the single-threaded runs.
//   - the one-line summary table row "| board | clock | kernel | distro |
//     7-zip | ..." carries the mean multi-threaded rating rounded to 10.
func TestSbcBenchLogs(t *testing.T) {
	var blocksTotal, summariesChecked, mipsLinesChecked, tableRowsChecked int
	versions := map[string]int{}
	for _, l := range shareddata.Logs(t) {
		name, log := l.Name, l.Text
		blocks := extractBlocks(log)
		if strings.Count(log, "Igor Pavlov") != len(blocks) {
			t.Errorf("%s: %d banners but %d complete runs cut out", name, strings.Count(log, "Igor Pavlov"), len(blocks))
		}
		type parsed struct {
			endLine int
			r       *Result
		}
		var runs []parsed
		for _, b := range blocks {
			r, err := Parse(b.text)
			if err != nil {
				t.Errorf("%s:%d: %v", name, b.line, err)
				continue
			}
			blocksTotal++
			versions[r.Version]++
			checkConsistent(t, name, b.line, r)
			runs = append(runs, parsed{endLine: b.line + strings.Count(b.text, "\n"), r: r})
		}
		if all, err := ParseAll(log); len(blocks) > 0 && (err != nil || len(all) != len(blocks)) {
			t.Errorf("%s: ParseAll found %d runs (%v), want %d", name, len(all), err, len(blocks))
		}

		lines := strings.Split(log, "\n")
		var multiMean float64
		var haveMulti bool
		for i, line := range lines {
			if m := summaryListRE.FindStringSubmatch(line); m != nil {
				want := parseList(m[2])
				var before []*Result
				for _, p := range runs {
					if p.endLine <= i {
						before = append(before, p.r)
					}
				}
				if len(before) < len(want) {
					t.Errorf("%s:%d: %q lists %d runs, only %d before it", name, i+1, line, len(want), len(before))
					continue
				}
				before = before[len(before)-len(want):]
				for k, w := range want {
					var got int64
					switch m[1] {
					case "Total":
						got = before[k].Total.RatingMIPS
					case "Compression":
						got = before[k].Average.Compress.RatingMIPS
					case "Decompression":
						got = before[k].Average.Decompress.RatingMIPS
					}
					if got != w {
						t.Errorf("%s:%d: %s run %d: parsed %d, log summary %d", name, i+1, m[1], k+1, got, w)
					}
				}
				// On single-core boards the only run is single-threaded and
				// the table's 7-zip column is not derived from it.
				if m[1] == "Total" && before[0].BenchmarkThreads != nil && *before[0].BenchmarkThreads > 1 {
					var sum float64
					for _, w := range want {
						sum += float64(w)
					}
					multiMean, haveMulti = sum/float64(len(want)), true
				}
				summariesChecked++
			}
			if m := mipsLineRE.FindStringSubmatch(line); m != nil {
				mipsLinesChecked++
				ratings := parseList(m[2])
				avg, _ := strconv.ParseFloat(m[3], 64)
				single, _ := strconv.ParseInt(m[4], 10, 64)
				if !haveMulti || abs(avg-multiMean) > 10 {
					t.Errorf("%s:%d: avg %v vs mean of parsed multi-threaded ratings %v", name, i+1, avg, multiMean)
				}
				if len(ratings) < 1 {
					t.Errorf("%s:%d: no ratings in %q", name, i+1, line)
				}
				var best int64
				for _, p := range runs {
					if p.r.BenchmarkThreads != nil && *p.r.BenchmarkThreads == 1 && p.r.Total.RatingMIPS > best {
						best = p.r.Total.RatingMIPS
					}
				}
				if best != single {
					t.Errorf("%s:%d: single-threaded %d in summary, best parsed single-threaded Tot %d", name, i+1, single, best)
				}
			}
		}
		if row := shareddata.SummaryRow(log); row != nil && haveMulti {
			tableRowsChecked++
			v, err := strconv.ParseFloat(row[4], 64)
			if err != nil || abs(v-multiMean) > 10 {
				t.Errorf("%s: summary table 7-zip column %q, mean of parsed multi-threaded ratings %.1f", name, row[4], multiMean)
			}
		}
	}
	t.Logf("7-Zip runs parsed: %d (versions %v); Total/Compression/Decompression lines: %d; MIPS lines: %d; table rows: %d",
		blocksTotal, versions, summariesChecked, mipsLinesChecked, tableRowsChecked)
	// The reference data holds about a thousand runs; make sure the test
	// really covered them rather than passing on nothing.
	if blocksTotal < 500 || summariesChecked < 300 || mipsLinesChecked < 20 || tableRowsChecked < 100 {
		t.Errorf("too little covered: %d runs, %d summaries, %d MIPS lines, %d table rows", blocksTotal, summariesChecked, mipsLinesChecked, tableRowsChecked)
	}
}

// checkConsistent checks a parsed run against itself: the Tot rating is the
// mean of the Avr compression and decompression ratings, and each Avr
// rating is the mean of its rows (7-Zip rounds each, so ±1).
func checkConsistent(t *testing.T, name string, line int, r *Result) {
	t.Helper()
	if r.Total.RatingMIPS <= 0 || r.Total.RUMIPS <= 0 || r.Total.UsagePct <= 0 {
		t.Errorf("%s:%d: Tot %+v not positive", name, line, r.Total)
	}
	if len(r.Rows) == 0 || r.Average == nil || r.Version == "" || r.BenchmarkThreads == nil || r.RAMSizeBytes == nil || len(r.Notes) > 0 {
		t.Errorf("%s:%d: incomplete: %d rows, avr %v, version %q, threads %v, RAM %v, notes %v", name, line, len(r.Rows), r.Average, r.Version, r.BenchmarkThreads, r.RAMSizeBytes, r.Notes)
		return
	}
	mid := float64(r.Average.Compress.RatingMIPS+r.Average.Decompress.RatingMIPS) / 2
	if abs(mid-float64(r.Total.RatingMIPS)) > 1 {
		t.Errorf("%s:%d: Tot rating %d is not the mean of Avr ratings %d and %d", name, line, r.Total.RatingMIPS, r.Average.Compress.RatingMIPS, r.Average.Decompress.RatingMIPS)
	}
	var c, d float64
	for _, row := range r.Rows {
		c += float64(row.Compress.RatingMIPS)
		d += float64(row.Decompress.RatingMIPS)
	}
	n := float64(len(r.Rows))
	if abs(c/n-float64(r.Average.Compress.RatingMIPS)) > 1 || abs(d/n-float64(r.Average.Decompress.RatingMIPS)) > 1 {
		t.Errorf("%s:%d: Avr ratings %d/%d are not the means of the rows %.1f/%.1f", name, line, r.Average.Compress.RatingMIPS, r.Average.Decompress.RatingMIPS, c/n, d/n)
	}
}
