package runtext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/finding"
)

// TestMonitorLongFindingsFitWidth renders a `monitor -- COMMAND` result
// with findings as long as real ones get and a long command line: every
// line fits in textfmt.MaxWidth and no word is lost.
func TestMonitorLongFindingsFitWidth(t *testing.T) {
	r := monitoredCommand()
	r.Phases[0].Title = "sh -c 'for i in 1 2 3 4; do stress-ng --cpu 4 --timeout 60s --metrics-brief --verify; done; sync; echo done'"
	r.Findings = []finding.Finding{
		{ID: "background-activity", Severity: finding.Warning,
			Title: "other tasks used 38% of the CPU time while the command ran: kworker/u8:2+events_unbound, systemd-journald, unattended-upgr",
			Evidence: []string{
				"busy 100% while the command's own processes used 62%: the rest was taken by /usr/lib/systemd/systemd-journald, /usr/bin/python3 /usr/bin/unattended-upgrade --download-only",
				"/sys/devices/system/cpu/cpufreq/policy4/stats/time_in_state:2400000-59%,2208000-11%,2016000-12%,1800000-18%-no-spaces-at-all",
			},
			Advice: "stop the services named above (systemctl stop unattended-upgrades.service apt-daily.timer) and run the command again, or pin it to CPUs they do not use with --cpus",
			Phases: []string{"command", "a-phase-with-a-rather-long-name-that-goes-on", "and-another-phase-with-a-long-name-too"}},
	}
	r.Summary.Verdict = "not valid: other tasks used 38% of the CPU time while the command ran; the CPU clock was held below its maximum"
	var b bytes.Buffer
	Render(&b, r, false)
	out := b.String()
	checkWidth(t, out)
	flat := strings.Join(strings.Fields(out), " ")
	for _, w := range strings.Fields(r.Findings[0].Title + " " + r.Findings[0].Advice + " " + r.Findings[0].Evidence[0]) {
		if !strings.Contains(flat, w) {
			t.Errorf("report lost the word %q", w)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}
