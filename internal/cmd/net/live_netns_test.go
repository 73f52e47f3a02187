package net

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWatchLiveLinesOnPipe watches an interface that receives iperf3
// traffic with standard output on a pipe: one plain line per interval,
// with the traffic's rate in it and no terminal control codes, followed
// by the usual final table.
func TestWatchLiveLinesOnPipe(t *testing.T) {
	needNetns(t)
	l := newLab(t, "v")
	client, server := l.ns("c"), l.ns("s")
	sIf := l.prefix + "s"
	l.link(client, l.prefix+"c", "10.207.1.1/24", server, sIf, "10.207.1.2/24")
	l.iperfServer(server, "10.207.1.2")
	traffic := exec.Command("ip", "netns", "exec", client, "iperf3", "-c", "10.207.1.2", "-t", "12", "-b", "100M")
	if err := traffic.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { traffic.Process.Kill(); traffic.Wait() })
	time.Sleep(1500 * time.Millisecond)

	out, stderr, code := l.boardbench(server, nil, "net", "--watch", sIf, "--duration", "3s", "--interval", "1s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsAny(out, "\x1b\r") {
		t.Errorf("terminal control codes on a pipe:\n%q", out)
	}
	re := regexp.MustCompile(`^(\d+)s \(last [\d.]+s\): ` + regexp.QuoteMeta(sIf) + ` rx ([\d.]+) Mbit/s (\d+) pps tx [\d.]+ Mbit/s \d+ pps; CPU usr/sys/irq/softirq %:( \d+ \d+/\d+/\d+/\d+)+$`)
	var live []string
	for _, line := range strings.Split(out, "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		live = append(live, line)
		// 100 Mbit/s of iperf3 traffic (veth merges segments, so few but
		// some packets): a rate that is the traffic's, not zero.
		mbit, _ := strconv.ParseFloat(m[2], 64)
		pps, _ := strconv.ParseFloat(m[3], 64)
		if mbit < 50 || mbit > 150 || pps <= 0 {
			t.Errorf("live line with rx %.1f Mbit/s, %.0f pps; want about 100 Mbit/s: %q", mbit, pps, line)
		}
	}
	if len(live) < 2 || len(live) > 3 {
		t.Fatalf("want 2 or 3 interval lines over 3 s at 1 s, got %d:\n%s\nstderr:\n%s", len(live), out, stderr)
	}
	if !strings.HasPrefix(live[0], "1s ") {
		t.Errorf("first interval line = %q, want it at 1s", live[0])
	}
	// The final table still follows the live lines.
	last := strings.Index(out, live[len(live)-1])
	if !strings.Contains(out[last:], sIf) || len(strings.TrimSpace(out[last+len(live[len(live)-1]):])) == 0 {
		t.Errorf("no final table after the live lines:\n%s", out)
	}
}
