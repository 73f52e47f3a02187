package servetest

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/store"
)

func f64(v float64) *float64 { return &v }

// otherKinds are the kinds OtherResult makes.
var otherKinds = []string{"storage", "net", "sweep", "thermal", "c2c", "import"}

// OtherResult returns a generated result of command kind ("storage",
// "net", "sweep", "thermal", "c2c" or "import"), number i, with its
// record: the figures each command's result page shows as tables. A
// "c2c" has no
// headline figure and names no board: the rows a table's first screen
// must not fill with.
func OtherResult(kind string, i int) (*result.Result, store.Record) {
	t0 := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	in := &inventory.Info{SchemaVersion: "1.0", CollectedAt: t0, Root: "/"}
	in.Board.Model, in.SoC.Guess = "Radxa ROCK 5B", "Rockchip RK3588"
	switch kind {
	case "c2c":
		in.Board.Model, in.SoC.Guess = "", ""
	case "import":
		in.Board.Model, in.SoC.Guess = "Orange Pi 5", "Rockchip RK3588S"
	}
	r := result.New(kind, in, map[string]any{})
	r.ID = fmt.Sprintf("%08x%024x", 0xf0000000+slices.Index(otherKinds, kind), i+1)
	r.StartedAt = t0
	r.Status = result.StatusComplete
	r.Summary = result.Summary{Valid: true, Verdict: "valid: no finding invalidates the figures"}
	rec := store.Record{ID: r.ID, Kind: kind, Board: in.Board.Model, SoC: in.SoC.Guess, CreatedAt: t0, Status: r.Status, Valid: true,
		Tags: []string{}, FindingIDs: []string{}, Figures: map[string]float64{}}
	switch kind {
	case "storage":
		f := result.StorageFigures{Dir: "/mnt/nvme", Direct: true, FileBytes: 1 << 30,
			Table: []result.StorageRow{{RecordKiB: 4, WriteKBs: f64(41000), RewriteKBs: f64(42000), ReadKBs: f64(52000), RereadKBs: f64(53000), RandomReadKBs: f64(48000), RandomWriteKBs: f64(39000)},
				{RecordKiB: 16384, WriteKBs: f64(900000), RewriteKBs: f64(910000), ReadKBs: f64(1500000), RereadKBs: f64(1510000), RandomReadKBs: f64(1490000), RandomWriteKBs: f64(880000)}},
			RandRead4kIOPS: f64(12000), RandWrite4kIOPS: f64(9750),
			Latency: []result.StorageLatency{{Test: "random_read", RecordKiB: 4, QueueDepth: 1, IOPS: f64(11000), P50Us: f64(80), P99Us: f64(140), P999Us: f64(400), MaxUs: f64(900), Ops: 20000}}}
		raw, _ := json.Marshal(f)
		r.Phases = []result.Phase{{Name: result.PhaseStorage, Title: "storage table", Status: result.PhaseOK, Figures: raw}}
		r.Summary.StorageSummary = result.StorageSummaryOf(f)
		rec.Figures["storage.seq_read_mb_s"] = *r.Summary.SeqReadMBs
	case "net":
		r.Summary.NetSummary = &result.NetSummary{TCPTxMbitS: f64(941), TCPRxMbitS: f64(936), SmallPacketsPPS: f64(81000),
			Interfaces: []result.NetInterfaceRate{{Name: "end0", RxMbitS: 936, TxMbitS: 941, RxPPS: 81000, TxPPS: 80000}}}
	case "sweep":
		p := 0
		r.Summary.SweepSummary = &result.SweepSummary{Sweep: []result.SweepRow{
			{Policy: &p, CPUs: []int{0, 1, 2, 3}, Threads: 4, RequestedMHz: f64(1800), MeasuredMHz: f64(1797), MIPS: f64(9100), TempC: f64(61.5), PowerW: f64(4.2), MIPSPerW: f64(2167)},
			{Policy: &p, CPUs: []int{0, 1, 2, 3}, Threads: 4, RequestedMHz: f64(1200), MeasuredMHz: f64(1199), MIPS: f64(6100), TempC: f64(52), PowerW: f64(2.6), MIPSPerW: f64(2346)}}}
	case "thermal":
		r.Summary.ThermalSummary = &result.ThermalSummary{Thermal: &result.ThermalResult{StartTempC: f64(41), PeakTempC: f64(84.5),
			TimeToThrottleS: f64(212), ThrottleEvidence: "clock below the top clock", ColdClockMHz: []*float64{f64(2400)}, SustainedClockMHz: []*float64{f64(1800)},
			ColdMIPS: f64(16000), HotMIPS: f64(12500), HotVsColdPct: f64(-21.9), SettleTempC: f64(84), CoolingTimeConstantS: f64(95), CoolingAsymptoteC: f64(40.5)}}
	case "import":
		r.Options = map[string]any{"format": result.ImportedFormat, "format_version": "0.9.72"}
	}
	return r, rec
}

// AddOther adds OtherResult(kind, i) to m.
func (m *MemStore) AddOther(kind string, i int) { m.AddResult(OtherResult(kind, i)) }

// XeonResult returns a run on an x86 server of one core type, with the
// record: to compare across boards with Result (a Cortex-A76 and
// Cortex-A55 board), whose per-core figures share no core type name.
func XeonResult() (*result.Result, store.Record) {
	r, rec := Result(0)
	r.ID = "e0000000000000000000000000000001"
	r.Info.Board.Model, r.Info.SoC.Guess = "Dell PowerEdge R630", ""
	r.Info.OS.Userland.Arch = "amd64"
	r.Info.CPU.Clusters = r.Info.CPU.Clusters[:1]
	r.Info.CPU.Clusters[0].Core, r.Info.CPU.Clusters[0].CoreName = "Xeon E5-2680 v4", "Xeon E5-2680 v4"
	const xeon = "Xeon E5-2680 v4"
	r.Summary.ClockMHz = []result.Value{{CPU: 0, Core: xeon, Value: 3300}}
	r.Summary.SevenZipSingleMIPS = []result.Value{{CPU: 0, Core: xeon, Value: 4100}}
	r.Summary.AES256At16K = []result.Value{{CPU: 0, Core: xeon, Value: 263000}}
	r.Summary.MemcpyMBs = []result.Value{{CPU: 0, Core: xeon, Value: 9800}}
	r.Summary.MemsetMBs = []result.Value{{CPU: 0, Core: xeon, Value: 15000}}
	rec.ID, rec.Board, rec.SoC, rec.CoreTypes, rec.Arch = r.ID, r.Info.Board.Model, "", "8×"+xeon, "amd64"
	return r, rec
}

// AddResult adds r with its record to m.
func (m *MemStore) AddResult(r *result.Result, rec store.Record) {
	doc, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	m.Add(rec, doc)
}
