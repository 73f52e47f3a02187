package wrapped

import (
	"boardbench/internal/lazyre"
	"strings"
)

// StressNGFigures are the metrics stress-ng prints with --metrics or
// --metrics-brief, one entry per stressor.
type StressNGFigures struct {
	Stressors []StressNGMetric `json:"stressors"`
	// Completed is true when stress-ng said "successful run completed";
	// false when the output does not say so (failed or interrupted run,
	// or a version that does not print it).
	Completed bool `json:"completed"`
}

// StressNGMetric is one stressor's metrics line.
type StressNGMetric struct {
	// Stressor is the stressor's name, e.g. "cpu", "matrix", "vm".
	Stressor string `json:"stressor"`
	// BogoOps is the number of bogo operations done by all its instances.
	BogoOps int64 `json:"bogo_ops"`
	// RealTimeS, UsrTimeS and SysTimeS are the wall-clock and CPU times in
	// seconds.
	RealTimeS float64 `json:"real_time_s"`
	UsrTimeS  float64 `json:"usr_time_s"`
	SysTimeS  float64 `json:"sys_time_s"`
	// BogoOpsPerSReal is bogo ops per second of wall-clock time, the
	// throughput usually compared.
	BogoOpsPerSReal float64 `json:"bogo_ops_s_real"`
	// BogoOpsPerSUsrSys is bogo ops per second of CPU (user + system) time.
	BogoOpsPerSUsrSys float64 `json:"bogo_ops_s_usr_sys"`
	// CPUUsedPerInstancePct is the CPU each instance used, in percent;
	// nil when the version does not print that column.
	CPUUsedPerInstancePct *float64 `json:"cpu_used_per_instance_pct"`
}

var (
	// stressNGLineRE is a log line: "stress-ng: info:  [1234] text" (the
	// level is "metrc" since 0.15).
	stressNGLineRE    = lazyre.Regexp(`^stress-ng:\s*\w+:\s*\[\d+\]\s?(.*)$`)
	stressNGVersionRE = lazyre.Regexp(`stress-ng,?\s+(?:version\s+)?V?(\d+\.\d+\.\d+)`)
)

// parseStressNG reads the metrics table: a header line starting with
// "stressor" and "bogo ops", then one line per stressor with six (or, since
// 0.14, eight) numbers.
func parseStressNG(_ []string, out string, f *Figures) bool {
	fig := &StressNGFigures{}
	inTable := false
	for _, line := range lines(out) {
		if m := stressNGVersionRE.FindStringSubmatch(line); m != nil && f.Version == "" {
			f.Version = m[1]
		}
		m := stressNGLineRE.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		text := strings.TrimSpace(m[1])
		switch {
		case strings.HasPrefix(text, "stressor") && strings.Contains(text, "bogo ops"):
			inTable = true
			continue
		case strings.Contains(text, "successful run completed"):
			fig.Completed = true
		}
		if !inTable {
			continue
		}
		if met, ok := parseStressNGMetric(text); ok {
			fig.Stressors = append(fig.Stressors, met)
		}
	}
	if len(fig.Stressors) == 0 {
		return false
	}
	f.StressNG = fig
	return true
}

// parseStressNGMetric reads "cpu  3404  10.00  39.97  0.00  340.38  85.16
// [99.92  4216]"; the units line and other text are not metrics.
func parseStressNGMetric(text string) (StressNGMetric, bool) {
	fields := strings.Fields(text)
	if len(fields) < 7 {
		return StressNGMetric{}, false
	}
	name := fields[0]
	if _, isNum := number(name); isNum || strings.HasPrefix(name, "(") {
		return StressNGMetric{}, false
	}
	ops, ok := integer(fields[1])
	if !ok || ops < 0 {
		return StressNGMetric{}, false
	}
	var v [5]float64
	for i := range v {
		x, ok := number(fields[2+i])
		if !ok || x < 0 {
			return StressNGMetric{}, false
		}
		v[i] = x
	}
	met := StressNGMetric{Stressor: name, BogoOps: ops, RealTimeS: v[0], UsrTimeS: v[1], SysTimeS: v[2],
		BogoOpsPerSReal: v[3], BogoOpsPerSUsrSys: v[4]}
	if len(fields) >= 8 {
		met.CPUUsedPerInstancePct = numberPtr(fields[7])
	}
	return met, true
}
