package compare

import (
	"encoding/json"
	"fmt"
	"strings"

	"boardbench/internal/result"
)

// storageTests are the table's columns in order, with their names.
var storageTests = []struct{ key, name string }{
	{"write", "write"}, {"rewrite", "rewrite"}, {"read", "read"}, {"reread", "reread"},
	{"random_read", "random read"}, {"random_write", "random write"},
}

func storageFiguresOf(r *result.Result) *result.StorageFigures {
	for _, p := range r.Phases {
		if p.Name == result.PhaseStorage && len(p.Figures) > 0 {
			var f result.StorageFigures
			if json.Unmarshal(p.Figures, &f) == nil {
				return &f
			}
		}
	}
	return nil
}

// storageDevice names the storage a storage result measured: the whole
// device and its kind ("mmcblk0 (sd)"), each device of a run over several
// paths; "" for other results. eMMC against SD or USB is the comparison
// the tables are for, so it is a condition shown with them.
func storageDevice(r *result.Result) string {
	if s := storageFiguresOf(r); s != nil && len(s.Devices) > 0 {
		var parts []string
		for _, d := range s.Devices {
			parts = append(parts, deviceName(d.Device, d.Kind))
		}
		return fmt.Sprintf("%d at once: %s", len(parts), strings.Join(parts, ", "))
	}
	if r.Device == nil {
		return ""
	}
	return deviceName(r.Device.Name, r.Device.Kind)
}

func deviceName(name, kind string) string {
	if name == "" {
		name = "unknown"
	}
	if kind == "" {
		return name
	}
	return name + " (" + kind + ")"
}

func rowValue(r result.StorageRow, test string) *float64 {
	switch test {
	case "write":
		return r.WriteKBs
	case "rewrite":
		return r.RewriteKBs
	case "read":
		return r.ReadKBs
	case "reread":
		return r.RereadKBs
	case "random_read":
		return r.RandomReadKBs
	}
	return r.RandomWriteKBs
}

// storageFigures are the storage results' whole tables cell by cell
// (record size x test, KiB/s), then the latency cells (test x queue depth:
// IOPS and the p50, p99 and p99.9 completion latencies in µs), in the
// order the first result that has them lists them.
func storageFigures(in []Input) []Figure {
	n := len(in)
	var keys []string
	figs := map[string]*Figure{}
	add := func(i int, key, name, unit string, v *float64) {
		if v == nil {
			return
		}
		f := figs[key]
		if f == nil {
			f = &Figure{Key: key, Name: name, Unit: unit, Values: make([]*float64, n), SpreadPct: make([]*float64, n)}
			figs[key] = f
			keys = append(keys, key)
		}
		val := *v
		f.Values[i] = &val
	}
	for i, x := range in {
		s := storageFiguresOf(x.Result)
		if s == nil {
			continue
		}
		for _, row := range s.Table {
			for _, t := range storageTests {
				add(i, fmt.Sprintf("storage.table/%dk/%s", row.RecordKiB, t.key), fmt.Sprintf("storage %d KiB %s", row.RecordKiB, t.name), "KiB/s", rowValue(row, t.key))
			}
		}
		for _, l := range s.Latency {
			base := fmt.Sprintf("storage.latency/%dk/%s/qd%d", l.RecordKiB, l.Test, l.QueueDepth)
			name := fmt.Sprintf("storage %d KiB %s QD%d", l.RecordKiB, strings.ReplaceAll(l.Test, "_", " "), l.QueueDepth)
			add(i, base+"/iops", name+" IOPS", "IOPS", l.IOPS)
			add(i, base+"/p50_us", name+" p50 latency", "µs", l.P50Us)
			add(i, base+"/p99_us", name+" p99 latency", "µs", l.P99Us)
			add(i, base+"/p99_9_us", name+" p99.9 latency", "µs", l.P999Us)
		}
	}
	out := make([]Figure, 0, len(keys))
	for _, k := range keys {
		out = append(out, *figs[k])
	}
	return out
}
