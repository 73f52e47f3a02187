package storagebench

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
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
	if len(figs.Table) != 2 || len(figs.Cells) != 12 || len(seen) != 12 {
		t.Fatalf("table %d rows, %d cells, %d progress calls; want 2, 12, 12", len(figs.Table), len(figs.Cells), len(seen))
	}
	for _, c := range figs.Cells {
		if c.Bytes <= 0 || c.Ops <= 0 || c.Seconds <= 0 || c.Error != "" {
			t.Errorf("cell %+v not measured", c)
		}
		if c.StoppedBy != "time" && c.StoppedBy != "bytes" && c.StoppedBy != "end of file" {
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
		{0, 150 * M, 80 * M, false},
		{0, MinFileBytes + FreeMargin, MinFileBytes, false},
		{0, MinFileBytes + FreeMargin - 1, 0, true},
		{0, 0, 0, true},
	}
	for _, c := range cases {
		got, err := SizeFor(c.want, c.free)
		if (err != nil) != c.err || got != c.size {
			t.Errorf("SizeFor(%d, %d) = %d, %v; want %d, error %v", c.want, c.free, got, err, c.size, c.err)
		}
		if err != nil && !errors.Is(err, ErrNoSpace) {
			t.Errorf("error %v does not wrap ErrNoSpace", err)
		}
	}
}

// TestLargeRecordsTimeSeveralTransfers checks that the byte budget does not
// cut a large-record cell to one or two transfers: with 8 MiB records and a
// third of a 32 MiB file as budget, every cell still moves MinCellRecords
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
