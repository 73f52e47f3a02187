package monitor

import (
	"fmt"
	"strings"

	"boardbench/internal/power"
)

// Columns describe what sample lines show: a clock per policy, the
// firmware's clock and core voltage when present, steal time on virtual
// machines, and the power sensors. A live Config gives them with
// Config.Columns; a saved result records them.
type Columns struct {
	Policies []Policy
	Power    []Sensor
	Firmware bool
	// Steal adds the %steal column after %irq.
	Steal bool
	// PowerW adds the power source's column (watts) at the end.
	PowerW bool
}

// Columns returns the sample-line columns of cfg.
func (cfg Config) Columns() Columns {
	return Columns{Policies: cfg.Policies, Power: cfg.Power, Firmware: cfg.Firmware != nil, Steal: cfg.Steal,
		PowerW: cfg.Meter != nil && cfg.Meter.Info().Measures != power.MeasuresLimit}
}

// Legend explains the columns of Header whose meaning is not in their
// name, in two lines of fewer than 100 columns; it is written once, above
// the header.
const Legend = "%cpu: share of all cores' time spent busy (100% = every core busy the whole interval),\n" +
	"split into %sys %usr %nice %io %irq; load: the 1-minute load average"

// Header returns the column header of sample lines. Clock and power columns
// are 7 wide where they can be ("2400MHz", "12.34W") so that three clusters
// and two power sensors fit in 100 columns.

func Header(cfg Columns) string {
	var b strings.Builder
	b.WriteString("Time     ")
	for _, p := range cfg.Policies {
		fmt.Fprintf(&b, " %*s", clockWidth(p), truncLabel(p.Label, clockWidth(p)))
	}
	if cfg.Firmware {
		fmt.Fprintf(&b, " %8s", "firmware")
	}
	b.WriteString("   load  %cpu  %sys  %usr %nice  %io %irq")
	if cfg.Steal {
		b.WriteString(" %steal")
	}
	b.WriteString("    Temp")
	if cfg.Firmware {
		b.WriteString("   Vcore")
	}
	for _, s := range cfg.Power {
		fmt.Fprintf(&b, " %7s", truncLabel(s.Label, 7))
	}
	if cfg.PowerW {
		fmt.Fprintf(&b, " %7s", "Power")
	}
	return b.String()
}

// clockWidth is the width of a policy's clock column: 7 ("2400MHz"), 8
// when its label needs it ("cpu10-11").
func clockWidth(p Policy) int { return min(8, max(7, len(p.Label))) }

func truncLabel(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Line formats one sample under Header(cfg); "-" marks a missing value.
func Line(cfg Columns, s Sample) string {
	var b strings.Builder
	b.WriteString(s.Time.Local().Format("15:04:05"))
	b.WriteString(" ")
	for i := range cfg.Policies {
		var v *float64
		if i < len(s.ClockMHz) {
			v = s.ClockMHz[i]
		}
		fmt.Fprintf(&b, " %*s", clockWidth(cfg.Policies[i]), fmtUnit(v, "%.0fMHz"))
	}
	if cfg.Firmware {
		fmt.Fprintf(&b, " %8s", fmtUnit(s.FirmwareMHz, "%.0fMHz"))
	}
	fmt.Fprintf(&b, " %6s", fmtUnit(s.Load1, "%.2f"))
	for _, v := range []*float64{s.CPUPct, s.SysPct, s.UsrPct, s.NicePct, s.IowaitPct, s.IRQPct} {
		fmt.Fprintf(&b, " %5s", fmtUnit(v, "%.0f%%"))
	}
	if cfg.Steal {
		fmt.Fprintf(&b, " %6s", fmtUnit(s.StealPct, "%.0f%%"))
	}
	fmt.Fprintf(&b, " %7s", fmtUnit(s.TempC, "%.1f°C"))
	if cfg.Firmware {
		fmt.Fprintf(&b, " %7s", fmtUnit(s.CoreVolts, "%.4fV"))
	}
	for i, ps := range cfg.Power {
		var v *float64
		if i < len(s.Power) {
			v = s.Power[i]
		}
		fmt.Fprintf(&b, " %7s", fmtUnit(v, "%.2f"+ps.Unit))
	}
	if cfg.PowerW {
		fmt.Fprintf(&b, " %7s", fmtUnit(s.PowerW, "%.2fW"))
	}
	return b.String()
}

func fmtUnit(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}
