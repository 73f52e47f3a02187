package netbench

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"boardbench/internal/kernelfile"
	"boardbench/internal/netstat"
	"boardbench/internal/textfmt"
)

// recorded returns two snapshots 2 s apart: eth0 received 250 MB and
// 200000 packets and sent 1 MB and 4000 packets; CPU0 spent 10% user, 20%
// system, 5% interrupt and 40% soft interrupt time, CPU1 was idle.
func recorded(ifname string, cpus int) (netstat.Snapshot, netstat.Snapshot) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := netstat.Snapshot{Time: t0, CPU: map[int]kernelfile.CPUTimes{}, Counters: map[string]map[string]uint64{
		ifname: {"rx_bytes": 1000, "tx_bytes": 1000, "rx_packets": 10, "tx_packets": 10}}}
	b := netstat.Snapshot{Time: t0.Add(2 * time.Second), CPU: map[int]kernelfile.CPUTimes{}, Counters: map[string]map[string]uint64{
		ifname: {"rx_bytes": 1000 + 250e6, "tx_bytes": 1000 + 1e6, "rx_packets": 10 + 200000, "tx_packets": 10 + 4000}}}
	for c := 0; c < cpus; c++ {
		a.CPU[c] = kernelfile.CPUTimes{User: 100, System: 100, Idle: 1000, IRQ: 10, SoftIRQ: 10}
		if c == 0 {
			b.CPU[c] = kernelfile.CPUTimes{User: 120, System: 140, Idle: 1050, IRQ: 20, SoftIRQ: 90}
		} else {
			b.CPU[c] = kernelfile.CPUTimes{User: 100, System: 100, Idle: 1200, IRQ: 10, SoftIRQ: 10}
		}
	}
	return a, b
}

func TestLiveRendering(t *testing.T) {
	tests := []struct {
		name      string
		ifname    string
		cpus      int
		elapsed   time.Duration
		wantTable []string
		wantLine  []string
	}{
		{"one interface, two CPUs", "eth0", 2, 6 * time.Second,
			[]string{"watching for 6s · the last 2.0 s:", "eth0", "1000.0", "100000", "4.0", "2000",
				"CPU0                  10.0       20.0        5.0       40.0", "CPU1                   0.0        0.0        0.0        0.0"},
			[]string{"6s (last 2.0s):", "eth0 rx 1000.0 Mbit/s 100000 pps tx 4.0 Mbit/s 2000 pps", "CPU usr/sys/irq/softirq %: 0 10/20/5/40 1 0/0/0/0"}},
		{"longest interface name, 64 CPUs", "abcdefghijklmno", 64, 90 * time.Second,
			[]string{"watching for 1m30s", "abcdefghijklmno", "CPU63"},
			[]string{"1m30s (last 2.0s):", "abcdefghijklmno rx 1000.0", " 63 0/0/0/0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := recorded(tt.ifname, tt.cpus)
			w := netstat.Between(a, b, nil)
			table := liveTable(tt.elapsed, w)
			if len(table) != 3+1+tt.cpus {
				t.Errorf("table has %d lines, want %d:\n%s", len(table), 4+tt.cpus, strings.Join(table, "\n"))
			}
			joined := strings.Join(table, "\n")
			for _, want := range tt.wantTable {
				if !strings.Contains(joined, want) {
					t.Errorf("table lacks %q:\n%s", want, joined)
				}
			}
			for _, l := range table {
				if n := utf8.RuneCountInString(l); n > textfmt.MaxWidth {
					t.Errorf("line of %d columns: %q", n, l)
				}
				if strings.Contains(l, "\x1b") {
					t.Errorf("control code in a table line: %q", l)
				}
			}
			line := liveLine(tt.elapsed, w)
			for _, want := range tt.wantLine {
				if !strings.Contains(line, want) {
					t.Errorf("line lacks %q: %q", want, line)
				}
			}
			if strings.ContainsAny(line, "\n\x1b\r") {
				t.Errorf("plain line with a newline or control code: %q", line)
			}
		})
	}
}

func TestLiveViewRedrawsOnTerminalOnly(t *testing.T) {
	a, b := recorded("eth0", 2)
	w := netstat.Between(a, b, nil)
	tests := []struct {
		name  string
		tty   bool
		check func(t *testing.T, out string)
	}{
		{"terminal", true, func(t *testing.T, out string) {
			n := len(liveTable(2*time.Second, w))
			if want := "\x1b[" + strconv.Itoa(n) + "A\r\x1b[J"; strings.Count(out, want) != 2 {
				t.Errorf("want the table erased twice (second draw and clear) with %q:\n%q", want, out)
			}
			if strings.Count(out, "watching for") != 2 {
				t.Errorf("want two tables drawn: %q", out)
			}
		}},
		{"pipe", false, func(t *testing.T, out string) {
			if strings.Contains(out, "\x1b") || strings.Contains(out, "\r") {
				t.Errorf("control codes on a pipe: %q", out)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "p: 2s (last 2.0s):") || !strings.HasPrefix(lines[1], "p: 4s ") {
				t.Errorf("want two plain lines: %q", out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			v := &liveView{w: &buf, tty: tt.tty, prefix: "p: "}
			v.show(2*time.Second, w)
			v.show(4*time.Second, w)
			v.clear()
			tt.check(t, buf.String())
		})
	}
}
