package check_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/result"
	"boardbench/internal/sbcimport"
	"boardbench/internal/testutil/shareddata"
)

// A claim is something a finding (or the verdict) can assert or deny.
type claim struct {
	name            string
	asserts, denies *regexp.Regexp
}

// claims are the matters findings speak about. A result's findings and
// verdict must never assert and deny the same one.
var claims = []claim{
	{"throttling",
		regexp.MustCompile(`(?i)^throttl|\bthrottling:|clocks? dropped|while the clock fell|firmware reports frequency capping`),
		regexp.MustCompile(`(?i)\b(not|no) throttl|so not throttl|clock steady|without throttl`)},
	{"background activity",
		regexp.MustCompile(`(?i)background activity|other tasks (used|took)|interference|did not get the CPUs`),
		regexp.MustCompile(`(?i)no (other )?background activity|quiet machine:? no|nothing else ran`)},
	{"swapping",
		regexp.MustCompile(`(?i)\bswapped\b|swapping occur`),
		regexp.MustCompile(`(?i)no swapping|did not swap`)},
	// falling_scores says the runs fell in order; sevenzip_spread that
	// they are not in falling order: never both of the same runs.
	{"falling scores",
		regexp.MustCompile(`(?i)scores fell|in falling order`),
		regexp.MustCompile(`(?i)not in falling order|did not fall`)},
}

// texts renders a finding's statements one per line: title and evidence
// (advice gives directions, not statements about this run).
func texts(f finding.Finding) []string {
	return append([]string{f.Title}, f.Evidence...)
}

// contradictions returns the claims r both asserts and denies.
func contradictions(r *result.Result) []string {
	var out []string
	for _, c := range claims {
		var yes, no []string
		for _, f := range r.Findings {
			if f.Severity == finding.Info {
				continue
			}
			for _, s := range texts(f) {
				switch {
				case c.denies.MatchString(s):
					no = append(no, f.ID+": "+s)
				case c.asserts.MatchString(s):
					yes = append(yes, f.ID+": "+s)
				}
			}
		}
		if v := r.Summary.Verdict; c.denies.MatchString(v) {
			no = append(no, "verdict: "+v)
		}
		if len(yes) > 0 && len(no) > 0 {
			out = append(out, fmt.Sprintf("%s asserted (%s) and denied (%s)", c.name, yes[0], no[0]))
		}
	}
	return out
}

var t0 = time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)

func f64(v float64) *float64 { return &v }

// scenario builds a run of 7-Zip multi-threaded runs (totals, each with
// usage % of one thread) on a 2-CPU machine, with samples of the benchmark
// at own % and other tasks at foreign %, and a clock per sample when
// clock is set (nil: no cpufreq).
func scenario(t *testing.T, totals []float64, usage, own, foreign float64, clock func(i int) float64, tis []result.PolicyTime) *result.Result {
	f := result.SevenZipFigures{CPUs: []int{0, 1}, Threads: 2}
	for _, v := range totals {
		f.Runs = append(f.Runs, result.SevenZipRun{TotMIPS: f64(v), UsagePct: f64(usage)})
	}
	f.TotMIPS, f.DriftPct = result.MeanAndDrift(f.Runs)
	p := result.Phase{Name: result.PhaseSevenZipMulti, CPUs: []int{0, 1}, Status: result.PhaseOK}
	if err := p.SetFigures(f); err != nil {
		t.Fatal(err)
	}
	p.Samples = []result.Sample{{Time: t0}}
	for i := 1; i <= 20; i++ {
		s := result.Sample{Time: t0.Add(time.Duration(i) * time.Second), CPUPct: f64(own + foreign), WorkPct: f64(own), SysPct: f64(0.5), StealPct: f64(0), TempC: f64(50 + float64(i)/2)}
		if clock != nil {
			s.ClockMHz = []*float64{f64(clock(i))}
		}
		p.Samples = append(p.Samples, s)
	}
	p.TimeInState = tis
	r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{p}}
	check.Validate(r, check.Facts{NCPU: 2}, result.BuildSummary, nil)
	return r
}

// TestNoContradictions renders the findings of every result the fixtures
// give — every imported reference log, and runs built from recorded
// shapes of trouble (falling scores with and without clock readings, runs
// that disagree, foreign load, lone low usage, throttling from
// time_in_state) — and fails on a result whose findings assert and deny
// the same thing (e.g. falling scores called throttling while a spread
// finding says "not throttling").
func TestNoContradictions(t *testing.T) {
	steady := func(int) float64 { return 1800 }
	falling := func(i int) float64 { return 1800 - 20*float64(i) }
	below := []result.PolicyTime{{Policy: 0, TopMHz: 1800, TotalS: 20, BelowTopS: 6, ByMHz: map[string]float64{"1800": 14, "1500": 6}}}
	results := map[string]*result.Result{
		"issue: scores fell 16% not in order, no sensors": scenario(t, []float64{3900, 3100, 3264}, 190, 98, 0, nil, nil),
		"falling in order, no sensors":                    scenario(t, []float64{3600, 3300, 3012}, 190, 98, 0, nil, nil),
		"falling in order, clock falls":                   scenario(t, []float64{3600, 3300, 3012}, 190, 98, 0, falling, nil),
		"falling in order, clock steady":                  scenario(t, []float64{3600, 3300, 3012}, 190, 98, 0, steady, nil),
		"falling, time_in_state below top":                scenario(t, []float64{3600, 3300, 3012}, 190, 98, 0, steady, below),
		"spread, time_in_state below top":                 scenario(t, []float64{3600, 3000, 3500}, 190, 98, 0, steady, below),
		"hog at 3%":                                       scenario(t, []float64{3600, 3590, 3610}, 190, 96, 3, steady, nil),
		"hog at 60%":                                      scenario(t, []float64{1600, 1500, 1700}, 80, 40, 60, nil, nil),
		"lone run at 55%":                                 scenario(t, []float64{2529}, 110, 55, 0, nil, nil),
	}
	for _, lg := range shareddata.Logs(t) {
		l, err := sbcimport.Parse([]byte(lg.Text))
		if err != nil {
			continue
		}
		results["log "+lg.Name] = l.Result(lg.Name)
	}
	if len(results) < 200 {
		t.Fatalf("only %d results to check", len(results))
	}
	for name, r := range results {
		for _, c := range contradictions(r) {
			t.Errorf("%s: %s", name, c)
		}
	}
	// The check can fail: the pair is a contradiction.
	bad := &result.Result{Findings: []finding.Finding{
		{ID: "falling_scores", Severity: finding.Warning, Title: "Throttling: 7-Zip scores fell 16.3% over consecutive runs"},
		{ID: "sevenzip_spread", Severity: finding.Warning, Title: "Interference", Evidence: []string{"3900, 3100, 3264 MIPS (not in falling order, so not throttling)"}},
	}}
	if got := contradictions(bad); len(got) != 2 || !strings.HasPrefix(got[0], "throttling") || !strings.HasPrefix(got[1], "falling scores") {
		t.Errorf("the issue's contradiction is not caught: %v", got)
	}
	// Falling scores without a word on throttling, beside runs said not
	// to fall: still a contradiction.
	bad = &result.Result{Findings: []finding.Finding{
		{ID: "falling_scores", Severity: finding.Warning, Title: "7-Zip scores fell 16.3% over consecutive runs; the cause cannot be told here"},
		{ID: "sevenzip_spread", Severity: finding.Warning, Title: "Interference", Evidence: []string{"multi-threaded totals of the valid runs: 3900, 3100, 3264 MIPS, not in falling order"}},
	}}
	if got := contradictions(bad); len(got) != 1 || !strings.HasPrefix(got[0], "falling scores") {
		t.Errorf("falling scores asserted and denied is not caught: %v", got)
	}
}
