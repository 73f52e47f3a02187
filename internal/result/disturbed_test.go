package result

import (
	"reflect"
	"testing"
)

// TestLowUsageRuns judges 7-Zip's own usage on series from published logs
// (Tot: usage and rating of consecutive runs) and on the contaminated run
// of a 2-vCPU guest.
func TestLowUsageRuns(t *testing.T) {
	cases := []struct {
		name    string
		threads int
		usage   []float64
		want    []int
	}{
		{"quiet 4-core board", 4, []float64{368, 368, 368}, nil},
		{"Odroid XU4 (big.LITTLE: 72% every time)", 8, []float64{577, 571, 564}, nil},
		{"4-core board, run 2 disturbed", 4, []float64{348, 326, 349}, []int{2}},
		{"2-vCPU guest, another job in run 1", 2, []float64{127, 178, 175}, []int{1}},
		{"one clean quick run at 86%", 2, []float64{172}, nil},
		{"single-threaded at 86%", 1, []float64{86}, []int{1}},
		{"single-threaded at 97%", 1, []float64{97}, nil},
	}
	for _, c := range cases {
		f := SevenZipFigures{Threads: c.threads}
		for _, u := range c.usage {
			u := u
			f.Runs = append(f.Runs, SevenZipRun{TotMIPS: f64(u * 50), UsagePct: &u})
		}
		f.Runs = append(f.Runs, SevenZipRun{Failure: "oom_killed"}) // a failed run is never judged
		var got []int
		for _, r := range f.LowUsageRuns() {
			got = append(got, r.Run)
			if r.ExpectedPct != float64(c.threads)*100 || r.TotMIPS != r.UsagePct*50 {
				t.Errorf("%s: run %+v", c.name, r)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: low-usage runs = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestClockAllDisturbed(t *testing.T) {
	cases := []struct {
		samples, disturbed []float64
		want               bool
	}{
		{[]float64{1719.6, 1732.4}, []float64{1719.6, 1732.4}, true},
		{[]float64{3640.1, 3641.0}, []float64{1732.4}, false},
		{[]float64{3640.1, 3641.0}, []float64{}, false},
		{nil, nil, false},
	}
	for _, c := range cases {
		if got := (ClockMeasurement{Samples: c.samples, DisturbedSamples: c.disturbed}).AllDisturbed(); got != c.want {
			t.Errorf("AllDisturbed(%v, %v) = %v", c.samples, c.disturbed, got)
		}
	}
}

func f64(v float64) *float64 { return &v }
