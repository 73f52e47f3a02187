package page

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

// FigureTable is a table of a result's own figures, for the commands
// whose figures the published row has no columns for (storage, net,
// sweep, thermal): a real HTML table, numbers right-aligned.
type FigureTable struct {
	// ID is the table's element id ("storage-table", "net-summary"...).
	ID, Title string
	Head      []string
	Rows      [][]Cell
	// Notes say what the figures are (units, how measured).
	Notes []string
}

// Cell is one cell of a FigureTable.
type Cell struct {
	Text string
	// Num right-aligns a figure.
	Num bool
}

// ownTables reports whether results of command get FigureTables instead
// of the published row (whose CPU columns they never fill).
func ownTables(command string) bool {
	switch command {
	case "storage", "net", "sweep", "thermal":
		return true
	}
	return false
}

// figureTables returns r's FigureTables (none for a result of another
// command).
func figureTables(r *result.Result) []FigureTable {
	var out []FigureTable
	s := r.Summary
	for _, p := range r.Phases {
		if p.Name != result.PhaseStorage || len(p.Figures) == 0 {
			continue
		}
		var f result.StorageFigures
		if json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		out = append(out, storageTables(f, "")...)
		for _, d := range f.Devices {
			out = append(out, storageTables(d.Figures, fmt.Sprintf("%s (%s, %s)", d.Path, orUnknown(d.Device), orUnknown(d.Kind)))...)
		}
	}
	if st := s.StorageSummary; st != nil && (st.SeqReadMBs != nil || st.SeqWriteMBs != nil || st.RandRead4kIOPS != nil || st.RandWrite4kIOPS != nil) {
		out = append([]FigureTable{{ID: "storage-summary", Title: "Storage headline",
			Head:  []string{"sequential read (MB/s)", "sequential write (MB/s)", "4 KiB random read (IOPS)", "4 KiB random write (IOPS)"},
			Rows:  [][]Cell{{num(st.SeqReadMBs, 1), num(st.SeqWriteMBs, 1), num(st.RandRead4kIOPS, 0), num(st.RandWrite4kIOPS, 0)}},
			Notes: []string{"sequential: the 16384 KiB row of the table below; MB = 10⁶ bytes"}}}, out...)
	}
	if n := s.NetSummary; n != nil {
		out = append(out, netTables(n)...)
	}
	if sw := s.SweepSummary; sw != nil && len(sw.Sweep) > 0 {
		out = append(out, sweepTable(sw.Sweep))
	}
	if th := s.ThermalSummary; th != nil && th.Thermal != nil {
		out = append(out, thermalTable(r, th.Thermal))
	}
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// num is a figure cell with prec decimals, "unknown" for nil.
func num(v *float64, prec int) Cell {
	if v == nil {
		return Cell{Text: "unknown", Num: true}
	}
	return Cell{Text: strconv.FormatFloat(*v, 'f', prec, 64), Num: true}
}

func text(s string) Cell { return Cell{Text: s} }

// storageTables are the iozone-style table and the latency table of one
// storage measurement; device names a device of several measured at once.
func storageTables(f result.StorageFigures, device string) []FigureTable {
	id, title := "storage-table", "Storage: throughput by record size"
	if device != "" {
		id, title = "", "Storage "+device+": throughput by record size"
	}
	t := FigureTable{ID: id, Title: title,
		Head: []string{"record (KiB)", "write", "rewrite", "read", "reread", "random read", "random write"}}
	for _, r := range f.Table {
		t.Rows = append(t.Rows, []Cell{{Text: strconv.Itoa(r.RecordKiB), Num: true}, num(r.WriteKBs, 0), num(r.RewriteKBs, 0), num(r.ReadKBs, 0),
			num(r.RereadKBs, 0), num(r.RandomReadKBs, 0), num(r.RandomWriteKBs, 0)})
	}
	mode := "O_DIRECT (page cache bypassed)"
	if !f.Direct {
		mode = "through the page cache: " + f.DirectError
	}
	t.Notes = []string{"figures in KiB/s (1 KiB = 1024 bytes); measured in " + orUnknown(f.Dir) + " with " + mode + "; writes include fdatasync"}
	if device == "" && len(f.Devices) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d devices measured at the same time: this table is their sum; each device's follows", len(f.Devices)))
	}
	out := []FigureTable{t}
	if len(f.Latency) > 0 {
		lt := FigureTable{Title: "Storage latency" + map[bool]string{true: "", false: " " + device}[device == ""],
			Head: []string{"test", "record (KiB)", "queue depth", "IOPS", "p50 (µs)", "p99 (µs)", "p99.9 (µs)", "max (µs)", "requests"}}
		if device == "" {
			lt.ID = "storage-latency"
		}
		for _, c := range f.Latency {
			lt.Rows = append(lt.Rows, []Cell{text(strings.ReplaceAll(c.Test, "_", " ")), {Text: strconv.Itoa(c.RecordKiB), Num: true},
				{Text: strconv.Itoa(c.QueueDepth), Num: true}, num(c.IOPS, 0), num(c.P50Us, 0), num(c.P99Us, 0), num(c.P999Us, 0), num(c.MaxUs, 0),
				{Text: strconv.FormatInt(c.Ops, 10), Num: true}})
			if c.Error != "" {
				lt.Notes = append(lt.Notes, fmt.Sprintf("%s QD%d: %s", c.Test, c.QueueDepth, c.Error))
			} else if c.Note != "" {
				lt.Notes = append(lt.Notes, fmt.Sprintf("%s QD%d: %s", c.Test, c.QueueDepth, c.Note))
			}
		}
		lt.Notes = append(lt.Notes, "completion latency of random requests (submission to completion), Linux native AIO with O_DIRECT; µs = microseconds")
		out = append(out, lt)
	}
	return out
}

// netTables are the net command's headline and its interfaces' rates.
func netTables(n *result.NetSummary) []FigureTable {
	t := FigureTable{ID: "net-summary", Title: "Network headline",
		Head:  []string{"TCP send (Mbit/s)", "TCP receive (Mbit/s)", "TCP both ways: send (Mbit/s)", "TCP both ways: receive (Mbit/s)", "small packets (packets/s)"},
		Rows:  [][]Cell{{num(n.TCPTxMbitS, 0), num(n.TCPRxMbitS, 0), num(n.TCPBidirTxMbitS, 0), num(n.TCPBidirRxMbitS, 0), num(n.SmallPacketsPPS, 0)}},
		Notes: []string{"Mbit = 10⁶ bits"}}
	if n.SmallPacketsMerged {
		t.Notes = append(t.Notes, "small packets: the interface merged segments, so packets/s counts merged ones")
	}
	out := []FigureTable{t}
	for _, set := range []struct {
		id, title string
		rates     []result.NetInterfaceRate
	}{{"net-interfaces", "Network interfaces", n.Interfaces}, {"net-interfaces-applied", "Network interfaces (with --apply)", n.InterfacesApplied}} {
		if len(set.rates) == 0 {
			continue
		}
		it := FigureTable{ID: set.id, Title: set.title, Head: []string{"interface", "receive (Mbit/s)", "send (Mbit/s)", "receive (packets/s)", "send (packets/s)"}}
		for _, r := range set.rates {
			rx, tx, rxp, txp := r.RxMbitS, r.TxMbitS, r.RxPPS, r.TxPPS
			it.Rows = append(it.Rows, []Cell{text(r.Name), num(&rx, 0), num(&tx, 0), num(&rxp, 0), num(&txp, 0)})
		}
		out = append(out, it)
	}
	if len(n.Power) > 0 {
		pt := FigureTable{ID: "net-power", Title: "Network power", Head: []string{"phase", "power (W)", "Mbit/s", "Mbit/s per W"}}
		for _, p := range n.Power {
			pt.Rows = append(pt.Rows, []Cell{text(p.Phase), num(p.PowerW, 2), num(p.MbitS, 0), num(p.MbitSPerW, 1)})
		}
		out = append(out, pt)
	}
	return out
}

// sweepTable is the sweep's rows: 7-Zip, temperature and power per clock.
func sweepTable(rows []result.SweepRow) FigureTable {
	t := FigureTable{ID: "sweep-table", Title: "Sweep: 7-Zip, temperature and power per clock",
		Head: []string{"policy", "CPUs", "threads", "clock set (MHz)", "clock measured (MHz)", "7-Zip (MIPS)", "temperature (°C)", "power (W)", "MIPS/W", "note"}}
	for _, r := range rows {
		policy := "unknown"
		if r.Policy != nil {
			policy = "policy" + strconv.Itoa(*r.Policy)
		}
		set := r.RequestedMHz
		if set == nil {
			set = r.ReportedMHz
		}
		note := r.Reason
		if r.Disturbed && note == "" {
			note = "disturbed"
		}
		t.Rows = append(t.Rows, []Cell{text(policy), text(cpu.FormatCPUList(r.CPUs)), {Text: strconv.Itoa(r.Threads), Num: true}, num(set, 0),
			num(r.MeasuredMHz, 0), num(r.MIPS, 0), num(r.TempC, 1), num(r.PowerW, 2), num(r.MIPSPerW, 0), text(note)})
	}
	return t
}

// thermalTable is what the thermal test found, one figure per row.
func thermalTable(r *result.Result, th *result.ThermalResult) FigureTable {
	t := FigureTable{ID: "thermal-table", Title: "Thermal: heat under load, cool down", Head: []string{"figure", "value"}, Notes: th.Notes}
	add := func(name string, v *float64, prec int, unit string) {
		c := num(v, prec)
		if v != nil && unit != "" {
			c.Text += " " + unit
		}
		t.Rows = append(t.Rows, []Cell{text(name), c})
	}
	add("temperature at the start", th.StartTempC, 1, "°C")
	add("peak temperature", th.PeakTempC, 1, "°C")
	throttle := num(th.TimeToThrottleS, 0)
	if th.TimeToThrottleS != nil {
		throttle.Text += " s"
		if th.ThrottleEvidence != "" {
			throttle.Text += " (" + th.ThrottleEvidence + ")"
		}
	} else {
		throttle.Text = "did not throttle, or could not be told"
	}
	t.Rows = append(t.Rows, []Cell{text("time to throttle"), throttle})
	for i := range max(len(th.ColdClockMHz), len(th.SustainedClockMHz)) {
		name := fmt.Sprintf("cluster %d", i)
		if i < len(r.Monitor.Policies) {
			name = fmt.Sprintf("policy%d", r.Monitor.Policies[i].ID)
			if l := r.Monitor.Policies[i].Label; l != "" {
				name += " (" + l + ")"
			}
		}
		var cold, hot *float64
		if i < len(th.ColdClockMHz) {
			cold = th.ColdClockMHz[i]
		}
		if i < len(th.SustainedClockMHz) {
			hot = th.SustainedClockMHz[i]
		}
		add("clock at the start, "+name, cold, 0, "MHz")
		add("sustained clock, "+name, hot, 0, "MHz")
	}
	add("7-Zip cold (first run)", th.ColdMIPS, 0, "MIPS")
	add("7-Zip hot (last run)", th.HotMIPS, 0, "MIPS")
	add("hot against cold", th.HotVsColdPct, 1, "%")
	add("settled temperature under load", th.SettleTempC, 1, "°C")
	add("cooling time constant τ", th.CoolingTimeConstantS, 0, "s")
	add("cooling asymptote (ambient)", th.CoolingAsymptoteC, 1, "°C")
	add("power while heating", th.HeatPowerW, 2, "W")
	add("power while cooling", th.CoolPowerW, 2, "W")
	return t
}
