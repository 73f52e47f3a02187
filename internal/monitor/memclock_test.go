package monitor

import (
	"context"
	"reflect"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/devfreq"
	"boardbench/internal/testutil/fixture"
)

// TestMemClock: ConfigFor picks the first memory devfreq device with a
// readable clock, and each sample reads its cur_freq (Hz) as MHz; a
// machine without one, or a clock that is not a number, gives nil.
func TestMemClock(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	gpu := devfreq.Device{Name: "fb000000.gpu", Kind: devfreq.KindGPU, CurMHz: f(300)}
	cases := []struct {
		name      string
		devs      []devfreq.Device
		files     map[string]string
		wantPath  string
		wantLabel string
		wantMHz   *float64
	}{
		{"rk3588 dmc", []devfreq.Device{gpu, {Name: "dmc", Kind: devfreq.KindMemory, CurMHz: f(528)}},
			map[string]string{"/sys/class/devfreq/dmc/cur_freq": "2112000000\n"},
			"/sys/class/devfreq/dmc/cur_freq", "dmc", f(2112)},
		{"memory device without a readable clock", []devfreq.Device{{Name: "dmc", Kind: devfreq.KindMemory}}, nil, "", "", nil},
		{"gpu only", []devfreq.Device{gpu}, nil, "", "", nil},
		{"clock turned garbage", []devfreq.Device{{Name: "dmc", Kind: devfreq.KindMemory, CurMHz: f(528)}},
			map[string]string{"/sys/class/devfreq/dmc/cur_freq": "busy\n"},
			"/sys/class/devfreq/dmc/cur_freq", "dmc", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"/proc/loadavg": "0.10 0.20 0.30 1/100 1234\n"}
			for k, v := range c.files {
				files[k] = v
			}
			h := fixture.Host(t, files)
			cfg := ConfigFor(h, &inventory.Info{Devfreq: c.devs})
			if cfg.MemClockPath != c.wantPath || cfg.MemClockLabel != c.wantLabel {
				t.Fatalf("mem clock = %q %q, want %q %q", cfg.MemClockPath, cfg.MemClockLabel, c.wantPath, c.wantLabel)
			}
			s := New(h, cfg).SampleNow(context.Background())
			if !reflect.DeepEqual(s.MemClockMHz, c.wantMHz) {
				t.Errorf("sample mem clock = %v, want %v", s.MemClockMHz, c.wantMHz)
			}
		})
	}
}
