package storagebench

import (
	"sync"
	"testing"

	"boardbench/internal/result"
)

// TestBarrier: no run starts a cell before every run still present has
// reached it; a run that leaves early never blocks the others.
func TestBarrier(t *testing.T) {
	const runs, cells = 3, 6
	b := NewBarrier(runs)
	var mu sync.Mutex
	var order []int // the cell each Wait returned for, in order
	var wg sync.WaitGroup
	for r := 0; r < runs; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer b.Leave()
			n := cells
			if r == 0 {
				n = 2 // this run fails after two cells
			}
			for c := 0; c < n; c++ {
				b.Wait()
				mu.Lock()
				order = append(order, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(order) != 2+2*cells {
		t.Fatalf("%d cells started, want %d", len(order), 2+2*cells)
	}
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			t.Fatalf("cell %d started after cell %d: %v", order[i], order[i-1], order)
		}
	}
}

func TestCombine(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	dev := func(path string, w, rr *float64, direct bool) result.StorageDevice {
		return result.StorageDevice{Path: path, Figures: result.StorageFigures{Dir: path, Direct: direct, FileBytes: 64 << 20,
			Table: []result.StorageRow{{RecordKiB: 4, WriteKBs: w, RandomReadKBs: rr}}}}
	}
	c := Combine([]result.StorageDevice{dev("/a", v(100), v(400), true), dev("/b", v(50), nil, true)})
	row := c.Table[0]
	if row.WriteKBs == nil || *row.WriteKBs != 150 || row.RandomReadKBs != nil || c.RandRead4kIOPS != nil || !c.Direct || c.Dir != "/a, /b" || len(c.Devices) != 2 {
		t.Errorf("combined %+v, row %+v", c, row)
	}
	if d := Combine([]result.StorageDevice{dev("/a", v(1), v(1), true), dev("/b", v(1), v(1), false)}); d.Direct {
		t.Error("a device through the page cache left the sum direct")
	}
}

func TestTempNames(t *testing.T) {
	for name, want := range map[string]bool{
		".boardbench-storage-0123456789abcdef":    true,
		".boardbench-capacity-0123456789abcdef-7": true,
		".boardbench-capacity-0123456789abcdef-":  false,
		".boardbench-storage-0123456789abcdef.x":  false,
		"boardbench-storage-0123456789abcdef":     false,
	} {
		got := false
		for _, re := range TempNames() {
			got = got || re.MatchString(name)
		}
		if got != want {
			t.Errorf("%q: matched %v, want %v", name, got, want)
		}
	}
}
