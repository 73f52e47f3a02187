package kernelfile

import (
	"errors"
	"testing"
)

// Real trans_stat files as sbc-bench logs show them: an RK3588 dmc (the
// header's ten-digit columns run together) and a GPU with eight states.
const (
	transStatRK3588 = `     From  :   To
           : 528000000106800000015600000002112000000   time(ms)
* 528000000:         0         0         0        37 110661386
 1068000000:        12         0         0         0     34776
 1560000000:         0         0         0         0         0
 2112000000:        26        12         0         0    224716
Total transition : 87
`
	transStatRK3588Top = `     From  :   To
           : 528000000106800000015600000002112000000   time(ms)
  528000000:         0         0         0         6   3240350
 1068000000:         1         0         0         1       923
 1560000000:         0         0         0         0         0
*2112000000:         5         2         0         0   5873840
Total transition : 15
`
	transStatGPU = `     From  :   To
           : 165000000 206000000 275000000 413000000 543000000 633000000 728000000 825000000   time(ms)
  165000000:         0         1         3         7         3         0         0        21    106120
  206000000:         1         0         2         2         2         0         0         3      1870
  275000000:         3         2         0         3         1         0         0         6      8620
  413000000:         8         4         1         0         3         0         0         6     10470
  543000000:         2         1         2         4         0         0         0        12      5080
  633000000:         0         0         0         0         0         0         0         0         0
  728000000:         0         0         0         0         0         0         0         0         0
* 825000000:        21         2         7         6        12         0         0         0   1313350
Total transition : 151
`
)

func TestParseDevfreqTransStat(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		states   int
		current  int64
		firstMs  uint64
		lastMs   uint64
		total    int64 // -1: no Total line
		wantErr  bool
		notSuppd bool
	}{
		{"rk3588 dmc at 528", transStatRK3588, 4, 528000000, 110661386, 224716, 87, false, false},
		{"rk3588 dmc at 2112", transStatRK3588Top, 4, 2112000000, 3240350, 5873840, 15, false, false},
		{"gpu 8 states", transStatGPU, 8, 825000000, 106120, 1313350, 151, false, false},
		{"no total line", " 528000000:  0  5\n*2112000000:  3  0  99\n", 2, 2112000000, 5, 99, -1, false, false},
		{"not supported", "Not Supported.\n", 0, 0, 0, 0, -1, true, true},
		{"empty", "", 0, 0, 0, 0, -1, true, false},
		{"garbage", "From : To\nxyz: abc\n 528000000: x y\n", 0, 0, 0, 0, -1, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseDevfreqTransStat(c.in)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if errors.Is(err, ErrNotSupported) != c.notSuppd {
				t.Errorf("ErrNotSupported = %v, want %v", errors.Is(err, ErrNotSupported), c.notSuppd)
			}
			if err != nil {
				return
			}
			if len(got.States) != c.states {
				t.Fatalf("states = %d, want %d", len(got.States), c.states)
			}
			var cur int64
			for _, s := range got.States {
				if s.Current {
					cur = s.Hz
				}
			}
			if cur != c.current {
				t.Errorf("current = %d, want %d", cur, c.current)
			}
			if got.States[0].TimeMs != c.firstMs || got.States[len(got.States)-1].TimeMs != c.lastMs {
				t.Errorf("times = %d … %d, want %d … %d", got.States[0].TimeMs, got.States[len(got.States)-1].TimeMs, c.firstMs, c.lastMs)
			}
			switch {
			case c.total < 0 && got.Total != nil:
				t.Errorf("total = %d, want none", *got.Total)
			case c.total >= 0 && (got.Total == nil || int64(*got.Total) != c.total):
				t.Errorf("total = %v, want %d", got.Total, c.total)
			}
		})
	}
}
