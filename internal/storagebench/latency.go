package storagebench

import (
	"context"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"slices"
	"time"
	"unsafe"

	"boardbench/internal/result"

	"golang.org/x/sys/unix"
)

// Latency cells: 4 KiB random reads and writes over the read file at each
// of QueueDepths, with every request timed from its submission to its
// completion.
var (
	QueueDepths    = []int{1, 32}
	LatencyTests   = []string{TestRandomRead, TestRandomWrite}
	LatencyRecKiB  = 4
	maxLatencyOps  = 1 << 18 // samples kept per cell (1 MiB of uint32)
	minP99Samples  = 100
	minP999Samples = 1000
)

// EngineLibaio names Linux native asynchronous I/O (StorageLatency.Engine).
const EngineLibaio = "libaio"

// Percentile is the nearest-rank percentile p (0 < p < 1) of sorted
// samples: the smallest sample with at least p of all samples at or below
// it.
func Percentile(sorted []uint32, p float64) uint32 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// LatencyOf fills the percentiles of c from its samples (nanoseconds); it
// sorts samples.
func LatencyOf(c *result.StorageLatency, samples []uint32) {
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	us := func(ns uint32) *float64 { v := float64(ns) / 1000; return &v }
	c.P50Us, c.MaxUs = us(Percentile(samples, 0.5)), us(samples[len(samples)-1])
	var short []string
	if len(samples) >= minP99Samples {
		c.P99Us = us(Percentile(samples, 0.99))
	} else {
		short = append(short, "p99")
	}
	if len(samples) >= minP999Samples {
		c.P999Us = us(Percentile(samples, 0.999))
	} else {
		short = append(short, "p99.9")
	}
	if len(short) > 0 {
		c.Note = fmt.Sprintf("%d requests: too few for %s (needs %d for p99, %d for p99.9)", len(samples), joinAnd(short), minP99Samples, minP999Samples)
	}
}

func joinAnd(s []string) string {
	if len(s) == 2 {
		return s[0] + " and " + s[1]
	}
	return s[0]
}

// runLatencyCells runs every latency cell over the read region.
func runLatencyCells(ctx context.Context, t *target, regionBytes int64, cfg Config, buf []byte) ([]result.StorageLatency, error) {
	var out []result.StorageLatency
	for _, depth := range QueueDepths {
		for _, test := range LatencyTests {
			if ctx.Err() != nil {
				return out, context.Cause(ctx)
			}
			cfg.Barrier.Wait()
			if cfg.Progress != nil {
				cfg.Progress(LatencyRecKiB, fmt.Sprintf("%s QD%d", test, depth))
			}
			c := result.StorageLatency{Test: test, RecordKiB: LatencyRecKiB, QueueDepth: depth, Engine: EngineLibaio}
			if !t.direct {
				c.Error = "needs O_DIRECT, which the filesystem refused"
				out = append(out, c)
				continue
			}
			latencyCell(ctx, &c, t, regionBytes, cfg, buf)
			out = append(out, c)
			if c.Error != "" && ctx.Err() != nil {
				return out, context.Cause(ctx)
			}
		}
	}
	return out, nil
}

// latencyCell keeps c.QueueDepth requests in flight at random offsets of
// the region until the cell's time limit or byte budget (after at least
// one request per slot), timing each from submission to completion.
func latencyCell(ctx context.Context, c *result.StorageLatency, t *target, regionBytes int64, cfg Config, buf []byte) {
	rec := int64(c.RecordKiB) << 10
	depth := c.QueueDepth
	slots := regionBytes / rec
	if slots < 1 || int64(len(buf)) < int64(depth)*rec {
		c.Error = "region or buffer too small"
		return
	}
	a, err := newAIO(depth)
	if err != nil {
		c.Error = err.Error()
		return
	}
	defer a.close()
	op := uint16(iocbCmdPread)
	if c.Test == TestRandomWrite {
		op = iocbCmdPwrite
	}
	rng := mrand.New(mrand.NewPCG(uint64(depth), uint64(len(c.Test))))
	cbs := make([]iocb, depth)
	sent := make([]time.Time, depth)
	for i := range cbs {
		cbs[i] = iocb{data: uint64(i), opcode: op, fd: uint32(t.f.Fd()), nbytes: uint64(rec),
			buf: uint64(uintptr(unsafe.Pointer(&buf[int64(i)*rec])))}
	}
	samples := make([]uint32, 0, 4096)
	evs := make([]ioEvent, depth)
	var submitted int64
	budget := max(cfg.CellBudget, int64(depth)*rec)
	c.StoppedBy = "bytes"
	start := time.Now()
	more := func() bool {
		switch {
		case ctx.Err() != nil:
			return false
		case submitted >= int64(depth) && time.Since(start) >= cfg.CellLimit:
			c.StoppedBy = "time"
			return false
		case submitted >= int64(maxLatencyOps):
			c.StoppedBy = "requests"
			return false
		}
		return (submitted+1)*rec <= budget
	}
	// send submits the given slots at new offsets; false on error.
	send := func(idx []int) bool {
		ptrs := make([]*iocb, 0, len(idx))
		now := time.Now()
		for _, i := range idx {
			cbs[i].offset = rng.Int64N(slots) * rec
			sent[i] = now
			ptrs = append(ptrs, &cbs[i])
		}
		for len(ptrs) > 0 {
			n, err := a.submit(ptrs)
			if err != nil {
				c.Error, c.StoppedBy = err.Error(), "error"
				return false
			}
			submitted += int64(n)
			ptrs = ptrs[n:]
		}
		return true
	}
	first := make([]int, depth)
	for i := range first {
		first[i] = i
	}
	inflight := 0
	if send(first) {
		inflight = depth
	}
	var last time.Time
	for inflight > 0 {
		n, err := a.wait(evs)
		now := time.Now()
		if err != nil {
			c.Error, c.StoppedBy = err.Error(), "error"
			break
		}
		var again []int
		for _, ev := range evs[:n] {
			i := int(ev.data)
			inflight--
			if ev.res != rec {
				if c.Error == "" {
					c.Error, c.StoppedBy = resText(ev.res, rec, cbs[i].offset), "error"
				}
				continue
			}
			d := now.Sub(sent[i])
			samples = append(samples, uint32(min(d, time.Duration(math.MaxUint32))))
			c.Ops++
			last = now
			if c.Error == "" && more() {
				again = append(again, i)
			}
		}
		if len(again) > 0 && send(again) {
			inflight += len(again)
		}
	}
	if ctx.Err() != nil && c.Error == "" {
		c.Error, c.StoppedBy = "interrupted", "error"
	}
	if c.Ops > 0 {
		c.Seconds = last.Sub(start).Seconds()
	}
	if c.Seconds > 0 {
		iops := float64(c.Ops) / c.Seconds
		kbs := iops * float64(rec) / 1024
		c.IOPS, c.KBs = &iops, &kbs
	}
	LatencyOf(c, samples)
	if op == iocbCmdPwrite && c.Error == "" {
		if err := unix.Fdatasync(int(t.f.Fd())); err != nil {
			c.Error = "fdatasync: " + err.Error()
		}
	}
}

func resText(res, want, off int64) string {
	if res < 0 {
		return fmt.Sprintf("at offset %d: %v", off, unix.Errno(-res))
	}
	return fmt.Sprintf("short transfer: %d of %d bytes at offset %d", res, want, off)
}
