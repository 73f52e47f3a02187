package storagebench

import (
	"regexp"
	"strings"
	"sync"

	"boardbench/internal/lazyre"
	"boardbench/internal/result"
)

// TempNames are the names of the storage test's own temporary files
// exactly (the table's files, the sustained-write file and the
// fake-capacity files), for the temporary-file sweep: they are unlinked
// right after they are created, so only a kill in between leaves one.
// They are compiled on first use (nothing at start-up).
func TempNames() []*regexp.Regexp {
	return []*regexp.Regexp{tempStorage.Re(), tempCapacity.Re()}
}

var (
	tempStorage  = lazyre.Regexp(`^\.boardbench-storage-[0-9a-f]{16}$`)
	tempCapacity = lazyre.Regexp(`^\.boardbench-capacity-[0-9a-f]{16}-[0-9]+$`)
)

// Barrier makes the runs of several devices start each cell together.
// A run that ends leaves the barrier, so the others never wait for it.
type Barrier struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n, here int
	gen     uint64
}

// NewBarrier returns a barrier for n runs.
func NewBarrier(n int) *Barrier {
	b := &Barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Wait blocks until every run still in the barrier called Wait.
func (b *Barrier) Wait() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.here++
	gen := b.gen
	b.releaseLocked()
	for gen == b.gen {
		b.cond.Wait()
	}
}

// Leave removes a run from the barrier.
func (b *Barrier) Leave() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n--
	b.releaseLocked()
}

func (b *Barrier) releaseLocked() {
	if b.here > 0 && b.here >= b.n {
		b.here = 0
		b.gen++
		b.cond.Broadcast()
	}
}

// Combine is the figures of several devices measured at once: each
// device's figures, and their sum cell by cell (null where any device
// lacks the cell).
func Combine(devs []result.StorageDevice) result.StorageFigures {
	out := result.StorageFigures{Table: []result.StorageRow{}, Cells: []result.StorageCell{}, Devices: devs, Direct: len(devs) > 0}
	var dirs, direct []string
	for i, d := range devs {
		dirs = append(dirs, d.Figures.Dir)
		if !d.Figures.Direct {
			out.Direct = false
			direct = append(direct, d.Path+": "+d.Figures.DirectError)
		}
		if i == 0 {
			out.FileBytes, out.CellLimitS, out.CellBudgetBytes = d.Figures.FileBytes, d.Figures.CellLimitS, d.Figures.CellBudgetBytes
		}
	}
	out.Dir, out.DirectError = strings.Join(dirs, ", "), strings.Join(direct, "; ")
	if len(devs) == 0 {
		return out
	}
	for ri, r := range devs[0].Figures.Table {
		sum := result.StorageRow{RecordKiB: r.RecordKiB}
		for _, test := range Tests {
			total, ok := 0.0, true
			for _, d := range devs {
				if ri >= len(d.Figures.Table) || d.Figures.Table[ri].RecordKiB != r.RecordKiB {
					ok = false
					break
				}
				v := *rowField(&d.Figures.Table[ri], test)
				if v == nil {
					ok = false
					break
				}
				total += *v
			}
			if ok {
				*rowField(&sum, test) = &total
			}
		}
		out.Table = append(out.Table, sum)
		if r.RecordKiB == 4 {
			if sum.RandomReadKBs != nil {
				v := *sum.RandomReadKBs / 4
				out.RandRead4kIOPS = &v
			}
			if sum.RandomWriteKBs != nil {
				v := *sum.RandomWriteKBs / 4
				out.RandWrite4kIOPS = &v
			}
		}
	}
	return out
}
