package monitor

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"boardbench/internal/finding"
	"boardbench/internal/monitor"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// longFindings are findings as long as real ones get: long titles,
// evidence naming processes and command lines, long advice.
func longFindings() []finding.Finding {
	return []finding.Finding{
		{ID: "background-activity", Severity: finding.Warning,
			Title: "other tasks used 38% of the CPU time while the command ran: kworker/u8:2+events_unbound, systemd-journald, unattended-upgr",
			Evidence: []string{
				"busy 100% while the command's own processes used 62%: the rest was taken by /usr/lib/systemd/systemd-journald, /usr/bin/python3 /usr/bin/unattended-upgrade --download-only",
				"averaged over 31 samples of 2 s, the first sample left out because it covers the time before the command started",
			},
			Advice: "stop the services named above (systemctl stop unattended-upgrades.service apt-daily.timer) and run the command again, or pin it to CPUs they do not use with --cpus",
			Phases: []string{"command"}},
		{ID: "throttling", Severity: finding.Invalidates,
			Title:    "the CPU clock was held below its maximum by the thermal governor for 41% of the run (cpu4-7 Cortex-A76 at 1800 of 2400 MHz)",
			Evidence: []string{"time in state of policy4: 2400000 kHz 59%, 2208000 kHz 11%, 2016000 kHz 12%, 1800000 kHz 18%; trip point cpu_thermal passive at 85.0 °C"}},
	}
}

// TestSummaryWidth: the summary `monitor -- COMMAND` prints at its end
// fits in textfmt.MaxWidth, long findings and a long command included,
// and keeps every word.
func TestSummaryWidth(t *testing.T) {
	res := result.New("monitor", nil, nil)
	res.Findings = longFindings()
	res.Summary.Verdict = "not valid: other tasks used 38% of the CPU time while the command ran; the CPU clock was held below its maximum"
	p := result.Phase{Name: result.PhaseCommand, Title: "sh -c 'for i in 1 2 3 4; do stress-ng --cpu 4 --timeout 60s --metrics-brief; done; sync; echo done'",
		Status: result.PhaseOK}
	p.Notes = []string{"the command left 2 processes running when it exited; boardbench stopped them: stress-ng-cpu (pid 4242), stress-ng-cpu (pid 4243)"}
	var b bytes.Buffer
	writeSummary(&b, res, p, monitor.Config{}, "/home/reviewer/results/boardbench-monitor-2025-03-01T10-00-00-a-rather-long-name.json")
	out := b.String()
	for i, l := range strings.Split(out, "\n") {
		if w := utf8.RuneCountInString(l); w > textfmt.MaxWidth {
			t.Errorf("line %d is %d columns wide: %q", i+1, w, l)
		}
	}
	words := strings.Fields(strings.Join([]string{res.Findings[0].Title, res.Findings[0].Evidence[0], res.Findings[0].Advice, res.Findings[1].Evidence[0], p.Title}, " "))
	flat := strings.Join(strings.Fields(out), " ")
	for _, w := range words {
		if !strings.Contains(flat, w) {
			t.Errorf("summary lost the word %q", w)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

// TestSummaryFindingStyle: monitor writes findings in run's one style
// (finding.TextLines): severity in capitals, "advice:", never an arrow.
func TestSummaryFindingStyle(t *testing.T) {
	res := result.New("monitor", nil, nil)
	res.Findings = longFindings()
	p := result.Phase{Name: result.PhaseCommand, Title: "true", Status: result.PhaseOK}
	var b bytes.Buffer
	writeSummary(&b, res, p, monitor.Config{}, "")
	out := b.String()
	for _, want := range []string{"  [WARNING] background-activity: ", "  [INVALIDATES] throttling: ", "      advice: stop the services", "      phases: command"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"[warning]", "→", "boardbench: "} {
		if strings.Contains(out, bad) {
			t.Errorf("summary holds %q:\n%s", bad, out)
		}
	}
}
