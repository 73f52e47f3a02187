// Package netstat samples where a machine spends its time on network
// traffic: per-CPU user, system, hard-interrupt and soft-interrupt time
// (/proc/stat), the interrupts of the network interfaces per CPU
// (/proc/interrupts), the NET_RX and NET_TX soft interrupts per CPU
// (/proc/softirqs) and the interfaces' own counters
// (/sys/class/net/IF/statistics). A Snapshot is cheap (a handful of file
// reads); the figures of a window are the differences of two snapshots.
package netstat

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/result"
)

// counterNames are the files of /sys/class/net/IF/statistics read per
// interface.
var counterNames = []string{"rx_bytes", "tx_bytes", "rx_packets", "tx_packets", "rx_dropped", "tx_dropped", "rx_errors", "tx_errors"}

// Snapshot is one reading of the counters.
type Snapshot struct {
	// Time is when the reading was taken.
	Time time.Time
	// CPU holds the cumulative times per CPU; nil when /proc/stat was
	// unreadable.
	CPU map[int]kernelfile.CPUTimes
	// Interrupts is /proc/interrupts; Softirqs /proc/softirqs (empty when
	// unreadable).
	Interrupts kernelfile.Interrupts
	Softirqs   kernelfile.Softirqs
	// Counters holds each interface's statistics by counter name.
	Counters map[string]map[string]uint64
}

// Sampler reads snapshots of one machine for a set of interfaces.
type Sampler struct {
	Host *host.Host
	// Interfaces are the interfaces whose counters are read.
	Interfaces []string
	// IRQs are the interrupt labels (numbers) that belong to the
	// interfaces, see InterfaceIRQs.
	IRQs []string
}

// Take reads one snapshot. Files that cannot be read leave their part
// empty; the figures then say nothing about it rather than something
// wrong.
func (s *Sampler) Take() Snapshot {
	snap := Snapshot{Time: time.Now(), Counters: map[string]map[string]uint64{}}
	if b, err := s.Host.ReadFile("/proc/stat"); err == nil {
		_, per, _ := kernelfile.ParseStat(b)
		snap.CPU = per
	}
	if b, err := s.Host.ReadFile("/proc/interrupts"); err == nil {
		snap.Interrupts, _ = kernelfile.ParseInterrupts(b)
	}
	if b, err := s.Host.ReadFile("/proc/softirqs"); err == nil {
		snap.Softirqs, _ = kernelfile.ParseSoftirqs(b)
	}
	for _, ifname := range s.Interfaces {
		c := map[string]uint64{}
		for _, n := range counterNames {
			if v, err := s.Host.ReadInt(path.Join("/sys/class/net", ifname, "statistics", n)); err == nil && v >= 0 {
				c[n] = uint64(v)
			}
		}
		snap.Counters[ifname] = c
	}
	return snap
}

// Window holds the figures between two snapshots.
type Window struct {
	Seconds    float64
	CPULoad    []result.NetCPULoad
	Interrupts []result.NetInterrupt
	Softirqs   []result.NetSoftirq
	Counters   []result.NetCounters
	Rates      []result.NetInterfaceRate
}

// Between computes the figures of the window from a to b for the
// interrupts irqs.
func Between(a, b Snapshot, irqs []string) Window {
	w := Window{Seconds: b.Time.Sub(a.Time).Seconds(), CPULoad: []result.NetCPULoad{}, Interrupts: []result.NetInterrupt{}, Softirqs: []result.NetSoftirq{}}
	for _, cpu := range sortedCPUs(b.CPU) {
		before, ok := a.CPU[cpu]
		if !ok {
			continue
		}
		after := b.CPU[cpu]
		total := float64(delta(before.Total(), after.Total()))
		if total <= 0 {
			continue
		}
		pct := func(x, y uint64) float64 { return round1(100 * float64(delta(x, y)) / total) }
		w.CPULoad = append(w.CPULoad, result.NetCPULoad{
			CPU:     cpu,
			Usr:     pct(before.User+before.Nice, after.User+after.Nice),
			Sys:     pct(before.System, after.System),
			IRQ:     pct(before.IRQ, after.IRQ),
			Softirq: pct(before.SoftIRQ, after.SoftIRQ),
		})
	}
	for _, line := range b.Interrupts.Lines {
		if !slices.Contains(irqs, line.IRQ) {
			continue
		}
		prev := findLine(a.Interrupts, line.IRQ)
		for _, cpu := range b.Interrupts.CPUs {
			var was uint64
			if prev != nil {
				was = a.Interrupts.CountOn(*prev, cpu)
			}
			if d := delta(was, b.Interrupts.CountOn(line, cpu)); d > 0 {
				w.Interrupts = append(w.Interrupts, result.NetInterrupt{IRQ: line.IRQ, Name: strings.Join(line.Actions, ", "), CPU: cpu, Count: d})
			}
		}
	}
	for _, cpu := range b.Softirqs.CPUs {
		rx := delta(a.Softirqs.CountOn("NET_RX", cpu), b.Softirqs.CountOn("NET_RX", cpu))
		tx := delta(a.Softirqs.CountOn("NET_TX", cpu), b.Softirqs.CountOn("NET_TX", cpu))
		w.Softirqs = append(w.Softirqs, result.NetSoftirq{CPU: cpu, NetRX: rx, NetTX: tx})
	}
	for _, ifname := range sortedNames(b.Counters) {
		before, after := a.Counters[ifname], b.Counters[ifname]
		if before == nil || after == nil {
			continue
		}
		d := func(n string) uint64 { return delta(before[n], after[n]) }
		c := result.NetCounters{Interface: ifname, RxBytes: d("rx_bytes"), TxBytes: d("tx_bytes"), RxPackets: d("rx_packets"),
			TxPackets: d("tx_packets"), RxDropped: d("rx_dropped"), TxDropped: d("tx_dropped"), RxErrors: d("rx_errors"), TxErrors: d("tx_errors")}
		w.Counters = append(w.Counters, c)
		if w.Seconds > 0 {
			w.Rates = append(w.Rates, result.NetInterfaceRate{
				Name:    ifname,
				RxMbitS: round1(float64(c.RxBytes) * 8 / 1e6 / w.Seconds),
				TxMbitS: round1(float64(c.TxBytes) * 8 / 1e6 / w.Seconds),
				RxPPS:   round1(float64(c.RxPackets) / w.Seconds),
				TxPPS:   round1(float64(c.TxPackets) / w.Seconds),
			})
		}
	}
	return w
}

// Fill copies the window into figures.
func (w Window) Fill(f *result.NetFigures) {
	f.Seconds = round1(w.Seconds*1000) / 1000
	f.CPULoad, f.Interrupts, f.Softirqs, f.Counters = w.CPULoad, w.Interrupts, w.Softirqs, w.Counters
}

// Rate returns the rate of one interface in the window (nil when it was
// not read).
func (w Window) Rate(ifname string) *result.NetInterfaceRate {
	for i := range w.Rates {
		if w.Rates[i].Name == ifname {
			return &w.Rates[i]
		}
	}
	return nil
}

// delta is b-a, 0 when the counter went backwards (wrapped or reset).
func delta(a, b uint64) uint64 {
	if b < a {
		return 0
	}
	return b - a
}

func round1(v float64) float64 { return float64(int64(v*10+0.5)) / 10 }

func findLine(t kernelfile.Interrupts, irq string) *kernelfile.Interrupt {
	for i := range t.Lines {
		if t.Lines[i].IRQ == irq {
			return &t.Lines[i]
		}
	}
	return nil
}

func sortedCPUs(m map[int]kernelfile.CPUTimes) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// CheckInterface says why an interface cannot be measured: missing, or
// without carrier. It returns nil for an interface that is up with a link.
func CheckInterface(h *host.Host, ifname string) error {
	if ifname == "" || strings.ContainsAny(ifname, "/\x00") || ifname == "." || ifname == ".." {
		return fmt.Errorf("interface %q: not a valid interface name", ifname)
	}
	dir := path.Join("/sys/class/net", ifname)
	if !h.Exists(dir) {
		return fmt.Errorf("interface %s: no such interface", ifname)
	}
	if v, err := h.ReadString(dir + "/carrier"); err != nil || strings.TrimSpace(v) != "1" {
		state, _ := h.ReadString(dir + "/operstate")
		return fmt.Errorf("interface %s: no carrier (state %s)", ifname, strings.TrimSpace(state))
	}
	return nil
}
