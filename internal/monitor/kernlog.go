package monitor

import (
	"boardbench/internal/lazyre"
	"boardbench/internal/redact"
	"strings"
)

// Event is a kernel log line that matters for the validity of a benchmark.
type Event struct {
	// Kind is one of the EventKind constants.
	Kind string `json:"kind"`
	Line string `json:"line"`
}

// Kinds of kernel events.
const (
	EventUnderVoltage = "under_voltage"
	EventThermal      = "thermal"
	EventCPUOffline   = "cpu_offline"
	EventOOM          = "oom_kill"
	EventHardware     = "hardware_error"
	EventIO           = "io_error"
)

// eventPatterns classify kernel log lines; the first match wins.
var eventPatterns = []struct {
	kind string
	re   lazyre.Regexp
}{
	{EventUnderVoltage, lazyre.Regexp(`(?i)under-?voltage|undervolt|voltage (is )?(too )?low|brown-?out`)},
	{EventOOM, lazyre.Regexp(`(?i)out of memory|oom-kill|oom_reaper|invoked oom-killer|killed process \d+`)},
	{EventCPUOffline, lazyre.Regexp(`(?i)CPU\d+:? (is )?(shutdown|killed|offline|went offline)|psci: CPU\d+ killed|cpu \d+ (is )?offline|smpboot: CPU \d+ is now offline|failed to (come|bring) online`)},
	{EventThermal, lazyre.Regexp(`(?i)thermal|critical temperature|over-?temperature|overheat|throttl|temperature above threshold|cpu clock throttled`)},
	{EventHardware, lazyre.Regexp(`(?i)hardware error|\bmce\b|machine check|EDAC|SError|Internal error: |Unable to handle kernel|kernel BUG|Oops`)},
	{EventIO, lazyre.Regexp(`(?i)I/O error|blk_update_request|buffer i/o error|mmc\d+: (error|timeout)|card removed|reset (high|full|super)-?speed USB device|uas_eh_abort_handler|EXT4-fs error`)},
}

// ClassifyLine returns the kind of a kernel log line, or "" when it does not
// matter for benchmarking.
func ClassifyLine(line string) string {
	for _, p := range eventPatterns {
		if p.re.MatchString(line) {
			return p.kind
		}
	}
	return ""
}

// NewLogLines returns the lines of after that were not in before: the kernel
// log is append-only until its ring buffer wraps, so the lines after the last
// line of before are new; if that line is gone (wrapped), all of after is.
func NewLogLines(before, after string) []string {
	b := splitLines(before)
	a := splitLines(after)
	if len(b) == 0 {
		return a
	}
	last := b[len(b)-1]
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] == last {
			return a[i+1:]
		}
	}
	return a
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// Events classifies lines and keeps those that matter.
func Events(lines []string) []Event {
	var out []Event
	for _, l := range lines {
		if k := ClassifyLine(l); k != "" {
			out = append(out, Event{Kind: k, Line: redact.Text(strings.TrimSpace(l))})
		}
	}
	return out
}
