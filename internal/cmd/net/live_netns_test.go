package net

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestWatchLiveLinesOnPipe watches an interface that receives iperf3
// traffic with standard output on a pipe: one plain line per interval,
// with the traffic's rate in it and no terminal control codes, followed
// by the usual final table. The traffic lasts until the test ends and the
// watch starts once it flows; the assertions are about the lines' shape,
// never about the machine's speed (a loaded machine may drop a tick or
// starve iperf3 for a moment).
func TestWatchLiveLinesOnPipe(t *testing.T) {
	needNetns(t)
	l := newLab(t, "v")
	client, server := l.ns("c"), l.ns("s")
	sIf := l.prefix + "s"
	l.link(client, l.prefix+"c", "10.207.1.1/24", server, sIf, "10.207.1.2/24")
	l.iperfServer(server, "10.207.1.2")
	traffic := exec.Command("ip", "netns", "exec", client, "iperf3", "-c", "10.207.1.2", "-t", "3600", "-b", "100M")
	if err := traffic.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { traffic.Process.Kill(); traffic.Wait() })
	l.waitTraffic(server, sIf, 1<<20)

	out, stderr, code := l.boardbench(server, nil, "net", "--watch", sIf, "--duration", "3s", "--interval", "1s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsAny(out, "\x1b\r") {
		t.Errorf("terminal control codes on a pipe:\n%q", out)
	}
	re := regexp.MustCompile(`^(\d+)s \(last [\d.]+s\): ` + regexp.QuoteMeta(sIf) + ` rx ([\d.]+) Mbit/s (\d+) pps tx [\d.]+ Mbit/s \d+ pps; CPU usr/sys/irq/softirq %:( \d+ \d+/\d+/\d+/\d+)+$`)
	var live []string
	flowing := false
	for _, line := range strings.Split(out, "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		live = append(live, line)
		// iperf3 sends 100 Mbit/s (veth merges segments, so few but some
		// packets). A starved iperf3 may leave one interval nearly empty,
		// and catch up in a burst in the next, so only this is asserted:
		// the traffic shows in the live lines.
		mbit, _ := strconv.ParseFloat(m[2], 64)
		pps, _ := strconv.ParseFloat(m[3], 64)
		if mbit > 1 && pps > 0 {
			flowing = true
		}
		if sec, _ := strconv.Atoi(m[1]); sec < 1 {
			t.Errorf("interval line at %ds, want 1s or later: %q", sec, line)
		}
	}
	// One line per tick of 1 s over 3 s: at most 3; a loaded machine may
	// drop ticks, but not all of them.
	if len(live) < 1 || len(live) > 3 {
		t.Fatalf("want 1 to 3 interval lines over 3 s at 1 s, got %d:\n%s\nstderr:\n%s", len(live), out, stderr)
	}
	if !flowing {
		t.Errorf("no live line shows the iperf3 traffic:\n%s", strings.Join(live, "\n"))
	}
	// The final table still follows the live lines.
	last := strings.Index(out, live[len(live)-1])
	if !strings.Contains(out[last:], sIf) || len(strings.TrimSpace(out[last+len(live[len(live)-1]):])) == 0 {
		t.Errorf("no final table after the live lines:\n%s", out)
	}
}
