package runtext

import (
	"fmt"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// tempsLine names every sampled temperature with its highest reading over
// samples ("cpu-thermal 52.1 °C, ds3231 temp1 31.0 °C"), "unknown" for a
// sensor never read; "" without sampled temperatures.
func tempsLine(sensors []result.Sensor, samples []result.Sample) string {
	if len(sensors) == 0 || len(samples) == 0 {
		return ""
	}
	var parts []string
	for i, s := range sensors {
		var hi *float64
		for _, smp := range samples {
			if i < len(smp.Temps) && smp.Temps[i] != nil && (hi == nil || *smp.Temps[i] > *hi) {
				hi = smp.Temps[i]
			}
		}
		v := "unknown"
		if hi != nil {
			v = fmt.Sprintf("%.1f °C", *hi)
		}
		parts = append(parts, s.Label+" "+v)
	}
	return strings.Join(parts, ", ")
}

// renderTemps writes tempsLine as a key-value line.
func renderTemps(w *textfmt.Writer, sensors []result.Sensor, samples []result.Sample) {
	if line := tempsLine(sensors, samples); line != "" {
		w.KV([2]string{"temperatures (highest)", line})
	}
}
