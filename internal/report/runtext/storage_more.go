package runtext

import (
	"fmt"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// usCell is a latency in microseconds, or "unknown".
func usCell(v *float64) string {
	if v == nil {
		return "unknown"
	}
	if *v >= 100 {
		return fmt.Sprintf("%.0f", *v)
	}
	return fmt.Sprintf("%.1f", *v)
}

// renderStorageLatency writes the latency cells: completion latency
// percentiles per test and queue depth.
func renderStorageLatency(w *textfmt.Writer, cells []result.StorageLatency) {
	if len(cells) == 0 {
		return
	}
	fmt.Fprintln(w.W)
	t := textfmt.NewTable("4 KiB", "QD", "IOPS", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "requests")
	for i := 1; i < len(t.RightAlign); i++ {
		t.RightAlign[i] = true
	}
	var notes []string
	for _, c := range cells {
		iops := "unknown"
		if c.IOPS != nil {
			iops = fmt.Sprintf("%.0f", *c.IOPS)
		}
		t.Row(strings.ReplaceAll(c.Test, "_", " "), fmt.Sprint(c.QueueDepth), iops, usCell(c.P50Us), usCell(c.P99Us), usCell(c.P999Us), usCell(c.MaxUs), fmt.Sprint(c.Ops))
		name := strings.ReplaceAll(c.Test, "_", " ")
		if c.Error != "" {
			notes = append(notes, fmt.Sprintf("%s QD%d: %s", name, c.QueueDepth, c.Error))
		} else if c.Note != "" {
			notes = append(notes, fmt.Sprintf("%s QD%d: %s", name, c.QueueDepth, c.Note))
		}
	}
	w.Table(t)
	w.Line("completion latency (submission to completion, as fio's clat) of random requests over the read file, Linux native AIO with O_DIRECT; µs = microseconds")
	for _, n := range notes {
		w.Line("%s", n)
	}
}

// renderStorageDevices writes each device's table of a run over several
// paths at once; the table above is their sum.
func renderStorageDevices(w *textfmt.Writer, devs []result.StorageDevice) {
	if len(devs) == 0 {
		return
	}
	w.Line("%d devices measured at the same time, each cell started on all together: the table above is their sum", len(devs))
	for _, d := range devs {
		fmt.Fprintln(w.W)
		w.Line("%s (%s, %s):", d.Path, textfmt.OrUnknown(d.Device), textfmt.OrUnknown(d.Kind))
		f := d.Figures
		f.Devices, f.Governors, f.IRQ = nil, nil, ""
		renderStorage(w, f)
	}
}

// renderStorageSustained writes the sustained-write test.
func renderStorageSustained(w *textfmt.Writer, f result.StorageSustainedFigures) {
	fmt.Fprintln(w.W)
	kbs := func(v *float64) string {
		if v == nil {
			return "unknown"
		}
		return fmt.Sprintf("%.0f KiB/s (%.1f MB/s)", *v, *v*1024/1e6)
	}
	w.Line("written: %s in %.1f s, stopped by %s%s", textfmt.Bytes(f.WrittenBytes), f.Seconds, f.StoppedBy, errSuffix(f.Error))
	if f.Fell && f.CacheBytes != nil {
		w.Line("the rate fell after %s (the write cache): %s before, %s after", textfmt.Bytes(*f.CacheBytes), kbs(f.KBsBefore), kbs(f.KBsAfter))
	} else {
		w.Line("the rate did not fall: %s (median of %d windows); a write cache, if any, holds more than %s", kbs(f.KBsBefore), len(f.Windows), textfmt.Bytes(f.WrittenBytes))
	}
	t := textfmt.NewTable("written", "KiB/s")
	t.RightAlign[0], t.RightAlign[1] = true, true
	step := max(1, len(f.Windows)/16)
	for i, x := range f.Windows {
		if i%step == 0 || i == len(f.Windows)-1 {
			t.Row(textfmt.Bytes(x.WrittenBytes), fmt.Sprintf("%.0f", x.KBs))
		}
	}
	w.Table(t)
	mode := "O_DIRECT"
	if !f.Direct {
		mode = "through the page cache"
	}
	w.Line("sequential writes of %s with %s, fdatasync at the end of every %s window; fall rule: %s", textfmt.Bytes(f.ChunkBytes), mode, textfmt.Bytes(f.WindowBytes), f.FallRule)
}

// renderStorageCapacity writes the fake-capacity check.
func renderStorageCapacity(w *textfmt.Writer, f result.StorageCapacityFigures) {
	fmt.Fprintln(w.W)
	stopped := "stopped by " + f.StoppedBy
	if f.StoppedBy == "done" {
		stopped = "all of it written"
	}
	w.Line("written: %s of position-tagged %d-byte blocks (free space %s, less a margin), %s%s", textfmt.Bytes(f.WrittenBytes), f.BlockBytes, textfmt.Bytes(f.FreeBytes), stopped, errSuffix(f.Error))
	w.Line("read back intact: %s (the real capacity of what was tested)", textfmt.Bytes(f.OKBytes))
	if lost := f.ZeroBytes + f.MovedBytes + f.ChangedBytes; lost > 0 {
		w.Line("lost: %s (%s read back as zeros, %s as another position's block, %s changed)", textfmt.Bytes(lost), textfmt.Bytes(f.ZeroBytes), textfmt.Bytes(f.MovedBytes), textfmt.Bytes(f.ChangedBytes))
	}
	if f.FirstBadOffset != nil {
		w.Line("first lost block at %s into the written data", textfmt.Bytes(*f.FirstBadOffset))
	}
	w.Line("write %.1f s, read back %.1f s; every file was unlinked as soon as it was created", f.WriteSeconds, f.ReadSeconds)
}

func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return " (" + e + ")"
}

// renderFioLatency writes fio's completion latency percentiles next to
// boardbench's for the latency jobs.
func renderFioLatency(w *textfmt.Writer, jobs []result.StorageFioJob) {
	t := textfmt.NewTable("fio job", "QD", "fio p50", "p99", "p99.9", "boardbench p50", "p99", "p99.9")
	for i := 1; i < len(t.RightAlign); i++ {
		t.RightAlign[i] = true
	}
	rows := 0
	for _, j := range jobs {
		if j.QueueDepth == 0 {
			continue
		}
		rows++
		t.Row(j.Name, fmt.Sprint(j.QueueDepth), usCell(j.ClatP50Us), usCell(j.ClatP99Us), usCell(j.ClatP999Us),
			usCell(j.BoardbenchP50Us), usCell(j.BoardbenchP99Us), usCell(j.BoardbenchP999Us))
	}
	if rows == 0 {
		return
	}
	fmt.Fprintln(w.W)
	w.Table(t)
	w.Line("completion latency in µs: fio's clat percentiles (from its histogram) and boardbench's (nearest rank over every request)")
}
