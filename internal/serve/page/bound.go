package page

import (
	"bytes"
	"encoding/json"
	"fmt"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// Bounds of one result page (served or written by `report --html`),
// whatever the result holds. What is left out is said on the page, and
// the raw JSON keeps all of it.
const (
	// MaxFindings is the most findings listed, MaxEvidence the most
	// evidence lines shown per finding.
	MaxFindings = 200
	MaxEvidence = 50
	// MaxPhases is the most phases listed.
	MaxPhases = 300
	// MaxMonitorRows is the most monitor lines of an imported log shown
	// per block (the first and the last half), MaxMonitorBlocks the most
	// blocks shown.
	MaxMonitorRows   = 100
	MaxMonitorBlocks = 20
	// MaxSamples is the most monitor samples shown per phase in the text
	// report (the first and the last half); the charts draw all of them,
	// reduced to chart.MaxPoints.
	MaxSamples = 100
	// MaxReportBytes is the most bytes of the text report shown.
	MaxReportBytes = 256 << 10
	// MaxEmbeddedJSON is the largest raw JSON `report --html` embeds as a
	// data: link.
	MaxEmbeddedJSON = 4 << 20
)

// Bound returns r cut to what one page shows, and one line per part left
// out. r itself is not changed (what is cut is copied first).
func Bound(r *result.Result) (*result.Result, []string) {
	if r == nil {
		return nil, nil
	}
	b := *r
	var omitted []string
	if n := len(b.Findings); n > MaxFindings {
		b.Findings = b.Findings[:MaxFindings]
		omitted = append(omitted, fmt.Sprintf("%d of %d findings are listed", MaxFindings, n))
	}
	cut := 0
	for i, f := range b.Findings {
		if len(f.Evidence) > MaxEvidence {
			if cut == 0 {
				b.Findings = append([]finding.Finding(nil), b.Findings...)
			}
			cut++
			ev := append([]string(nil), f.Evidence[:MaxEvidence]...)
			b.Findings[i].Evidence = append(ev, fmt.Sprintf("… %d more lines of evidence (see the raw JSON)", len(f.Evidence)-MaxEvidence))
		}
	}
	if cut > 0 {
		omitted = append(omitted, fmt.Sprintf("the evidence of %d findings is cut to %d lines each", cut, MaxEvidence))
	}
	if n := len(b.Phases); n > MaxPhases {
		b.Phases = b.Phases[:MaxPhases]
		omitted = append(omitted, fmt.Sprintf("%d of %d phases are shown", MaxPhases, n))
	}
	copied := false
	samplesCut := 0
	for i, ph := range b.Phases {
		n := len(ph.Samples)
		if n <= MaxSamples {
			continue
		}
		if !copied {
			b.Phases, copied = append([]result.Phase(nil), b.Phases...), true
		}
		half := MaxSamples / 2
		samples := append([]result.Sample(nil), ph.Samples[:half]...)
		b.Phases[i].Samples = append(samples, ph.Samples[n-half:]...)
		b.Phases[i].Notes = append(append([]string(nil), ph.Notes...),
			fmt.Sprintf("this page shows the first and last %d of the phase's %d monitor samples (the raw JSON has all)", half, n))
		samplesCut++
	}
	if samplesCut > 0 {
		omitted = append(omitted, fmt.Sprintf("the monitor samples of %d phases are cut to their first and last %d", samplesCut, MaxSamples/2))
	}
	for i, ph := range b.Phases {
		if ph.Name != result.PhaseImportedLog || len(ph.Figures) == 0 {
			continue
		}
		var f result.ImportedFigures
		if json.Unmarshal(ph.Figures, &f) != nil {
			continue
		}
		lines, ok := boundMonitoring(&f)
		if !ok {
			continue
		}
		data, err := json.Marshal(f)
		if err != nil {
			continue
		}
		if !copied {
			b.Phases, copied = append([]result.Phase(nil), b.Phases...), true
		}
		b.Phases[i].Figures = data
		omitted = append(omitted, lines...)
	}
	return &b, omitted
}

// boundMonitoring cuts the monitor lines of an imported log to
// MaxMonitorBlocks blocks of at most MaxMonitorRows lines (the first and
// the last), with an elision row; ok is false when nothing was cut.
func boundMonitoring(f *result.ImportedFigures) (omitted []string, ok bool) {
	if n := len(f.Monitoring); n > MaxMonitorBlocks {
		f.Monitoring = f.Monitoring[:MaxMonitorBlocks]
		omitted = append(omitted, fmt.Sprintf("%d of %d blocks of monitor lines are shown", MaxMonitorBlocks, n))
	}
	cut := 0
	var blocks []result.ImportedMonitoring
	for _, m := range f.Monitoring {
		n := len(m.Rows)
		if n <= MaxMonitorRows {
			blocks = append(blocks, m)
			continue
		}
		cut++
		half := MaxMonitorRows / 2
		head, tail := m, m
		head.Rows, tail.Rows = m.Rows[:half], m.Rows[n-half:]
		tail.While = fmt.Sprintf("%s (continued; %d lines left out)", m.While, n-2*half)
		blocks = append(blocks, head, tail)
	}
	f.Monitoring = blocks
	if cut > 0 {
		omitted = append(omitted, fmt.Sprintf("%d blocks of monitor lines show their first and last %d lines only", cut, MaxMonitorRows/2))
	}
	return omitted, len(omitted) > 0
}

// capWriter keeps the first max bytes written to it and counts the rest.
type capWriter struct {
	b   bytes.Buffer
	max int
	cut int
}

// Write implements io.Writer; it never fails, so that the writer of a
// long report runs to its end without error paths.
func (w *capWriter) Write(p []byte) (int, error) {
	room := w.max - w.b.Len()
	switch {
	case room <= 0:
		w.cut += len(p)
	case len(p) > room:
		w.b.Write(p[:room])
		w.cut += len(p) - room
	default:
		w.b.Write(p)
	}
	return len(p), nil
}

// sizeText writes a byte count in MB (10^6 bytes) or kB.
func sizeText(n int) string {
	if n >= 1_000_000 {
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f kB", float64(n)/1e3)
}
