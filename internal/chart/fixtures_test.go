package chart

import (
	"testing"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/sbcimport"
	"boardbench/internal/testutil/shareddata"
)

// fixture is a result to draw every chart of, and its charts' names.
type fixture struct {
	name   string
	result func(t *testing.T) *result.Result
}

// fixtures are the results the golden and PNG tests draw: a synthetic
// sweep with a thermal test and a latency curve, a synthetic imported log
// across midnight, a sweep at one clock, a storage test, and two real
// logs of the bash tool sbc-bench imported (a Raspberry Pi 5 whose log
// repeats its last monitor line in a summary ahead of the others, and an
// RK3588 board with big and little cores).
func fixtures() []fixture {
	return []fixture{
		{"synthetic", func(*testing.T) *result.Result { return testResult() }},
		{"imported-synthetic", importedResult},
		{"sweep-one-clock", func(*testing.T) *result.Result { return oneClockResult() }},
		{"storage", storageResult},
		{"pi5-log", func(t *testing.T) *result.Result { return importedLog(t, "4HDw") }},
		{"rk3588-log", func(t *testing.T) *result.Result { return importedLog(t, "1Xuf1O1") }},
	}
}

// importedLog imports one of the shared sbc-bench logs.
func importedLog(t *testing.T, id string) *result.Result {
	t.Helper()
	data := shareddata.ReadFile(t, "sbc-bench-logs/"+id+".txt")
	l, err := sbcimport.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return l.Result(id + ".txt")
}

func oneClockResult() *result.Result {
	r := &result.Result{Command: "sweep", Info: &inventory.Info{}}
	r.Info.Board.Model = "QEMU virtual machine"
	r.Summary.SweepSummary = &result.SweepSummary{Sweep: []result.SweepRow{
		{Threads: 1, MeasuredMHz: p(1954), MIPS: p(3100)},
		{Threads: 2, MeasuredMHz: p(2969), MIPS: p(6000)},
		{Threads: 4, MeasuredMHz: p(2969), MIPS: p(11800)},
	}}
	return r
}

// storageResult has a storage table of a USB SSD (figures in the range
// such a drive gives) and a sustained-write test whose rate falls.
func storageResult(t *testing.T) *result.Result {
	r := &result.Result{Command: "storage", StartedAt: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Info: &inventory.Info{}}
	r.Info.Board.Model = "Radxa ROCK 5B"
	r.Info.SoC.Guess = "RK3588"
	f := result.StorageFigures{Dir: "/mnt/usb", Direct: true}
	for _, row := range []struct {
		rec                          int
		w, rw, rd, rrd, randR, randW float64
	}{
		{4, 38000, 41000, 27000, 27500, 24000, 36000},
		{16, 120000, 128000, 88000, 89000, 79000, 110000},
		{512, 310000, 318000, 330000, 334000, 300000, 290000},
		{1024, 325000, 330000, 352000, 356000, 331000, 306000},
		{16384, 340000, 342000, 371000, 373000, 368000, 330000},
	} {
		f.Table = append(f.Table, result.StorageRow{RecordKiB: row.rec, WriteKBs: p(row.w), RewriteKBs: p(row.rw), ReadKBs: p(row.rd), RereadKBs: p(row.rrd), RandomReadKBs: p(row.randR), RandomWriteKBs: p(row.randW)})
	}
	fig, err := jsonOf(f)
	if err != nil {
		t.Fatal(err)
	}
	cache := int64(8 << 20)
	s := result.StorageSustainedFigures{Fell: true, CacheBytes: &cache}
	for i, kbs := range []float64{90000, 91000, 89000, 90000, 88000, 91000, 90000, 89000, 20000, 21000, 19000} {
		s.Windows = append(s.Windows, result.StorageWindow{WrittenBytes: int64(i+1) << 20, KBs: kbs})
	}
	sfig, err := jsonOf(s)
	if err != nil {
		t.Fatal(err)
	}
	r.Phases = []result.Phase{{Name: result.PhaseStorage, Figures: fig}, {Name: result.PhaseStorageSustained, Figures: sfig}}
	return r
}
