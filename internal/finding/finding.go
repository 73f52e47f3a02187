// Package finding is the shape of every validation and review result: a
// stable id, a severity, a title, the evidence behind it and advice.
package finding

// Severity says how much a finding matters.
type Severity string

// Severities, in increasing order of weight.
const (
	// Info is worth knowing and does not affect the figures.
	Info Severity = "info"
	// Warning may have affected the figures or their comparability.
	Warning Severity = "warning"
	// Invalidates means figures of the affected phases must not be compared.
	Invalidates Severity = "invalidates"
)

// Rank orders severities: info 0, warning 1, invalidates 2; unknown -1.
func (s Severity) Rank() int {
	switch s {
	case Info:
		return 0
	case Warning:
		return 1
	case Invalidates:
		return 2
	}
	return -1
}

// Finding is one conclusion drawn from the evidence of a run or a machine.
type Finding struct {
	// ID is stable across versions, e.g. "throttling", "swapping".
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Title    string   `json:"title"`
	// Evidence holds the samples, log lines or values that support it.
	Evidence []string `json:"evidence"`
	Advice   string   `json:"advice"`
	// Phases names the phases concerned; empty for the whole run.
	Phases []string `json:"phases,omitempty"`
}

// Review is a finding of `boardbench review`, about a setting rather than
// a measurement: a Finding plus the area of the machine it belongs to and
// what following its advice costs.
type Review struct {
	Finding
	Area string `json:"area"`
	// Cost is what the fix costs (power, memory, wear, security...).
	Cost string `json:"cost"`
	// Persist says where to make the fix survive a reboot.
	Persist string `json:"persist,omitempty"`
}

// Worst returns the highest severity among fs, or "" for none.
func Worst(fs []Finding) Severity {
	var worst Severity
	for _, f := range fs {
		if f.Severity.Rank() > worst.Rank() {
			worst = f.Severity
		}
	}
	return worst
}
