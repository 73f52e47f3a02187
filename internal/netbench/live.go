package netbench

import (
	"fmt"
	"io"
	"strings"
	"time"

	"boardbench/internal/netstat"
	"boardbench/internal/textfmt"
)

// Bounds of --interval, the refresh of the live view of --watch: the
// default, the shortest and the longest.
const (
	DefaultLiveInterval = 2 * time.Second
	MinLiveInterval     = 500 * time.Millisecond
	MaxLiveInterval     = time.Hour
)

// liveTable renders the last interval of a watch as a compact table for a
// terminal: one row per interface (receive and transmit Mbit/s and packets
// per second) and one per CPU (user, system, interrupt and soft interrupt
// time in %), every line within textfmt.MaxWidth columns. elapsed is the
// time watched so far.
func liveTable(elapsed time.Duration, w netstat.Window) []string {
	lines := []string{fmt.Sprintf("watching for %s · the last %.1f s:", elapsed.Round(time.Second), w.Seconds)}
	lines = append(lines, fmt.Sprintf("%-15s %10s %10s %10s %10s", "interface", "rx Mbit/s", "rx pps", "tx Mbit/s", "tx pps"))
	for _, r := range w.Rates {
		lines = append(lines, fmt.Sprintf("%-15s %10.1f %10.0f %10.1f %10.0f", r.Name, r.RxMbitS, r.RxPPS, r.TxMbitS, r.TxPPS))
	}
	if len(w.Rates) == 0 {
		lines = append(lines, "  (no interface counters could be read)")
	}
	lines = append(lines, fmt.Sprintf("%-15s %10s %10s %10s %10s", "CPU", "usr %", "sys %", "irq %", "softirq %"))
	for _, c := range w.CPULoad {
		lines = append(lines, fmt.Sprintf("%-15s %10.1f %10.1f %10.1f %10.1f", fmt.Sprintf("CPU%d", c.CPU), c.Usr, c.Sys, c.IRQ, c.Softirq))
	}
	if len(w.CPULoad) == 0 {
		lines = append(lines, "  (the CPU times could not be read)")
	}
	for i, l := range lines {
		if r := []rune(l); len(r) > textfmt.MaxWidth {
			lines[i] = string(r[:textfmt.MaxWidth])
		}
	}
	return lines
}

// liveLine renders the last interval of a watch as one plain line for a
// pipe or a log: the time watched, then per interface "rx MBIT/PPS tx
// MBIT/PPS", then per CPU "usr/sys/irq/softirq" in %.
func liveLine(elapsed time.Duration, w netstat.Window) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (last %.1fs):", elapsed.Round(time.Second), w.Seconds)
	for _, r := range w.Rates {
		fmt.Fprintf(&b, " %s rx %.1f Mbit/s %.0f pps tx %.1f Mbit/s %.0f pps;", r.Name, r.RxMbitS, r.RxPPS, r.TxMbitS, r.TxPPS)
	}
	if len(w.CPULoad) > 0 {
		b.WriteString(" CPU usr/sys/irq/softirq %:")
		for _, c := range w.CPULoad {
			fmt.Fprintf(&b, " %d %.0f/%.0f/%.0f/%.0f", c.CPU, c.Usr, c.Sys, c.IRQ, c.Softirq)
		}
	}
	return strings.TrimSuffix(b.String(), ";")
}

// liveView shows the live figures of a watch: on a terminal the table is
// redrawn in place, elsewhere one line per interval is written.
type liveView struct {
	w   io.Writer
	tty bool
	// prefix starts each plain line ("boardbench net: " on standard error).
	prefix string
	// shown is the number of table lines on screen.
	shown int
}

// show writes the figures of one interval.
func (v *liveView) show(elapsed time.Duration, win netstat.Window) {
	if v.w == nil {
		return
	}
	if !v.tty {
		fmt.Fprintln(v.w, v.prefix+liveLine(elapsed, win))
		return
	}
	lines := liveTable(elapsed, win)
	var b strings.Builder
	v.erase(&b)
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	v.shown = len(lines)
	io.WriteString(v.w, b.String())
}

// clear removes the table from the terminal (nothing on a pipe).
func (v *liveView) clear() {
	if v.w == nil || !v.tty || v.shown == 0 {
		return
	}
	var b strings.Builder
	v.erase(&b)
	v.shown = 0
	io.WriteString(v.w, b.String())
}

// erase moves the cursor up over the table on screen and erases to the
// end of the screen.
func (v *liveView) erase(b *strings.Builder) {
	if v.shown > 0 {
		fmt.Fprintf(b, "\x1b[%dA\r\x1b[J", v.shown)
	}
}
