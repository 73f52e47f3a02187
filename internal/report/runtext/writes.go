package runtext

import (
	"fmt"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
	"boardbench/internal/writewatch"
)

// maxWritesLines is how many of a watch's lines the text view shows (the
// last ones); the JSON result keeps them all.
const maxWritesLines = 40

// renderWrites writes the lines of a `boardbench writes` watch, then its
// summary and advice.
func renderWrites(w *textfmt.Writer, f result.WritesFigures) {
	fmt.Fprintln(w.W)
	lines := f.Lines
	if len(lines) > maxWritesLines {
		w.Line("(%d earlier lines left out: see the JSON result)", len(lines)-maxWritesLines)
		lines = lines[len(lines)-maxWritesLines:]
	}
	for _, l := range lines {
		fmt.Fprintln(w.W, writewatch.FitLine(l, textfmt.MaxWidth))
	}
	if len(f.Lines) == 0 {
		w.Line("nothing was written to %s", orDash(f.Device))
	}
	RenderWritesSummary(w, f)
}

// RenderWritesSummary writes how often, how much and by whom a device was
// written to, and the advice that would reduce it.
func RenderWritesSummary(w *textfmt.Writer, f result.WritesFigures) {
	w.Section("Summary")
	every := "n/a (no writes)"
	if f.Events > 0 {
		every = fmt.Sprintf("every %.1f s on average", f.DurationS/float64(f.Events))
	}
	w.KV([2]string{"watched", fmt.Sprintf("%s for %.0f s", f.Device, f.DurationS)},
		[2]string{"written", fmt.Sprintf("%d times (%s), %d requests, %.0f KiB", f.Events, every, f.Writes, f.KiBWritten)})
	if len(f.TopWriters) > 0 {
		t := textfmt.NewTable("process", "pid", "written")
		t.RightAlign[1], t.RightAlign[2] = true, true
		for _, wr := range f.TopWriters {
			t.Row(wr.Comm, fmt.Sprint(wr.PID), fmt.Sprintf("%.0f KiB", wr.KiB))
		}
		w.Table(t)
		if len(f.AttributedDevices) == 0 {
			// A result of an older version counted every writer.
			w.Line("(write_bytes of each process over all devices)")
		} else {
			w.Line("(processes holding a file open for writing on %s; write_bytes of each over all devices)", writesDevices(f))
		}
	}
	if len(f.TopNotAttributable) > 0 {
		w.Line("writes not attributable to a device (no file open for writing on any disk at the poll):")
		t := textfmt.NewTable("process", "pid", "written")
		t.RightAlign[1], t.RightAlign[2] = true, true
		for _, wr := range f.TopNotAttributable {
			t.Row(wr.Comm, fmt.Sprint(wr.PID), fmt.Sprintf("%.0f KiB", wr.KiB))
		}
		w.Table(t)
	}
	if len(f.Advice) > 0 {
		w.Section("Advice")
		for _, a := range f.Advice {
			w.Line("%s: %s", a.ID, a.Evidence)
			w.Line("  change: %s", a.Change)
			w.Line("  cost:   %s", a.Cost)
		}
	}
}

// writesDevices names the devices whose writers were counted: the watched
// one, with its partitions and stacked devices when the result lists them.
func writesDevices(f result.WritesFigures) string {
	var others []string
	for _, n := range f.AttributedDevices {
		if n != f.Device {
			others = append(others, n)
		}
	}
	if len(others) == 0 {
		return orDash(f.Device)
	}
	return orDash(f.Device) + " or " + strings.Join(others, ", ")
}
