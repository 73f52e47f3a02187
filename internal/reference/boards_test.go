package reference

import (
	"path/filepath"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
)

// TestBoardFixturesFindTheirSoC: a result whose machine description comes
// from a real board's fixture root (testdata/boards) is placed among the
// shipped reference results of its SoC wherever the set holds that SoC:
// the live SoC identification and the logs' SoC names meet on one key.
func TestBoardFixturesFindTheirSoC(t *testing.T) {
	set, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ board, key string }{
		{"rock5b", "rk3588"},
		{"rock5b-armbian", "rk3588"},
		{"rk3399", "rk3399"},
		{"rpi4b", "bcm2711"},
		{"rpi5", "bcm2712"},
		{"rpi-zero2w", "bcm2837"},
		{"cpuinfo-only", "bcm2835"},
		{"odroid-n2plus", "s922x"},
		{"orangepi-zero3", "h618"},
		{"qcs6490", "qcs6490"},
		{"visionfive2", "jh7110"},
	} {
		t.Run(c.board, func(t *testing.T) {
			h, err := host.New(filepath.Join("..", "..", "testdata", "boards", c.board))
			if err != nil {
				t.Fatal(err)
			}
			in := inventory.Collect(h, inventory.Options{Redact: true})
			if got := SoCKey(in.SoC.Guess); got != c.key {
				t.Fatalf("SoC %q has key %q, want %q", in.SoC.Guess, got, c.key)
			}
			if _, ok := set.Group(in.SoC.Guess); !ok {
				t.Fatalf("the shipped set has no group for %q", in.SoC.Guess)
			}
			m := 1000.0
			r := &result.Result{Command: "run", Options: map[string]any{}, Info: in,
				Summary: result.Summary{SevenZipMultiMIPS: &m, ClockMHz: []result.Value{{CPU: 0, Value: 1000}}}}
			if p := set.Place(r); p.Basis != BasisSoC || p.NotPlaced != "" {
				t.Errorf("%s (%s): basis %q, group %q, not placed %q, note %q", c.board, in.SoC.Guess, p.Basis, p.Group, p.NotPlaced, p.Note)
			}
		})
	}
}
