package monitor

import (
	"fmt"
	"io"
	"strings"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/monitor"
	"boardbench/internal/report/infotext"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/textfmt"
)

// Config is the first JSON line of `monitor --json`: what the sample lines
// hold and the machine they come from.
type Config struct {
	// IntervalS is the time between samples in seconds.
	IntervalS float64 `json:"interval_s"`
	// Board and SoC name the machine ("" when unknown); SoCReason says
	// what the SoC guess rests on.
	Board     string `json:"board"`
	SoC       string `json:"soc"`
	SoCReason string `json:"soc_reason"`
	// Clusters describe the CPU topology and which clock column stands for
	// each cluster.
	Clusters []Cluster `json:"clusters"`
	// TempPath is the file the temperature is read from, TempReason why
	// it was chosen ("" without a SoC temperature sensor).
	TempPath   string `json:"temp_path"`
	TempReason string `json:"temp_reason"`
	// Policies, TempLabel, Power and Firmware name the sample columns, as
	// in a result's "monitor" object.
	result.MonitorInfo
	// PowerSource is the power meter read for power_w; nil without one.
	PowerSource *result.Power `json:"power_source,omitempty"`
	// FirmwareSource says how the firmware is asked (monitor.SourceMailbox
	// or monitor.SourceVcgencmd); the header says it, the JSON line not.
	FirmwareSource string `json:"-"`
}

// Cluster is one CPU cluster in the header.
type Cluster struct {
	CPUs []int  `json:"cpus"`
	Core string `json:"core"`
	// Policy is the cpufreq policy shared by the cluster; nil without
	// cpufreq or when every CPU has its own (PerCPUPolicies).
	Policy         *int `json:"policy"`
	PerCPUPolicies bool `json:"per_cpu_policies"`
	// MinMHz and MaxMHz are the cpufreq hardware limits, nil when unknown.
	MinMHz   *float64 `json:"min_mhz"`
	MaxMHz   *float64 `json:"max_mhz"`
	Governor string   `json:"governor"`
	// Column is the label of the clock column standing for the cluster,
	// "" when its clock is not sampled.
	Column string `json:"column"`
}

// newConfig describes the sampled columns for the header and the JSON line.
func newConfig(in *inventory.Info, cfg monitor.Config, interval time.Duration) Config {
	c := Config{
		IntervalS:      interval.Seconds(),
		Board:          in.Board.Model,
		SoC:            in.SoC.Guess,
		SoCReason:      in.SoC.Reason,
		Clusters:       []Cluster{},
		MonitorInfo:    session.MonitorInfo(cfg),
		FirmwareSource: monitor.FirmwareSource(cfg.Firmware),
	}
	if st := in.Sensors.SoCTemp; st != nil && cfg.TempPath != "" {
		c.TempPath, c.TempReason = st.Path, st.Reason
	}
	for _, cl := range in.CPU.Clusters {
		x := Cluster{
			CPUs:     cl.CPUs,
			Core:     cl.CoreName,
			Policy:   cl.Policy,
			MinMHz:   cl.MinMHz,
			MaxMHz:   cl.MaxMHz,
			Governor: cl.Governor,
		}
		if x.Core == "" {
			x.Core = cl.Core
		}
		x.PerCPUPolicies = cl.Policy == nil && len(cl.Policies) > 1
		for _, p := range cfg.Policies {
			if containsAny(cl.CPUs, p.CPUs) {
				x.Column = p.Label
				break
			}
		}
		c.Clusters = append(c.Clusters, x)
	}
	return c
}

func containsAny(set, xs []int) bool {
	for _, a := range set {
		for _, b := range xs {
			if a == b {
				return true
			}
		}
	}
	return false
}

// writeHeader prints what is sampled, before the first sample line.
func writeHeader(w io.Writer, color bool, c Config, in *inventory.Info) {
	tw := textfmt.New(w, color)
	tw.Section("Machine")
	soc := textfmt.OrUnknown(c.SoC)
	if c.SoCReason != "" {
		soc += " (" + c.SoCReason + ")"
	}
	var machine [][2]string
	if c.Board != "" {
		machine = append(machine, [2]string{"board", c.Board})
	}
	tw.KV(append(machine, [2]string{infotext.ChipLabel(in.SoC), soc})...)

	tw.Section("Clusters")
	if len(c.Clusters) == 0 {
		tw.Line("unknown: %s", notesText(in.CPU))
	} else {
		t := textfmt.NewTable("CPUS", "CORE", "POLICY", "MIN–MAX MHz", "GOVERNOR", "COLUMN")
		t.RightAlign[3] = true
		for _, cl := range c.Clusters {
			t.Row("cpu"+cpu.FormatCPUList(cl.CPUs), fmt.Sprintf("%d× %s", len(cl.CPUs), textfmt.OrUnknown(cl.Core)),
				policyText(cl), rangeText(cl.MinMHz, cl.MaxMHz), dash(cl.Governor), columnText(cl))
		}
		tw.Table(t)
	}

	tw.Section("Sampled")
	temp := "none: " + socTempNote(in)
	if c.TempLabel != "" {
		temp = fmt.Sprintf("%s, %s (%s)", c.TempLabel, c.TempPath, c.TempReason)
	}
	fw := "no (not a Raspberry Pi, or vcgencmd missing or not answering)"
	switch {
	case c.Firmware && c.FirmwareSource == monitor.SourceMailbox:
		fw = "ARM clock and core voltage from the firmware mailbox (/dev/vcio) on every sample (no process)"
	case c.Firmware:
		fw = "ARM clock and core voltage from vcgencmd on every sample (a process each)"
	}
	tw.KV(
		[2]string{"interval", fmt.Sprintf("%s s", trimFloat(c.IntervalS))},
		[2]string{"temperature", temp},
		[2]string{"other temps", tempsText(c.Temps, c.TempPath)},
		[2]string{"firmware", fw},
		[2]string{"power", powerText(c)},
	)
	if len(c.Power) > 0 {
		names := map[string]string{}
		for _, ch := range sensors.PowerChannels(in.Sensors) {
			names[ch.Path] = ch.Name
		}
		t := textfmt.NewTable("COLUMN", "SENSOR", "QUANTITY", "FILE")
		for _, s := range c.Power {
			t.Row(s.Label, dash(names[s.Path]), s.Quantity+", "+s.Unit, s.Path)
		}
		tw.Table(t)
	}
	fmt.Fprintln(w)
}

func policyText(cl Cluster) string {
	switch {
	case cl.Policy != nil:
		return fmt.Sprintf("policy%d", *cl.Policy)
	case cl.PerCPUPolicies:
		return "one per CPU"
	default:
		return "-"
	}
}

func columnText(cl Cluster) string {
	switch {
	case cl.Column == "":
		return "- (no cpufreq)"
	case cl.PerCPUPolicies:
		return cl.Column + " (its first CPU)"
	default:
		return cl.Column
	}
}

func rangeText(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%.0f–%.0f", *lo, *hi)
	case hi != nil:
		return fmt.Sprintf("?–%.0f", *hi)
	default:
		return "-"
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func trimFloat(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}

// notesText joins the notes of the CPU inventory.
func notesText(c cpu.Info) string {
	var parts []string
	for _, n := range c.Notes {
		parts = append(parts, n.Item+" ("+n.Reason+")")
	}
	if len(parts) == 0 {
		return "no CPU description"
	}
	return strings.Join(parts, "; ")
}

// socTempNote says why there is no SoC temperature.
func socTempNote(in *inventory.Info) string {
	for _, n := range in.Sensors.Notes {
		if n.Item == "soc_temp" {
			return n.Reason
		}
	}
	return "no valid thermal sensor"
}

// powerText says what power is sampled: the configured source (--power)
// first, then the power sensors read as columns.
func powerText(c Config) string {
	var parts []string
	if p := c.PowerSource; p != nil {
		parts = append(parts, fmt.Sprintf("%s (%s; column power_w)", p.Description, measuresText(p.Measures)))
	}
	if len(c.Power) > 0 {
		parts = append(parts, textfmt.Plural(len(c.Power), "sensor")+":")
	}
	if len(parts) == 0 {
		return "none: no --power source and no power sensor exposed"
	}
	return strings.Join(parts, "; ")
}

// tempsText names the sampled temperatures (the samples' temps) but the
// SoC's, read from socPath.
func tempsText(temps []result.Sensor, socPath string) string {
	var names []string
	for _, t := range temps {
		if t.Path != socPath {
			names = append(names, t.Label)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ") + " (in the JSON samples' temps)"
}
