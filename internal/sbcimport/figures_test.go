package sbcimport

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/testutil/shareddata"
)

// printedFigures are the figures a log prints, read by the test's own
// means, independent of the parser.
type printedFigures struct {
	aes            []float64 // aes-256-cbc at 16 KiB, single-threaded runs
	memcpy, memset []float64
	tots           []float64 // every 7-Zip Tot: rating
	// topClocks: per clock check, the clock measured at its highest OPP
	// (whatever order the log lists the OPPs in; the median where it lists
	// samples only), and those measured without cpufreq
	topClocks []float64
}

var (
	reFigOPP      = regexp.MustCompile(`^Cpufreq OPP:\s*(\d+)\s+(?:ThreadX:\s*\d+\s+)?Measured:\s*([\d./]+)`)
	reFigNoCpufrq = regexp.MustCompile(`^No cpufreq support available\. Measured on cpu\d+:\s*([\d./]+)`)
	reFigMem      = regexp.MustCompile(`^ (libc memcpy copy|libc memset fill|standard memcpy|standard memset)\s+:\s+([\d.]+) MB/s`)
	reFigTot      = regexp.MustCompile(`^Tot:\s+\S+\s+\S+\s+(\d+)`)
)

func readPrinted(text string) printedFigures {
	var pf printedFigures
	opp, top := -1.0, 0.0
	flush := func() {
		if opp >= 0 {
			pf.topClocks = append(pf.topClocks, top)
		}
		opp = -1
	}
	for _, line := range strings.Split(text, "\n") {
		if m := reFigOPP.FindStringSubmatch(line); m != nil {
			o, _ := strconv.ParseFloat(m[1], 64)
			v := measuredOf(m[2])
			if o > opp {
				opp, top = o, v
			}
			continue
		}
		flush()
		switch f := strings.Fields(line); {
		case reFigNoCpufrq.MatchString(line):
			pf.topClocks = append(pf.topClocks, measuredOf(reFigNoCpufrq.FindStringSubmatch(line)[1]))
		case len(f) >= 7 && f[0] == "aes-256-cbc" && !strings.Contains(line, "fully parallel"):
			if v, err := strconv.ParseFloat(strings.TrimSuffix(f[6], "k"), 64); err == nil {
				pf.aes = append(pf.aes, v)
			}
		case reFigMem.MatchString(line):
			m := reFigMem.FindStringSubmatch(line)
			v, _ := strconv.ParseFloat(m[2], 64)
			if strings.Contains(m[1], "memcpy") {
				pf.memcpy = append(pf.memcpy, v)
			} else {
				pf.memset = append(pf.memset, v)
			}
		case reFigTot.MatchString(line):
			v, _ := strconv.ParseFloat(reFigTot.FindStringSubmatch(line)[1], 64)
			pf.tots = append(pf.tots, v)
		}
	}
	flush()
	return pf
}

// measuredOf reads "1795" or, in the oldest logs, samples
// "1414.085/1414.317/1414.271" (their median).
func measuredOf(s string) float64 {
	var samples []float64
	for _, f := range strings.Split(s, "/") {
		x, _ := strconv.ParseFloat(f, 64)
		samples = append(samples, x)
	}
	slices.Sort(samples)
	if len(samples)%2 == 0 {
		return (samples[len(samples)/2-1] + samples[len(samples)/2]) / 2
	}
	return samples[len(samples)/2]
}

func values(vs []result.Value) []float64 {
	var out []float64
	for _, v := range vs {
		out = append(out, v.Value)
	}
	return out
}

// TestFiguresOfEveryLog checks the headline figures imported from every
// shared log against the figures the log prints: the measured clock of
// each cluster is the one at its check's highest OPP (the 0.4 and 0.5 logs
// list the lowest first), never 0; AES-256 is a single-threaded run's
// figure (or the mean of two runs on one cluster), never AES-128 or an
// extensive-mode parallel run; memcpy and memset are the runs' figures in
// order; 7-Zip single-threaded scores are runs' Tot: ratings.
func TestFiguresOfEveryLog(t *testing.T) {
	logs := shareddata.Logs(t)
	results := importAll(t)
	checked := map[string]int{}
	for _, lg := range logs {
		r := results[lg.Name]
		if r == nil {
			continue
		}
		pf := readPrinted(lg.Text)
		s := r.Summary
		t.Run(lg.Name, func(t *testing.T) {
			for _, v := range values(s.ClockMHz) {
				if v <= 0 || !slices.Contains(pf.topClocks, v) {
					t.Errorf("clock %v is not the clock measured at the highest OPP of a check %v", v, pf.topClocks)
				}
			}
			if len(s.ClockMHz) > 0 {
				checked["clock"]++
			}
			for _, v := range values(s.AES256At16K) {
				if !slices.Contains(pf.aes, v) && !meanOfTwo(pf.aes, v) {
					t.Errorf("AES-256 %v is none of the runs' %v", v, pf.aes)
				}
			}
			if len(pf.aes) > 0 {
				checked["aes"]++
				if len(s.AES256At16K) == 0 {
					t.Errorf("no AES-256 figure; the log prints %v", pf.aes)
				}
			}
			if got := values(s.MemcpyMBs); !slices.Equal(got, pf.memcpy) {
				t.Errorf("memcpy %v, the log prints %v", got, pf.memcpy)
			}
			if got := values(s.MemsetMBs); !slices.Equal(got, pf.memset) {
				t.Errorf("memset %v, the log prints %v", got, pf.memset)
			}
			if len(pf.memcpy) > 0 {
				checked["memory"]++
			}
			for _, v := range values(s.SevenZipSingleMIPS) {
				if !slices.Contains(pf.tots, v) {
					t.Errorf("7-Zip single %v is none of the runs' %v", v, pf.tots)
				}
			}
			if len(s.SevenZipSingleMIPS) > 0 {
				checked["7zip-single"]++
			}
		})
	}
	t.Logf("logs checked per figure: %v", checked)
	if checked["clock"] < 200 || checked["aes"] < 200 || checked["memory"] < 200 || checked["7zip-single"] < 150 {
		t.Errorf("too few logs checked: %v", checked)
	}
}

// meanOfTwo reports whether v is the mean (fractions dropped) of two of vs.
func meanOfTwo(vs []float64, v float64) bool {
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			if math.Floor((math.Trunc(vs[i])+math.Trunc(vs[j]))/2) == v {
				return true
			}
		}
	}
	return false
}
