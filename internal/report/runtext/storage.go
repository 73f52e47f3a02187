package runtext

import (
	"fmt"
	"strings"

	"boardbench/internal/inventory/buses"
	"boardbench/internal/result"
	"boardbench/internal/storagebench"
	"boardbench/internal/textfmt"
)

// RenderDevice writes the identity of the storage a storage command
// measured (nothing when the result has none).
func RenderDevice(w *textfmt.Writer, id *result.DeviceIdentity) {
	if id == nil {
		return
	}
	w.Section("Storage device")
	pairs := [][2]string{{"path", id.Path}}
	if id.NotStorage != "" {
		pairs = append(pairs, [2]string{"not storage", id.NotStorage})
	}
	if id.Mount != nil {
		pairs = append(pairs, [2]string{"mount", fmt.Sprintf("%s on %s (%s)", id.Mount.Source, id.Mount.MountPoint, id.Mount.FSType)})
	}
	if fs := id.Filesystem; fs != nil {
		var o []string
		o = append(o, "atime: "+firstNonEmpty(fs.Atime, "relatime (default)"))
		if fs.CommitS != nil {
			o = append(o, fmt.Sprintf("commit=%d", *fs.CommitS))
		}
		if fs.Discard {
			o = append(o, "discard")
		}
		if fs.ReadOnly {
			o = append(o, "read-only")
		}
		pairs = append(pairs, [2]string{"mount options", strings.Join(o, ", ")})
	}
	for _, l := range id.Stack {
		pairs = append(pairs, [2]string{"layer", strings.TrimSpace(l.Kind + " " + l.Device + " " + l.Detail)})
	}
	if b := id.Block; b != nil {
		pairs = append(pairs, [2]string{"device", fmt.Sprintf("%s: %s", id.Name, strings.TrimSpace(strings.Join([]string{b.Kind, b.Vendor, b.Model}, " ")))})
		if b.SizeBytes != nil {
			pairs = append(pairs, [2]string{"size", textfmt.Bytes(*b.SizeBytes)})
		}
		if b.Firmware != "" {
			pairs = append(pairs, [2]string{"firmware", b.Firmware})
		}
		if b.NVMePower != nil {
			pairs = append(pairs, [2]string{"NVMe power", b.NVMePower.Text()})
		}
		if u := b.USB; u != nil {
			speed := "unknown speed"
			if u.SpeedMbps != nil {
				speed = buses.FormatUSBSpeed(*u.SpeedMbps)
			}
			pairs = append(pairs, [2]string{"USB", fmt.Sprintf("bridge %s %s (%s:%s), USB %s at %s, driver %s",
				u.Manufacturer, u.Product, u.VendorID, u.ProductID, u.Version, speed, orDash(u.Driver))})
		}
		if l := b.PCIe; l != nil {
			pairs = append(pairs, [2]string{"PCIe", fmt.Sprintf("link %s, capable of %s", buses.FormatLink(l.CurrentGTs, l.CurrentWidth), buses.FormatLink(l.MaxGTs, l.MaxWidth))})
		}
		if m := b.MMC; m != nil && id.CID != nil {
			c := id.CID
			pairs = append(pairs, [2]string{"CID", fmt.Sprintf("manufacturer %s (0x%02x), OEM %s, product %s, revision %s, made %04d-%02d, serial %s",
				orDash(c.Manufacturer), c.ManfID, c.OEMID, c.Product, c.Revision, c.Year, c.Month, c.Serial)})
		}
		if id.CSD != nil && id.CSD.CapacityBytes > 0 {
			pairs = append(pairs, [2]string{"CSD", fmt.Sprintf("version %d.0, capacity %s, default-mode rate %.0f Mbit/s", id.CSD.Structure+1, textfmt.Bytes(id.CSD.CapacityBytes), id.CSD.TransferMbps)})
		}
		if m := b.MMC; m != nil && m.SD != nil {
			pairs = append(pairs, [2]string{"claimed classes", orDash(m.SD.Ratings())})
		}
		if bm := id.BusMode; bm != nil {
			pairs = append(pairs, [2]string{"bus mode", fmt.Sprintf("%s (%.0f MB/s at most)", bm.Mode, bm.MaxMBs)})
		}
		if len(id.HostModes) > 0 {
			pairs = append(pairs, [2]string{"controller modes", strings.Join(id.HostModes, ", ") + " (device tree)"})
		}
		sched := orDash(b.Scheduler)
		if b.ReadAheadBytes != nil {
			sched += fmt.Sprintf(", read-ahead %d KiB", *b.ReadAheadBytes/1024)
		}
		pairs = append(pairs, [2]string{"I/O scheduler", sched})
		if id.TRIM != nil {
			pairs = append(pairs, [2]string{"TRIM", map[bool]string{true: "supported", false: "not supported"}[*id.TRIM]})
		}
	}
	for _, n := range id.Notes {
		pairs = append(pairs, [2]string{"note", n})
	}
	w.KV(pairs...)
}

func kbCell(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.0f", *v)
}

// renderStorage writes the iozone-style table and how it was measured.
func renderStorage(w *textfmt.Writer, f result.StorageFigures) {
	fmt.Fprintln(w.W)
	t := textfmt.NewTable("KiB", "reclen", "write", "rewrite", "read", "reread", "random read", "random write")
	for i := range t.RightAlign {
		t.RightAlign[i] = true
	}
	kb := f.FileBytes / 1024
	for _, r := range f.Table {
		t.Row(fmt.Sprint(kb), fmt.Sprint(r.RecordKiB), kbCell(r.WriteKBs), kbCell(r.RewriteKBs), kbCell(r.ReadKBs),
			kbCell(r.RereadKBs), kbCell(r.RandomReadKBs), kbCell(r.RandomWriteKBs))
	}
	w.Table(t)
	w.Line("figures in KiB/s (1 KiB = 1024 bytes); reclen in KiB")
	if f.RandRead4kIOPS != nil && f.RandWrite4kIOPS != nil {
		w.Line("4 KiB random: %.0f read IOPS, %.0f write IOPS", *f.RandRead4kIOPS, *f.RandWrite4kIOPS)
	}
	mode := "O_DIRECT (page cache bypassed)"
	if !f.Direct {
		mode = "through the page cache: " + f.DirectError
	}
	w.Line("measured in %s with %s; writes include fdatasync", f.Dir, mode)
	if f.WriteFileBytes > 0 {
		fill := ""
		if f.FillSeconds > 0 {
			fill = fmt.Sprintf(" in %.1f s", f.FillSeconds)
		}
		w.Line("regions: read, reread and the random cells use the whole %s read file, written first%s; "+
			"each row's read goes on where the previous one stopped and reread reads the same records again; "+
			"write and rewrite use a new write file per record size (at most %s)",
			textfmt.Bytes(f.FileBytes), fill, textfmt.Bytes(f.WriteFileBytes))
	}
	w.Line("each cell stops after %.1f s or %s, whichever comes first, but the byte limit only after %d records "+
		"(or the whole region when it holds fewer)", f.CellLimitS, textfmt.Bytes(f.CellBudgetBytes), storagebench.MinCellRecords)
	byTime, fewest := 0, map[int]int64{}
	for _, c := range f.Cells {
		if c.StoppedBy == "time" {
			byTime++
		}
		if n, ok := fewest[c.RecordKiB]; c.Error == "" && (!ok || c.Ops < n) {
			fewest[c.RecordKiB] = c.Ops
		}
	}
	if len(f.Cells) > 0 {
		w.Line("%d of %d cells stopped at the time limit", byTime, len(f.Cells))
	}
	if n, ok := fewest[16384]; ok && n < storagebench.MinCellRecords {
		w.Line("the 16384 KiB row timed as few as %d records per cell (the time limit stopped it)", n)
	}
	if len(f.Governors) > 0 {
		w.Line("cpufreq: %s", strings.Join(f.Governors, "; "))
	}
	if f.IRQ != "" {
		w.Line("interrupt: irq %s on %s", f.IRQ, cpuNames(f.IRQCPUs))
	}
	renderStorageLatency(w, f.Latency)
	renderStorageDevices(w, f.Devices)
}

// renderStorageFio writes fio's figures next to boardbench's for the same
// cells.
func renderStorageFio(w *textfmt.Writer, f result.StorageFioFigures) {
	fmt.Fprintln(w.W)
	t := textfmt.NewTable("fio job", "record", "region", "moved", "fio KiB/s", "IOPS", "boardbench", "diff")
	for i := 1; i < len(t.RightAlign); i++ {
		t.RightAlign[i] = true
	}
	for _, j := range f.Jobs {
		bb, diff := "n/a", "n/a"
		if j.BoardbenchKBs != nil {
			bb = fmt.Sprintf("%.0f", *j.BoardbenchKBs)
			if j.KBs > 0 {
				diff = fmt.Sprintf("%+.0f%%", (*j.BoardbenchKBs/j.KBs-1)*100)
			}
		}
		t.Row(j.Name, fmt.Sprintf("%d KiB", j.RecordKiB), sizeOrNA(j.SizeBytes), sizeOrNA(j.Bytes),
			fmt.Sprintf("%.0f", j.KBs), fmt.Sprintf("%.0f", j.IOPS), bb, diff)
	}
	w.Table(t)
	w.Line("fio %s repeated boardbench's cells: same record size, region and bytes, direct=1, psync, one request at a time "+
		"(the _qdN jobs: libaio with N requests in flight); fio's JSON is the phase's raw output", orDash(f.Version))
	renderFioLatency(w, f.Jobs)
}

func sizeOrNA(b int64) string {
	if b <= 0 {
		return "n/a"
	}
	return textfmt.Bytes(b)
}

// cpuNames writes CPUs as "cpu1" or "cpu0, cpu3".
func cpuNames(cpus []int) string {
	if len(cpus) == 0 {
		return "no CPU seen"
	}
	names := make([]string, len(cpus))
	for i, c := range cpus {
		names[i] = fmt.Sprintf("cpu%d", c)
	}
	return strings.Join(names, ", ")
}
