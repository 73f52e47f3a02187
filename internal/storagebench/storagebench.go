// Package storagebench is boardbench's native storage test: the table users
// know from `iozone -e -I -a -s 100M -r 4k -r 16k -r 512k -r 1024k -r 16384k
// -i 0 -i 1 -i 2` (write, rewrite, read, reread, random read and random
// write per record size, in KiB/s with 1 KiB = 1024 bytes), measured with
// O_DIRECT in temporary files, each cell bounded in time and bytes so a
// slow SD card gives its figures in a fraction of iozone's time.
//
// Method. The read file (Config.FileBytes, 100 MiB like iozone's -s 100M)
// is written once, whole, before the table (the fill, timed but not in the
// table). Then, per record size: write creates a new write file (written
// from its start, at most CellBudget bytes after MinCellRecords records),
// rewrite writes that same region again; read, reread, random read and
// random write use the whole read file: read continues where the previous
// row's read stopped (wrapping at the end) so that no row reads what the
// row before it just read, reread reads the region read read, and the random
// cells draw offsets over the whole read file, a region larger than the
// cache of an SD card or eMMC (and than what earlier cells touched).
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
	// MinFileBytes holds MinCellRecords of the largest records (16 MiB),
	// so that every cell can move MinCellRecords records without reading
	// anything twice.
	MinFileBytes = MinCellRecords * (16 << 20)
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
	// FileBytes is the size of the read file, the region of the read and
	// random cells (default DefaultFileBytes).
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
	// Barrier, when set, is waited at before each cell: the runs of
	// several devices measured at once start each cell together.
	Barrier *Barrier
	// NoLatency skips the latency cells (QueueDepths x LatencyTests after
	// the table).
	NoLatency bool
}

// ErrNoSpace is returned (wrapped) when the free space is below what the
// test needs; nothing was written then.
const ErrNoSpace = sentinel("not enough free space")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// FreeBytes returns the space available to an unprivileged user in dir.
func FreeBytes(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, &os.PathError{Op: "statfs", Path: dir, Err: err}
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// WriteFileBytes is the most the write file of a run with read file
// fileBytes holds: the byte budget, or MinCellRecords of the largest
// record when that is more.
func WriteFileBytes(fileBytes int64) int64 {
	return max(fileBytes/4, MinCellRecords*(16<<20))
}

// SpaceFor is the free space a read file of fileBytes needs: the read
// file, the write file and FreeMargin.
func SpaceFor(fileBytes int64) int64 {
	return fileBytes + WriteFileBytes(fileBytes) + FreeMargin
}

// SizeFor returns the read file's size for want bytes in free bytes of
// space. With want 0 (the default) it is DefaultFileBytes, or as much as
// fits down to MinFileBytes; a size the user asked for is used as it is.
// The error wraps ErrNoSpace when the space is short, and says how much is
// free.
func SizeFor(want, free int64) (int64, error) {
	if want > 0 {
		if want < MinFileBytes {
			return 0, fmt.Errorf("%s is below the smallest test file, %s (%d records of 16 MiB)", mib(want), mib(MinFileBytes), MinCellRecords)
		}
		if need := SpaceFor(want); need > free {
			return 0, fmt.Errorf("%w: %s free, a %s test file needs %s (with the write file and %s to spare)", ErrNoSpace,
				mib(free), mib(want), mib(need), mib(FreeMargin))
		}
		return want, nil
	}
	// DefaultFileBytes, else the largest multiple of 16 MiB that fits.
	for size := int64(DefaultFileBytes); size >= MinFileBytes; size = (size - 1) &^ (16<<20 - 1) {
		if SpaceFor(size) <= free {
			return size, nil
		}
	}
	return 0, fmt.Errorf("%w: %s free, the test needs %s (a %s test file, the write file and %s to spare)", ErrNoSpace,
		mib(free), mib(SpaceFor(MinFileBytes)), mib(MinFileBytes), mib(FreeMargin))
}

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }

// target is the file or device under test.
type target struct {
	f      *os.File
	direct bool
	device bool
}

// files are the read file and the write file (on a raw device, the two
// regions of it: the read region first, the write region after it).
type files struct {
	read, write *target
	// writeBase is where the write region starts in write.f.
	writeBase int64
}

func (fs *files) close() {
	_ = fs.read.f.Close()
	if fs.write != fs.read {
		_ = fs.write.f.Close()
	}
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
	defer cfg.Barrier.Leave()
	rt, directErr, err := openTarget(cfg)
	if err != nil {
		return figs, err
	}
	fs := &files{read: rt, write: rt}
	if rt.device {
		fs.writeBase = cfg.FileBytes
	} else if fs.write, _, err = openTarget(Config{Dir: cfg.Dir, NoDirect: cfg.NoDirect || !rt.direct}); err != nil {
		_ = rt.f.Close()
		return figs, err
	}
	defer fs.close()
	figs.Direct, figs.DirectError = rt.direct, directErr
	figs.WriteFileBytes = WriteFileBytes(cfg.FileBytes)
	buf, free, err := alignedBuffer(maxRec)
	if err != nil {
		return figs, err
	}
	defer free()
	if cfg.Progress != nil {
		cfg.Progress(maxRec>>10, "fill")
	}
	if figs.FillSeconds, err = fill(ctx, rt, cfg.FileBytes, buf); err != nil {
		return figs, err
	}
	readAt := int64(0) // where the next row's read starts
	for _, rec := range cfg.RecordsKiB {
		row := result.StorageRow{RecordKiB: rec}
		cells, err := runRow(ctx, fs, cfg, rec<<10, buf, &readAt)
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
	if cfg.NoLatency {
		return figs, nil
	}
	figs.Latency, err = runLatencyCells(ctx, rt, cfg.FileBytes, cfg, buf)
	return figs, err
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

// fill writes the whole read file once with the largest records and
// flushes it; it returns the seconds it took.
func fill(ctx context.Context, t *target, size int64, buf []byte) (float64, error) {
	start := time.Now()
	for off := int64(0); off < size; off += int64(len(buf)) {
		if ctx.Err() != nil {
			return 0, context.Cause(ctx)
		}
		n := min(int64(len(buf)), size-off)
		if _, err := t.f.WriteAt(buf[:n], off); err != nil {
			return 0, fmt.Errorf("writing the test file: %w", err)
		}
	}
	if err := unix.Fdatasync(int(t.f.Fd())); err != nil {
		return 0, fmt.Errorf("writing the test file: fdatasync: %w", err)
	}
	return time.Since(start).Seconds(), nil
}

// region is what a cell addresses: Bytes from Base in a file; a
// sequential cell starts at Start (relative to Base) and wraps at the end.
type region struct {
	t           *target
	file        string
	base, bytes int64
	start       int64
	// seqBytes, when set, is all a sequential cell may move (reread:
	// what read read).
	seqBytes int64
}

// runRow runs the six cells of one record size; readAt is where the read
// cell starts, moved past what it read.
func runRow(ctx context.Context, fs *files, cfg Config, rec int, buf []byte, readAt *int64) ([]result.StorageCell, error) {
	var cells []result.StorageCell
	if !fs.write.device {
		// A new file for the write test, as iozone writes a new file.
		if err := fs.write.f.Truncate(0); err != nil {
			return nil, fmt.Errorf("truncating the write file: %w", err)
		}
	}
	recs := int64(rec)
	readRegion := region{t: fs.read, file: result.StorageReadFile, bytes: cfg.FileBytes / recs * recs}
	readRegion.start = *readAt / recs * recs % readRegion.bytes
	writeRegion := region{t: fs.write, file: result.StorageWriteFile, base: fs.writeBase, bytes: WriteFileBytes(cfg.FileBytes) / recs * recs}
	for _, test := range Tests {
		if err := context.Cause(ctx); ctx.Err() != nil {
			return cells, err
		}
		cfg.Barrier.Wait()
		if cfg.Progress != nil {
			cfg.Progress(rec>>10, test)
		}
		var reg region
		switch test {
		case TestWrite, TestRewrite:
			reg = writeRegion
		default:
			reg = readRegion
		}
		c := runCell(ctx, reg, cfg, test, rec, buf[:rec])
		switch test {
		case TestWrite:
			// rewrite writes again what write wrote.
			writeRegion.bytes = c.Bytes
		case TestRead:
			// reread reads again what read read; the next row's read
			// goes on from there.
			*readAt = (readRegion.start + c.Bytes) % readRegion.bytes
			readRegion.seqBytes = c.Bytes
		case TestReread:
			readRegion.seqBytes = 0
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

// runCell runs one test over its region: sequential tests pass once over
// it from its start (wrapping at the end), random tests do as many
// operations as it holds records, at offsets drawn over all of it; each
// stops early at the time limit (after at least one record; two for the
// write test, so that rewrite has more than one) or at the byte budget
// (after at least MinCellRecords records).
func runCell(ctx context.Context, reg region, cfg Config, test string, rec int, buf []byte) result.StorageCell {
	c := result.StorageCell{RecordKiB: rec >> 10, Test: test, File: reg.file, RegionBytes: reg.bytes}
	recs := int64(rec)
	total := reg.bytes / recs
	random := test == TestRandomRead || test == TestRandomWrite
	if !random {
		c.Offset = reg.start
		if reg.seqBytes > 0 {
			total = min(total, reg.seqBytes/recs)
		}
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
		off := (reg.start + i*recs) % reg.bytes
		if random {
			off = rng.Int64N(reg.bytes/recs) * recs
		}
		off += reg.base
		var n int
		var err error
		if writes {
			n, err = reg.t.f.WriteAt(buf, off)
		} else {
			n, err = reg.t.f.ReadAt(buf, off)
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
		if err := unix.Fdatasync(int(reg.t.f.Fd())); err != nil {
			c.Error, c.StoppedBy = "fdatasync: "+err.Error(), "error"
		}
	}
	if c.Error == "" && c.Ops == total && c.StoppedBy != "time" {
		c.StoppedBy = "end of region"
	}
	c.Seconds = time.Since(start).Seconds()
	if c.Seconds > 0 {
		c.CPUPct = float64(cpuTime()-cpu0) / float64(time.Since(start)) * 100
	}
	return c
}
