// Package storagebench is boardbench's native storage test: the table users
// know from `iozone -e -I -a -s 100M -r 4k -r 16k -r 512k -r 1024k -r 16384k
// -i 0 -i 1 -i 2` (write, rewrite, read, reread, random read and random
// write per record size, in kB/s with 1 kB = 1024 bytes), measured with
// O_DIRECT in a temporary file, each cell bounded in time and bytes so a
// slow SD card gives its figures in a fraction of iozone's time.
//
// Safety: the temporary file is created with O_EXCL under a random name and
// unlinked at once while it stays open, so nothing is left behind however
// boardbench ends (error, Ctrl-C, SIGTERM, even SIGKILL); nothing else is
// written. A raw block device is written only when Config.Device is set,
// which the command allows only after the user typed the device's name
// twice.
package storagebench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"boardbench/internal/result"

	"golang.org/x/sys/unix"
)

// DefaultRecordsKiB are iozone's record sizes of the usual command.
var DefaultRecordsKiB = []int{4, 16, 512, 1024, 16384}

// Tests in the order they run for each record size.
const (
	TestWrite       = "write"
	TestRewrite     = "rewrite"
	TestRead        = "read"
	TestReread      = "reread"
	TestRandomRead  = "random_read"
	TestRandomWrite = "random_write"
)

// Tests lists the tests of a row in order.
var Tests = []string{TestWrite, TestRewrite, TestRead, TestReread, TestRandomRead, TestRandomWrite}

// Defaults of Config.
const (
	// DefaultFileBytes is iozone's -s 100M.
	DefaultFileBytes = 100 << 20
	// MinFileBytes holds two of the largest records.
	MinFileBytes = 32 << 20
	// DefaultCellLimit bounds every cell in time.
	DefaultCellLimit = time.Second
	// FreeMargin is kept free beyond the test file.
	FreeMargin = 64 << 20
	// MinCellRecords is the fewest records a cell moves before its byte
	// budget may stop it (the time limit still does): with a quarter of a
	// 100 MiB file, a 16 MiB-record cell would time only one or two transfers, the
	// first of which carries the cell's start-up cost.
	MinCellRecords = 4
)

// Config is one storage test.
type Config struct {
	// Dir is the directory the temporary file is created in.
	Dir string
	// Device, when set, is a block device written directly (destructive)
	// instead of a file in Dir.
	Device string
	// FileBytes is the size of the test region (default DefaultFileBytes).
	FileBytes int64
	// RecordsKiB are the record sizes (default DefaultRecordsKiB).
	RecordsKiB []int
	// CellLimit bounds each cell in time (default DefaultCellLimit);
	// CellBudget in bytes (default a quarter of FileBytes). A cell stops at
	// the first of both, after at least one record; the byte budget stops
	// it only after MinCellRecords records.
	CellLimit  time.Duration
	CellBudget int64
	// Progress is called before each cell; nil for none.
	Progress func(recordKiB int, test string)
	// NoDirect skips O_DIRECT (tests of the page-cache path).
	NoDirect bool
}

// ErrNoSpace is returned (wrapped) when the free space is below what the
// test needs; nothing was written then.
var ErrNoSpace = errors.New("not enough free space")

// FreeBytes returns the space available to an unprivileged user in dir.
func FreeBytes(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, &os.PathError{Op: "statfs", Path: dir, Err: err}
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// SizeFor returns the test region for want bytes (0: the default) in free
// bytes of space: want when it fits with FreeMargin to spare, else as much
// as fits down to MinFileBytes; an error wrapping ErrNoSpace below that.
func SizeFor(want, free int64) (int64, error) {
	if want <= 0 {
		want = DefaultFileBytes
	}
	if want < MinFileBytes {
		want = MinFileBytes
	}
	avail := free - FreeMargin
	if avail >= want {
		return want, nil
	}
	if avail >= MinFileBytes {
		return avail &^ (16<<20 - 1), nil
	}
	return 0, fmt.Errorf("%w: %s free, the test needs %s (a %s file and %s to spare)", ErrNoSpace,
		mib(free), mib(MinFileBytes+FreeMargin), mib(MinFileBytes), mib(FreeMargin))
}

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }

// target is the file or device under test.
type target struct {
	f      *os.File
	direct bool
	device bool
}

// openTarget creates and unlinks the temporary file (or opens the device).
func openTarget(cfg Config) (*target, string, error) {
	if cfg.Device != "" {
		f, err := os.OpenFile(cfg.Device, os.O_RDWR|unix.O_DIRECT|unix.O_EXCL, 0)
		if err != nil {
			return nil, "", err
		}
		return &target{f: f, direct: true, device: true}, "", nil
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	name := filepath.Join(cfg.Dir, ".boardbench-storage-"+hex.EncodeToString(rnd[:]))
	flags := os.O_RDWR | os.O_CREATE | os.O_EXCL
	var directErr string
	if !cfg.NoDirect {
		f, err := os.OpenFile(name, flags|unix.O_DIRECT, 0o600)
		if err == nil {
			_ = os.Remove(name)
			return &target{f: f, direct: true}, "", nil
		}
		if !errors.Is(err, unix.EINVAL) {
			return nil, "", err
		}
		_ = os.Remove(name) // some filesystems create the file before refusing O_DIRECT
		directErr = "the filesystem refused O_DIRECT (" + err.Error() + ")"
	} else {
		directErr = "O_DIRECT not used"
	}
	f, err := os.OpenFile(name, flags, 0o600)
	if err != nil {
		return nil, "", err
	}
	_ = os.Remove(name)
	return &target{f: f}, directErr, nil
}

// alignedBuffer returns a page-aligned buffer of n bytes filled with random
// data (so that compressing or deduplicating devices cannot cheat).
func alignedBuffer(n int) ([]byte, func(), error) {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, fmt.Errorf("buffer of %d bytes: %w", n, err)
	}
	_, _ = rand.Read(b)
	return b, func() { _ = unix.Munmap(b) }, nil
}

// Run measures the table. It returns the figures measured so far with the
// error that stopped it (ctx's cause when interrupted). The temporary file
// is gone when Run returns, and already invisible while it runs.
func Run(ctx context.Context, cfg Config) (result.StorageFigures, error) {
	if cfg.FileBytes <= 0 {
		cfg.FileBytes = DefaultFileBytes
	}
	if len(cfg.RecordsKiB) == 0 {
		cfg.RecordsKiB = DefaultRecordsKiB
	}
	if cfg.CellLimit <= 0 {
		cfg.CellLimit = DefaultCellLimit
	}
	if cfg.CellBudget <= 0 {
		cfg.CellBudget = cfg.FileBytes / 4
	}
	figs := result.StorageFigures{Dir: cfg.Dir, FileBytes: cfg.FileBytes, CellLimitS: cfg.CellLimit.Seconds(),
		CellBudgetBytes: cfg.CellBudget, Table: []result.StorageRow{}, Cells: []result.StorageCell{}}
	if cfg.Device != "" {
		figs.Dir = cfg.Device
	}
	maxRec := 0
	for _, r := range cfg.RecordsKiB {
		if r <= 0 || r%4 != 0 || int64(r)<<10 > cfg.FileBytes {
			return figs, fmt.Errorf("record size %d KiB: must be a multiple of 4 KiB and fit in the file", r)
		}
		maxRec = max(maxRec, r<<10)
	}
	t, directErr, err := openTarget(cfg)
	if err != nil {
		return figs, err
	}
	defer t.f.Close()
	figs.Direct, figs.DirectError = t.direct, directErr
	buf, free, err := alignedBuffer(maxRec)
	if err != nil {
		return figs, err
	}
	defer free()
	for _, rec := range cfg.RecordsKiB {
		row := result.StorageRow{RecordKiB: rec}
		cells, err := runRow(ctx, t, cfg, rec<<10, buf)
		for _, c := range cells {
			figs.Cells = append(figs.Cells, c)
			if c.Error != "" || c.Seconds <= 0 {
				continue
			}
			v := float64(c.Bytes) / 1024 / c.Seconds
			*rowField(&row, c.Test) = &v
		}
		figs.Table = append(figs.Table, row)
		if rec == 4 {
			if row.RandomReadKBs != nil {
				v := *row.RandomReadKBs / 4
				figs.RandRead4kIOPS = &v
			}
			if row.RandomWriteKBs != nil {
				v := *row.RandomWriteKBs / 4
				figs.RandWrite4kIOPS = &v
			}
		}
		if err != nil {
			return figs, err
		}
	}
	return figs, nil
}

func rowField(r *result.StorageRow, test string) **float64 {
	switch test {
	case TestWrite:
		return &r.WriteKBs
	case TestRewrite:
		return &r.RewriteKBs
	case TestRead:
		return &r.ReadKBs
	case TestReread:
		return &r.RereadKBs
	case TestRandomRead:
		return &r.RandomReadKBs
	}
	return &r.RandomWriteKBs
}

// runRow runs the six cells of one record size.
func runRow(ctx context.Context, t *target, cfg Config, rec int, buf []byte) ([]result.StorageCell, error) {
	var cells []result.StorageCell
	if !t.device {
		// A new file for the write test, as iozone writes a new file.
		if err := t.f.Truncate(0); err != nil {
			return nil, fmt.Errorf("truncating the test file: %w", err)
		}
	}
	extent := int64(0)
	for _, test := range Tests {
		if err := context.Cause(ctx); ctx.Err() != nil {
			return cells, err
		}
		if cfg.Progress != nil {
			cfg.Progress(rec>>10, test)
		}
		c := runCell(ctx, t, cfg, test, rec, buf[:rec], extent)
		if test == TestWrite {
			extent = c.Bytes
		}
		cells = append(cells, c)
		if c.Error != "" {
			if ctx.Err() != nil {
				return cells, context.Cause(ctx)
			}
			return cells, fmt.Errorf("%d KiB %s: %s", rec>>10, test, c.Error)
		}
	}
	return cells, nil
}

func cpuTime() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runCell runs one test: sequential tests pass once over the extent (the
// write test creates it, up to the file size), random tests do as many
// operations as the extent holds records; each stops early at the time
// limit (after at least one record; two for the write test, so that the
// random tests have somewhere to go) or at the byte budget (after at least
// MinCellRecords records).
func runCell(ctx context.Context, t *target, cfg Config, test string, rec int, buf []byte, extent int64) result.StorageCell {
	c := result.StorageCell{RecordKiB: rec >> 10, Test: test}
	recs := int64(rec)
	total := extent / recs
	if test == TestWrite {
		total = cfg.FileBytes / recs
	}
	if total < 1 {
		c.Error = "no data written to read back"
		return c
	}
	minOps := int64(1)
	if test == TestWrite {
		minOps = min(2, total)
	}
	minBudgetOps := min(int64(MinCellRecords), total)
	rng := mrand.New(mrand.NewPCG(uint64(rec), uint64(len(test))))
	writes := test == TestWrite || test == TestRewrite || test == TestRandomWrite
	random := test == TestRandomRead || test == TestRandomWrite
	c.StoppedBy = "bytes"
	cpu0 := cpuTime()
	start := time.Now()
	for i := int64(0); i < total; i++ {
		if i >= minOps {
			if time.Since(start) >= cfg.CellLimit {
				c.StoppedBy = "time"
				break
			}
			if i >= minBudgetOps && c.Bytes+recs > cfg.CellBudget {
				break
			}
		}
		if ctx.Err() != nil {
			c.Error, c.StoppedBy = "interrupted", "error"
			break
		}
		off := i * recs
		if random {
			off = rng.Int64N(total) * recs
		}
		var n int
		var err error
		if writes {
			n, err = t.f.WriteAt(buf, off)
		} else {
			n, err = t.f.ReadAt(buf, off)
		}
		if err == nil && n != rec {
			err = fmt.Errorf("short transfer: %d of %d bytes at offset %d", n, rec, off)
		}
		if err != nil {
			c.Error, c.StoppedBy = err.Error(), "error"
			break
		}
		c.Bytes += int64(n)
		c.Ops++
	}
	if c.Error == "" && writes {
		if err := unix.Fdatasync(int(t.f.Fd())); err != nil {
			c.Error, c.StoppedBy = "fdatasync: "+err.Error(), "error"
		}
	}
	if c.Error == "" && c.Ops == total && c.StoppedBy != "time" {
		c.StoppedBy = "end of file"
	}
	c.Seconds = time.Since(start).Seconds()
	if c.Seconds > 0 {
		c.CPUPct = float64(cpuTime()-cpu0) / float64(time.Since(start)) * 100
	}
	return c
}
