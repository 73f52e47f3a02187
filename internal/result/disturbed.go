package result

import "slices"

// The CPU usage 7-Zip reports on its Tot: line below which a run did not
// get the CPUs it asked for. Its usage is CPU time over wall time, in
// percent of one thread: a clean single-threaded run reports 99–100 %. A
// clean multi-threaded run reports anything from about 70 % (big.LITTLE
// boards such as the Odroid XU4, servers with hundreds of threads) to 97 %
// of threads × 100 %, since compression does not keep every thread busy,
// but about the same in each of a phase's consecutive runs: a
// multi-threaded run is judged against the best run of its phase.
const (
	// SingleThreadMinUsagePct is the lowest usage of an undisturbed
	// single-threaded run.
	SingleThreadMinUsagePct = 95.0
	// MultiThreadMinUsageShare is the share of threads × 100 % below which
	// a multi-threaded run is suspect; it is disturbed when its usage is
	// also below MultiThreadBelowBestShare of the best run of its phase.
	MultiThreadMinUsageShare  = 0.90
	MultiThreadBelowBestShare = 0.95
)

// LowUsageRun is a 7-Zip run whose own CPU usage says that it did not get
// the CPUs it asked for: another task took them.
type LowUsageRun struct {
	// Run is the run's number in the phase, from 1.
	Run int
	// UsagePct is the usage of the Tot: line, ExpectedPct threads × 100.
	UsagePct, ExpectedPct float64
	// TotMIPS is the run's total rating.
	TotMIPS float64
}

// LowUsageRuns returns the successful runs of f whose usage shows that
// they were disturbed: a single-threaded run below
// SingleThreadMinUsagePct; a multi-threaded one below
// MultiThreadMinUsageShare of threads × 100 % and below
// MultiThreadBelowBestShare of the best run of the phase, or below
// MultiThreadMinUsageAloneShare of threads × 100 % whatever the other runs
// did (a lone run is judged too). A phase of runs all disturbed alike above
// that floor is left to the monitor's evidence (check.Judge).
func (f SevenZipFigures) LowUsageRuns() []LowUsageRun {
	threads := f.Threads
	if threads <= 0 {
		threads = len(f.CPUs)
	}
	if threads <= 0 {
		return nil
	}
	expected := float64(threads) * 100
	var best float64
	for _, r := range f.Runs {
		if r.TotMIPS != nil && r.UsagePct != nil {
			best = max(best, *r.UsagePct)
		}
	}
	var out []LowUsageRun
	for i, r := range f.Runs {
		if r.TotMIPS == nil || r.UsagePct == nil {
			continue
		}
		u := *r.UsagePct
		low := false
		if threads == 1 {
			low = u < SingleThreadMinUsagePct
		} else {
			low = (u < MultiThreadMinUsageShare*expected && u < MultiThreadBelowBestShare*best) ||
				u < MultiThreadMinUsageAloneShare*expected
		}
		if low {
			out = append(out, LowUsageRun{Run: i + 1, UsagePct: u, ExpectedPct: expected, TotMIPS: *r.TotMIPS})
		}
	}
	return out
}

// AllDisturbed reports whether every clock sample of c was disturbed by
// other tasks: the measured clock then reads low and is not a figure.
func (c ClockMeasurement) AllDisturbed() bool {
	return len(c.Samples) > 0 && slices.Equal(c.Samples, c.DisturbedSamples)
}
