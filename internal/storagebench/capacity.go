package storagebench

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"boardbench/internal/result"

	"golang.org/x/sys/unix"
)

// The fake-capacity check's sizes.
const (
	// CapacityBlock is the tagged unit: its first 16 bytes are the run's
	// nonce and the block's position in the written data, the rest a
	// pseudo-random stream seeded by both, so that a block read back from
	// another position, or zeros, or anything changed, is told apart.
	CapacityBlock = 4096
	// CapacityFileBytes is the size of each file (FAT32 holds up to 4 GiB
	// per file).
	CapacityFileBytes = 1 << 30
	// CapacityMargin is left free: the rest of the system keeps some room
	// while the card is full.
	CapacityMargin = 16 << 20
	capacityChunk  = 1 << 20
)

// CapacityConfig is one fake-capacity check.
type CapacityConfig struct {
	Dir string
	// FileBytes overrides CapacityFileBytes when positive.
	FileBytes int64
	// Progress is called after each chunk; nil for none.
	Progress func(stage string, done, total int64)
	// AfterWrite, when set, runs between writing and reading back (tests
	// make a device lose its tail there).
	AfterWrite func() error
}

// fillBlock writes block pos of the run nonce into b.
func fillBlock(b []byte, nonce, pos uint64) {
	binary.LittleEndian.PutUint64(b[0:], nonce)
	binary.LittleEndian.PutUint64(b[8:], pos)
	x := nonce ^ (pos+1)*0x9e3779b97f4a7c15
	for i := 16; i+8 <= len(b); i += 8 {
		// xorshift64
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		binary.LittleEndian.PutUint64(b[i:], x)
	}
}

// Classify says what a block read back at pos is: "ok", "zero", "moved"
// (a whole block of this run, but of another position) or "changed".
func Classify(got []byte, nonce, pos uint64, scratch []byte) string {
	fillBlock(scratch, nonce, pos)
	if bytes.Equal(got, scratch) {
		return "ok"
	}
	if allZero(got) {
		return "zero"
	}
	if binary.LittleEndian.Uint64(got) == nonce {
		other := binary.LittleEndian.Uint64(got[8:])
		fillBlock(scratch, nonce, other)
		if other != pos && bytes.Equal(got, scratch) {
			return "moved"
		}
	}
	return "changed"
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// VerifyCapacity fills the free space of cfg.Dir, less CapacityMargin,
// with tagged blocks in files unlinked as soon as they are created (the
// kernel frees them however boardbench ends, even on SIGKILL), then reads
// every block back. Nothing is left when it returns.
func VerifyCapacity(ctx context.Context, cfg CapacityConfig) (result.StorageCapacityFigures, error) {
	fileBytes := cfg.FileBytes
	if fileBytes <= 0 {
		fileBytes = CapacityFileBytes
	}
	f := result.StorageCapacityFigures{Dir: cfg.Dir, FileBytes: fileBytes, BlockBytes: CapacityBlock, StoppedBy: "done"}
	free, err := FreeBytes(cfg.Dir)
	if err != nil {
		return f, err
	}
	f.FreeBytes = free
	total := (free - CapacityMargin) / CapacityBlock * CapacityBlock
	if total < CapacityBlock {
		return f, fmt.Errorf("%w: %s free, %s kept free", ErrNoSpace, mib(free), mib(CapacityMargin))
	}
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	nonce := binary.LittleEndian.Uint64(rnd[8:])
	prefix := filepath.Join(cfg.Dir, ".boardbench-capacity-"+hex.EncodeToString(rnd[:8])+"-")
	buf, release, err := alignedBuffer(capacityChunk)
	if err != nil {
		return f, err
	}
	defer release()
	var files []*target
	defer func() {
		for _, t := range files {
			_ = t.f.Close()
		}
	}()
	f.Direct = true
	start := time.Now()
	// Write.
	for f.WrittenBytes < total && f.StoppedBy == "done" {
		t, err := openCapacityFile(prefix + strconv.Itoa(len(files)))
		if err != nil {
			return f, err
		}
		files = append(files, t)
		f.Direct = f.Direct && t.direct
		for off := int64(0); off < fileBytes && f.WrittenBytes < total; off += capacityChunk {
			if ctx.Err() != nil {
				return f, context.Cause(ctx)
			}
			n := min(capacityChunk, fileBytes-off, total-f.WrittenBytes)
			for b := int64(0); b < n; b += CapacityBlock {
				fillBlock(buf[b:b+CapacityBlock], nonce, uint64(f.WrittenBytes+b)/CapacityBlock)
			}
			k, err := t.f.WriteAt(buf[:n], off)
			f.WrittenBytes += int64(k) / CapacityBlock * CapacityBlock
			if err != nil {
				if !errors.Is(err, unix.ENOSPC) {
					return f, fmt.Errorf("writing %s: %w", t.f.Name(), err)
				}
				f.StoppedBy = "no space"
				break
			}
			if cfg.Progress != nil {
				cfg.Progress("writing", f.WrittenBytes, total)
			}
		}
		if err := unix.Fdatasync(int(t.f.Fd())); err != nil && f.StoppedBy == "done" {
			return f, fmt.Errorf("fdatasync: %w", err)
		}
	}
	f.WriteSeconds = time.Since(start).Seconds()
	if cfg.AfterWrite != nil {
		if err := cfg.AfterWrite(); err != nil {
			return f, err
		}
	}
	// Read back: O_DIRECT reads come from the device; without it, the
	// written pages are dropped from the page cache first.
	start = time.Now()
	scratch := make([]byte, CapacityBlock)
	pos := int64(0)
	for _, t := range files {
		if !t.direct {
			_ = unix.Fadvise(int(t.f.Fd()), 0, 0, unix.FADV_DONTNEED)
		}
		for off := int64(0); off < fileBytes && pos < f.WrittenBytes; off += capacityChunk {
			if ctx.Err() != nil {
				return f, context.Cause(ctx)
			}
			n := min(capacityChunk, fileBytes-off, f.WrittenBytes-pos)
			k, err := t.f.ReadAt(buf[:n], off)
			if err != nil && k < int(n) {
				// An unreadable chunk: every block of it is lost.
				for b := int64(k) / CapacityBlock * CapacityBlock; b < n; b += CapacityBlock {
					f.ChangedBytes += CapacityBlock
					firstBad(&f, pos+b)
				}
				n = int64(k) / CapacityBlock * CapacityBlock
			}
			for b := int64(0); b < n; b += CapacityBlock {
				switch Classify(buf[b:b+CapacityBlock], nonce, uint64(pos+b)/CapacityBlock, scratch) {
				case "ok":
					f.OKBytes += CapacityBlock
					continue
				case "zero":
					f.ZeroBytes += CapacityBlock
				case "moved":
					f.MovedBytes += CapacityBlock
				default:
					f.ChangedBytes += CapacityBlock
				}
				firstBad(&f, pos+b)
			}
			pos += min(capacityChunk, fileBytes-off, f.WrittenBytes-pos)
			if cfg.Progress != nil {
				cfg.Progress("reading", pos, f.WrittenBytes)
			}
		}
	}
	f.ReadSeconds = time.Since(start).Seconds()
	return f, nil
}

func firstBad(f *result.StorageCapacityFigures, pos int64) {
	if f.FirstBadOffset == nil {
		f.FirstBadOffset = &pos
	}
}

// openCapacityFile creates one file, O_DIRECT when the file system allows
// it, and unlinks it at once.
func openCapacityFile(name string) (*target, error) {
	flags := os.O_RDWR | os.O_CREATE | os.O_EXCL
	fl, err := os.OpenFile(name, flags|unix.O_DIRECT, 0o600)
	direct := err == nil
	if errors.Is(err, unix.EINVAL) {
		_ = os.Remove(name)
		fl, err = os.OpenFile(name, flags, 0o600)
	}
	if err != nil {
		return nil, err
	}
	_ = os.Remove(name)
	return &target{f: fl, direct: direct}, nil
}
