package runtext

import (
	"fmt"
	"strconv"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/textfmt"
)

// renderWrapped writes the figures of the benchmark a `monitor -- COMMAND`
// ran, as internal/benchtool/wrapped read them from its output: one
// compact view per kind of benchmark.
func renderWrapped(w *textfmt.Writer, f wrapped.Figures) {
	fmt.Fprintln(w.W)
	how := "recognised from its output"
	if f.RecognizedBy == wrapped.ByCommand {
		how = "recognised from the command line"
	}
	name := f.Benchmark
	if f.Version != "" {
		name += " " + f.Version
	}
	w.Line("%s (%s):", name, how)
	switch {
	case f.SevenZip != nil:
		renderWrappedSevenZip(w, f.SevenZip)
	case f.OpenSSL != nil:
		renderWrappedOpenSSL(w, f.OpenSSL)
	case f.StressNG != nil:
		renderWrappedStressNG(w, f.StressNG)
	case f.Sysbench != nil:
		renderWrappedSysbench(w, f.Sysbench)
	case f.LlamaBench != nil:
		renderWrappedLlamaBench(w, f.LlamaBench)
	case f.Geekbench != nil:
		renderWrappedGeekbench(w, f.Geekbench)
	case f.HPL != nil:
		renderWrappedHPL(w, f.HPL)
	case f.CPUMiner != nil:
		renderWrappedCPUMiner(w, f.CPUMiner)
	default:
		w.Line("figures: none read from the output")
	}
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
}

// rightAligned returns a table whose columns from the first-th on are
// right-aligned.
func rightAligned(first int, headers ...string) *textfmt.Table {
	t := textfmt.NewTable(headers...)
	for i := first; i < len(headers); i++ {
		t.RightAlign[i] = true
	}
	return t
}

func optInt(v *int64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatInt(*v, 10)
}

func optFloat(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

func renderWrappedSevenZip(w *textfmt.Writer, z *wrapped.SevenZipFigures) {
	t := rightAligned(0, "run", "rating", "usage", "rating/usage", "threads")
	for i, r := range z.Runs {
		threads := "-"
		if r.BenchmarkThreads != nil {
			threads = strconv.Itoa(*r.BenchmarkThreads)
		}
		t.Row(strconv.Itoa(i+1), fmt.Sprintf("%d MIPS", r.RatingMIPS), fmt.Sprintf("%d%%", r.UsagePct), fmt.Sprintf("%d MIPS", r.RUMIPS), threads)
	}
	w.Table(t)
	kind := "multi-threaded"
	if z.Single {
		kind = "single-threaded"
	}
	w.Line("mean rating: %.0f MIPS (%s); usage: 7-Zip's own, in %% of one hardware thread", z.MeanRatingMIPS, kind)
}

func renderWrappedOpenSSL(w *textfmt.Writer, o *wrapped.OpenSSLFigures) {
	headers := []string{"cipher"}
	for _, b := range o.BlockSizes {
		headers = append(headers, textfmt.Bytes(int64(b)))
	}
	t := rightAligned(1, headers...)
	for _, r := range o.Rows {
		row := []string{orDash(r.Cipher)}
		for _, b := range o.BlockSizes {
			row = append(row, optFloat(r.KBPerSecAt(b), "%.0f"))
		}
		t.Row(row...)
	}
	w.Line("throughput in kB/s (1 kB = 1000 bytes) by block size:")
	w.Table(t)
}

func renderWrappedStressNG(w *textfmt.Writer, s *wrapped.StressNGFigures) {
	t := rightAligned(1, "stressor", "bogo ops", "bogo ops/s (real)", "bogo ops/s (usr+sys)", "CPU per instance")
	for _, m := range s.Stressors {
		t.Row(m.Stressor, strconv.FormatInt(m.BogoOps, 10), fmt.Sprintf("%.2f", m.BogoOpsPerSReal),
			fmt.Sprintf("%.2f", m.BogoOpsPerSUsrSys), optFloat(m.CPUUsedPerInstancePct, "%.1f%%"))
	}
	w.Table(t)
	if s.Completed {
		w.Line("stress-ng reported a successful run")
	} else {
		w.Line("stress-ng did not report a successful run")
	}
}

func renderWrappedSysbench(w *textfmt.Writer, s *wrapped.SysbenchFigures) {
	w.Line("test: %s; threads: %s", orNA(s.Test, "not named"), optInt(s.Threads))
	if s.EventsPerSecond != nil {
		w.Line("events per second: %.2f", *s.EventsPerSecond)
	}
	if s.MiBPerSec != nil {
		w.Line("transferred: %s MiB at %.2f MiB/s", optFloat(s.MiBTransferred, "%.2f"), *s.MiBPerSec)
	}
	if s.TotalEvents != nil || s.TotalTimeS != nil {
		w.Line("total: %s events in %s s", optInt(s.TotalEvents), optFloat(s.TotalTimeS, "%.2f"))
	}
	if s.LatencyAvgMs != nil {
		pct := "percentile"
		if s.LatencyPercentile != nil {
			pct = fmt.Sprintf("%dth percentile", *s.LatencyPercentile)
		}
		w.Line("latency in ms: min %s, avg %s, max %s, %s %s", optFloat(s.LatencyMinMs, "%.2f"),
			optFloat(s.LatencyAvgMs, "%.2f"), optFloat(s.LatencyMaxMs, "%.2f"), pct, optFloat(s.LatencyPctMs, "%.2f"))
	}
}

func renderWrappedLlamaBench(w *textfmt.Writer, l *wrapped.LlamaBenchFigures) {
	t := rightAligned(3, "model", "backend", "test", "threads", "tokens/s", "±")
	for _, r := range l.Rows {
		t.Row(orDash(r.Model), orDash(r.Backend), orDash(r.Test), optInt(r.Threads), fmt.Sprintf("%.2f", r.TokensPerS), optFloat(r.TokensPerSStddev, "%.2f"))
	}
	w.Table(t)
}

func renderWrappedGeekbench(w *textfmt.Writer, g *wrapped.GeekbenchFigures) {
	w.Line("single-core score: %s; multi-core score: %s", optInt(g.SingleCoreScore), optInt(g.MultiCoreScore))
	w.Line("result page: %s", orNA(g.ResultURL, "not uploaded"))
}

func renderWrappedHPL(w *textfmt.Writer, h *wrapped.HPLFigures) {
	t := rightAligned(1, "variant", "N", "NB", "P×Q", "time", "Gflops", "residual", "check")
	for _, r := range h.Runs {
		t.Row(orDash(r.Variant), strconv.FormatInt(r.N, 10), strconv.FormatInt(r.NB, 10), fmt.Sprintf("%d×%d", r.P, r.Q),
			fmt.Sprintf("%.2f s", r.TimeS), fmt.Sprintf("%.4g", r.Gflops), optFloat(r.Residual, "%.3g"), orDash(r.Check))
	}
	w.Table(t)
	if h.ResidualFailed {
		w.Line("a residual check FAILED: the solution was wrong, so these Gflops are not a result")
	}
}

func renderWrappedCPUMiner(w *textfmt.Writer, m *wrapped.CPUMinerFigures) {
	w.Line("%s, algorithm %s, %s threads", orDash(m.Build), orNA(m.Algorithm, "not printed"), optInt(m.Threads))
	w.Line("hash rate: median %.2f kH/s of %d Total lines", m.MedianKHs, len(m.TotalKHs))
}
