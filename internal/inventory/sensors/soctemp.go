package sensors

import (
	"boardbench/internal/lazyre"
	"fmt"
	"sort"
	"strings"

	"boardbench/internal/note"
)

// notSoC are name fragments of sensors that never stand for the SoC:
// batteries, chargers, radios, drives, chipsets, ambient and skin sensors.
var notSoC = []string{"batt", "charger", "wifi", "wlan", "nvme", "drivetemp", "pch", "ambient", "skin", "pmic", "sfp", "phy"}

// cpuCore matches per-core CPU zone names such as "cpu0-thermal".
var cpuCore = lazyre.Regexp(`^cpu[0-9]`)

// socScore rates how clearly a sensor name (a thermal zone type, a hwmon
// chip name or a label) says it measures the SoC or CPU: 0 when it does not,
// -1 when it names something else. what describes the match for the reason.
func socScore(name string) (score int, what string) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("_", "-", " ", "-").Replace(n)
	if n == "" {
		return 0, ""
	}
	for _, bad := range notSoC {
		if strings.Contains(n, bad) {
			return -1, ""
		}
	}
	switch {
	case n == "x86-pkg-temp" || strings.HasPrefix(n, "package-id"):
		return 100, "the CPU package"
	case n == "tdie":
		return 96, "the CPU die"
	case n == "tctl":
		return 95, "the CPU (control temperature)"
	case strings.HasPrefix(n, "soc") || strings.Contains(n, "-soc"):
		return 95, "the SoC"
	case strings.HasPrefix(n, "cpub") || strings.Contains(n, "bigcore") || strings.Contains(n, "big"):
		return 85, "the big CPU cores"
	case strings.HasPrefix(n, "cpul") || strings.Contains(n, "little"):
		return 75, "the little CPU cores"
	case cpuCore.MatchString(n):
		return 88, "a CPU core"
	case strings.HasPrefix(n, "cpu"), n == "coretemp", n == "k10temp", n == "zenpower":
		return 90, "the CPU"
	case strings.HasPrefix(n, "aml-thermal"), strings.HasPrefix(n, "imx-thermal"):
		return 90, "the SoC"
	case strings.HasPrefix(n, "core-"):
		return 80, "a CPU core"
	case strings.Contains(n, "cpu"):
		return 80, "the CPU"
	case n == "scpi-sensors":
		return 70, "the SoC (firmware sensor)"
	}
	return 0, ""
}

// candidate is a temperature sensor that may stand for the SoC.
type candidate struct {
	src     Source
	display string // e.g. "thermal_zone0 (cpu-thermal)"
	tier    int    // 1 named zone, 2 named hwmon, 3 other zone, 4 other hwmon
	score   int
	order   int
	temp    *float64
	invalid string
	what    string
}

// candidates lists every temperature sensor except those that name
// something other than the SoC.
func candidates(in Info) []candidate {
	var out []candidate
	for _, z := range in.ThermalZones {
		score, what := socScore(z.Type)
		if score < 0 {
			continue
		}
		tier := 1
		if score == 0 {
			tier = 3
		}
		out = append(out, candidate{
			src:     Source{Kind: KindThermalZone, Name: z.Type, Path: z.Path},
			display: fmt.Sprintf("%s (%s)", z.Name, z.Type),
			tier:    tier, score: score, order: len(out), temp: z.TempC, invalid: z.Invalid, what: what,
		})
	}
	for _, d := range in.Hwmon {
		chipScore, chipWhat := socScore(d.Name)
		if chipScore < 0 {
			continue
		}
		for _, r := range d.Readings {
			if r.Quantity != QuantityTemperature || r.Path == "" {
				continue
			}
			score, what := chipScore, chipWhat
			if ls, lw := socScore(r.Label); ls < 0 {
				continue
			} else if ls > score {
				score, what = ls, lw
			}
			tier := 2
			if score == 0 {
				tier = 4
			}
			name := hwmonSensorName(d, r)
			out = append(out, candidate{
				src:     Source{Kind: KindHwmon, Name: name, Path: r.Path},
				display: fmt.Sprintf("%s %s", d.Hwmon, name),
				tier:    tier, score: score, order: len(out), temp: r.Value, invalid: r.Invalid, what: what,
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].tier != out[j].tier {
			return out[i].tier < out[j].tier
		}
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].order < out[j].order
	})
	return out
}

// maxPassedOver bounds how many rejected sensors a reason lists.
const maxPassedOver = 3

// chooseSoCTemp picks the first valid candidate in preference order: thermal
// zones named after the SoC or CPU, then such hwmon sensors, then any
// thermal zone, then any hwmon temperature.
func chooseSoCTemp(in Info, notes *note.List) *SoCTemp {
	cands := candidates(in)
	if len(cands) == 0 {
		notes.Add("soc_temp", "no thermal sensor exposed")
		return nil
	}
	var passed []string
	for _, c := range cands {
		if c.temp == nil {
			passed = append(passed, c.display+": "+c.invalid)
			continue
		}
		var reason string
		switch c.tier {
		case 1:
			reason = fmt.Sprintf("thermal zone %s measures %s", c.display, c.what)
		case 2:
			reason = fmt.Sprintf("hwmon sensor %s measures %s", c.display, c.what)
		case 3:
			reason = fmt.Sprintf("no valid sensor is named after the SoC or CPU; first valid thermal zone: %s", c.display)
		default:
			reason = fmt.Sprintf("no valid sensor is named after the SoC or CPU and no thermal zone is valid; first valid hwmon temperature: %s", c.display)
		}
		if len(passed) > 0 {
			reason += "; passed over " + listPassed(passed)
		}
		return &SoCTemp{Source: c.src, Celsius: *c.temp, Reason: reason}
	}
	notes.Add("soc_temp", "no valid thermal sensor: "+listPassed(passed))
	return nil
}

func listPassed(p []string) string {
	if len(p) <= maxPassedOver {
		return strings.Join(p, "; ")
	}
	return strings.Join(p[:maxPassedOver], "; ") + fmt.Sprintf("; and %d more", len(p)-maxPassedOver)
}
