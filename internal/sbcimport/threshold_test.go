package sbcimport

import (
	"encoding/json"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/testutil/shareddata"
)

// TestThresholdsLieAboveCleanLogs keeps the evidence behind the verdict's
// thresholds (docs/verdicts.md): in every log the bash tool sbc-bench
// judged free of background activity, the single-threaded phases
// (tinymembench, ramlat, 7-Zip single core) use at most a little more than
// one busy CPU, below result.ForeignCPUMaxPct of all CPUs' time; and no
// multi-threaded 7-Zip run of any log reports a usage below
// result.MultiThreadMinUsageAloneShare of its threads.
func TestThresholdsLieAboveCleanLogs(t *testing.T) {
	var phases, runs int
	var highest, lowest float64 = 0, 1
	for _, lg := range shareddata.Logs(t) {
		l, err := Parse([]byte(lg.Text))
		if err != nil {
			continue
		}
		r := l.Result(lg.Name)
		if ncpu := len(r.Info.CPU.CPUs); ncpu >= 2 && cleanBackground(l.Validation) {
			for _, m := range l.Monitoring {
				if !singleThreaded(m.While) {
					continue
				}
				v, ok := meanMonitorColumn(m, "%cpu")
				if !ok {
					continue
				}
				phases++
				foreign := v - 100/float64(ncpu)
				highest = max(highest, foreign)
				if foreign > result.ForeignCPUMaxPct {
					t.Errorf("%s %s: a log judged clean used %.1f%% beyond one CPU, above the %.0f%% threshold", lg.Name, m.While, foreign, result.ForeignCPUMaxPct)
				}
			}
		}
		for _, p := range r.Phases {
			var f result.SevenZipFigures
			if p.Name != result.PhaseSevenZipMulti || json.Unmarshal(p.Figures, &f) != nil || f.Threads < 2 {
				continue
			}
			for _, run := range f.Runs {
				if run.UsagePct == nil {
					continue
				}
				runs++
				share := *run.UsagePct / float64(100*f.Threads)
				lowest = min(lowest, share)
				if share < result.MultiThreadMinUsageAloneShare {
					t.Errorf("%s: a multi-threaded run at %.1f%% of its threads is below the lone-run floor", lg.Name, 100*share)
				}
			}
		}
	}
	if phases < 100 || runs < 500 {
		t.Fatalf("only %d clean single-threaded phases and %d multi-threaded runs: the evidence is missing", phases, runs)
	}
	t.Logf("%d clean single-threaded phases: at most %.1f%% beyond one CPU; %d multi-threaded runs: at least %.1f%% of their threads",
		phases, highest, runs, 100*lowest)
}

// cleanBackground reports whether a log's validation judged it free of
// background activity.
func cleanBackground(validation []string) bool {
	ok := false
	for _, v := range validation {
		if strings.HasPrefix(v, "Background activity (%system) OK") {
			ok = true
		}
		if strings.Contains(v, "other background activity") {
			return false
		}
	}
	return ok
}

func singleThreaded(while string) bool {
	_, ok := singleThreadedPhase(while)
	return ok
}
