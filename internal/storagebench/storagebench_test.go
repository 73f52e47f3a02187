package storagebench

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"boardbench/internal/result"
)

// short is a configuration that runs in about a second.
func short(dir string) Config {
	return Config{Dir: dir, FileBytes: MinFileBytes, RecordsKiB: []int{4, 1024}, CellLimit: 30 * time.Millisecond}
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestRunShort(t *testing.T) {
	dir := t.TempDir()
	var seen []string
	cfg := short(dir)
	cfg.Progress = func(rec int, test string) {
		seen = append(seen, test)
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("the test file is visible while running: %v", left)
		}
	}
	figs, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs.Table) != 2 || len(figs.Cells) != 12 || len(figs.Latency) != 4 || len(seen) != 17 || seen[0] != "fill" {
		t.Fatalf("table %d rows, %d cells, %d latency cells, progress %q; want 2, 12, 4, the fill and 16 cells", len(figs.Table), len(figs.Cells), len(figs.Latency), seen)
	}
	for i, c := range figs.Latency {
		if want := QueueDepths[i/2]; c.QueueDepth != want || c.Test != LatencyTests[i%2] || c.RecordKiB != 4 {
			t.Errorf("latency cell %d: %+v, want QD%d %s", i, c, want, LatencyTests[i%2])
		}
		if !figs.Direct {
			if c.Error == "" {
				t.Errorf("latency cell without O_DIRECT has no error: %+v", c)
			}
			continue
		}
		if c.Error != "" || c.Ops < int64(c.QueueDepth) || c.IOPS == nil || c.P50Us == nil || c.MaxUs == nil || *c.P50Us <= 0 {
			t.Errorf("latency cell not measured: %+v", c)
			continue
		}
		for _, p := range [][2]*float64{{c.P50Us, c.P99Us}, {c.P99Us, c.P999Us}, {c.P50Us, c.MaxUs}} {
			if p[0] != nil && p[1] != nil && *p[0] > *p[1] {
				t.Errorf("latency percentiles out of order: %+v", c)
			}
		}
		if (c.P999Us == nil) != (c.Ops < 1000) || (c.P999Us == nil) != (c.Note != "") {
			t.Errorf("p99.9 %v with %d requests, note %q", c.P999Us, c.Ops, c.Note)
		}
	}
	for _, c := range figs.Cells {
		if c.Bytes <= 0 || c.Ops <= 0 || c.Seconds <= 0 || c.Error != "" {
			t.Errorf("cell %+v not measured", c)
		}
		if c.StoppedBy != "time" && c.StoppedBy != "bytes" && c.StoppedBy != "end of region" {
			t.Errorf("cell %d KiB %s stopped by %q", c.RecordKiB, c.Test, c.StoppedBy)
		}
		if c.Bytes > cfg.FileBytes/3+int64(c.RecordKiB)<<10 {
			t.Errorf("cell %d KiB %s moved %d bytes, over the budget", c.RecordKiB, c.Test, c.Bytes)
		}
	}
	for _, r := range figs.Table {
		for _, v := range []*float64{r.WriteKBs, r.RewriteKBs, r.ReadKBs, r.RereadKBs, r.RandomReadKBs, r.RandomWriteKBs} {
			if v == nil || *v <= 0 {
				t.Errorf("row %d KiB: a figure is missing: %+v", r.RecordKiB, r)
			}
		}
	}
	if figs.RandRead4kIOPS == nil || *figs.RandRead4kIOPS != *figs.Table[0].RandomReadKBs/4 {
		t.Errorf("4k random read IOPS %v, want the 4k row's kB/s / 4", figs.RandRead4kIOPS)
	}
	if !figs.Direct {
		t.Logf("O_DIRECT refused in %s: %s", dir, figs.DirectError)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestInterruptRemovesFile cancels the run in the middle of a cell, as
// Ctrl-C or SIGTERM do through the command's context.
func TestInterruptRemovesFile(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigterm := errors.New("interrupted by SIGTERM")
	cfg := short(dir)
	cfg.CellLimit = 10 * time.Second
	cfg.Progress = func(rec int, test string) {
		if test == TestRead {
			go func() { time.Sleep(5 * time.Millisecond); cancel(sigterm) }()
		}
	}
	figs, err := Run(ctx, cfg)
	if !errors.Is(err, sigterm) {
		t.Fatalf("error %v, want the context's cause", err)
	}
	if len(figs.Table) != 1 || figs.Table[0].WriteKBs == nil {
		t.Errorf("the figures measured before the interruption are lost: %+v", figs.Table)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("left behind after the interruption: %v", left)
	}
}

func TestPageCacheWhenNoDirect(t *testing.T) {
	dir := t.TempDir()
	cfg := short(dir)
	cfg.NoDirect = true
	cfg.RecordsKiB = []int{4}
	figs, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if figs.Direct || figs.DirectError == "" {
		t.Errorf("direct %v (%q), want false with a reason", figs.Direct, figs.DirectError)
	}
}

// TestTmpfsDirect runs on /dev/shm: whether or not its tmpfs accepts
// O_DIRECT, the figures say how they were taken and nothing is left.
func TestTmpfsDirect(t *testing.T) {
	dir, err := os.MkdirTemp("/dev/shm", "bb-storage-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg := short(dir)
	cfg.RecordsKiB = []int{4}
	figs, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Since Linux 6.6 tmpfs accepts O_DIRECT; before, it refused it and
	// the figures must then say why they are the page cache's.
	if !figs.Direct && figs.DirectError == "" {
		t.Error("no reason for the page-cache figures")
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestSizeFor(t *testing.T) {
	const M = 1 << 20
	cases := []struct {
		want, free, size int64
		err              bool
	}{
		{0, 10 << 30, DefaultFileBytes, false},
		{200 * M, 10 << 30, 200 * M, false},
		// the default shrinks to what fits: 80 MiB + 64 MiB write file + 64 MiB margin
		{0, 210 * M, 80 * M, false},
		{0, SpaceFor(MinFileBytes), MinFileBytes, false},
		{0, SpaceFor(MinFileBytes) - 1, 0, true},
		{0, 0, 0, true},
		// a size the user asked for is never shrunk
		{200 * M, SpaceFor(200*M) - 1, 0, true},
		{10 << 40, 10 << 30, 0, true},
	}
	if _, err := SizeFor(16*M, 10<<30); err == nil || errors.Is(err, ErrNoSpace) {
		t.Errorf("SizeFor(16 MiB) = %v, want the minimum-size error", err)
	}
	for _, c := range cases {
		got, err := SizeFor(c.want, c.free)
		if (err != nil) != c.err || got != c.size {
			t.Errorf("SizeFor(%d, %d) = %d, %v; want %d, error %v", c.want, c.free, got, err, c.size, c.err)
		}
		if err != nil && !errors.Is(err, ErrNoSpace) && c.want >= MinFileBytes {
			t.Errorf("error %v does not wrap ErrNoSpace", err)
		}
	}
}

// TestLargeRecordsTimeSeveralTransfers checks that the byte budget does not
// cut a large-record cell to one or two transfers: with 8 MiB records and a
// quarter of a 64 MiB file as budget, every cell still moves MinCellRecords
// records when time allows.
func TestLargeRecordsTimeSeveralTransfers(t *testing.T) {
	cfg := Config{Dir: t.TempDir(), FileBytes: MinFileBytes, RecordsKiB: []int{8192}, CellLimit: time.Minute}
	figs, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if figs.CellBudgetBytes >= int64(MinCellRecords)*8<<20 {
		t.Fatalf("budget %d does not exercise the minimum", figs.CellBudgetBytes)
	}
	for _, c := range figs.Cells {
		if c.Ops != MinCellRecords {
			t.Errorf("%s moved %d records, want %d", c.Test, c.Ops, MinCellRecords)
		}
	}
}

// TestCellRegions checks the method the text states: read and the random
// cells address the whole read file, reread re-reads what read read, each
// row's read goes on where the previous one stopped, rewrite re-writes what
// write wrote, and the 16 MiB row moves MinCellRecords records per cell.
func TestCellRegions(t *testing.T) {
	cfg := Config{Dir: t.TempDir(), FileBytes: MinFileBytes, RecordsKiB: []int{1024, 16384}, CellLimit: time.Minute}
	figs, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if figs.FillSeconds <= 0 || figs.WriteFileBytes <= 0 {
		t.Errorf("fill %v s, write file %d bytes: not recorded", figs.FillSeconds, figs.WriteFileBytes)
	}
	cell := func(rec int, test string) result.StorageCell {
		for _, c := range figs.Cells {
			if c.RecordKiB == rec && c.Test == test {
				return c
			}
		}
		t.Fatalf("no %d KiB %s cell", rec, test)
		return result.StorageCell{}
	}
	for _, rec := range cfg.RecordsKiB {
		for _, test := range []string{TestRead, TestReread, TestRandomRead, TestRandomWrite} {
			if c := cell(rec, test); c.File != result.StorageReadFile || c.RegionBytes != cfg.FileBytes {
				t.Errorf("%d KiB %s: %s region %d bytes, want the read file's %d", rec, test, c.File, c.RegionBytes, cfg.FileBytes)
			}
		}
		w, rw := cell(rec, TestWrite), cell(rec, TestRewrite)
		if w.File != result.StorageWriteFile || rw.File != result.StorageWriteFile || rw.RegionBytes != w.Bytes || rw.Bytes != w.Bytes {
			t.Errorf("%d KiB: rewrite %+v does not re-write what write %+v wrote", rec, rw, w)
		}
		r, rr := cell(rec, TestRead), cell(rec, TestReread)
		if rr.Offset != r.Offset || rr.Bytes != r.Bytes {
			t.Errorf("%d KiB: reread at %d for %d bytes, read at %d for %d", rec, rr.Offset, rr.Bytes, r.Offset, r.Bytes)
		}
	}
	first, second := cell(1024, TestRead), cell(16384, TestRead)
	if want := (first.Offset + first.Bytes) % cfg.FileBytes; second.Offset != want {
		t.Errorf("the 16 MiB read starts at %d, want %d, where the 1 MiB read stopped", second.Offset, want)
	}
	for _, c := range figs.Cells {
		if c.RecordKiB == 16384 && c.Ops < MinCellRecords {
			t.Errorf("16 MiB %s moved %d records, fewer than %d", c.Test, c.Ops, MinCellRecords)
		}
	}
}

func TestPercentile(t *testing.T) {
	hundred := make([]uint32, 100)
	for i := range hundred {
		hundred[i] = uint32(i + 1)
	}
	for _, tc := range []struct {
		name    string
		samples []uint32
		p       float64
		want    uint32
	}{
		{"empty", nil, 0.5, 0},
		{"one", []uint32{7}, 0.999, 7},
		{"median of 1..100", hundred, 0.5, 50},
		{"p99 of 1..100", hundred, 0.99, 99},
		{"p99.9 of 1..100", hundred, 0.999, 100},
		{"odd median", []uint32{1, 2, 3}, 0.5, 2},
	} {
		if got := Percentile(tc.samples, tc.p); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestLatencyOfNeedsEnoughRequests(t *testing.T) {
	for _, tc := range []struct {
		n              int
		p99, p999, max bool
	}{{50, false, false, true}, {100, true, false, true}, {1000, true, true, true}} {
		s := make([]uint32, tc.n)
		for i := range s {
			s[i] = uint32((tc.n - i) * 1000) // reversed: LatencyOf sorts
		}
		var c result.StorageLatency
		LatencyOf(&c, s)
		if (c.P99Us != nil) != tc.p99 || (c.P999Us != nil) != tc.p999 || c.MaxUs == nil || *c.MaxUs != float64(tc.n) || *c.P50Us != float64(tc.n/2) {
			t.Errorf("%d requests: %+v", tc.n, c)
		}
		if (c.Note != "") == tc.p999 {
			t.Errorf("%d requests: note %q", tc.n, c.Note)
		}
	}
}
