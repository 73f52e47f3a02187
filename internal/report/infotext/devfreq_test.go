package infotext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/devfreq"
	"boardbench/internal/note"
)

func TestRenderDevfreq(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name    string
		devs    []devfreq.Device
		want    []string
		notWant []string
	}{
		{"none", nil, nil, []string{"Device clocks"}},
		{"rk3588", []devfreq.Device{
			{Name: "dmc", Kind: devfreq.KindMemory, Governor: "dmc_ondemand", CurMHz: f(528), MinMHz: f(528), MaxMHz: f(2112),
				AvailableMHz: []float64{528, 1068, 1560, 2112},
				TimeInState:  []devfreq.State{{MHz: 528, TimeMs: 998}, {MHz: 2112, TimeMs: 2}}},
			{Name: "fdab0000.npu", Kind: devfreq.KindNPU, Governor: "rknpu_ondemand", MaxMHz: f(1000),
				AvailableMHz: []float64{300, 400, 500, 600, 700, 800, 900, 1000},
				Notes:        note.List{{Item: "cur_freq", Reason: note.NeedsRoot}}},
		}, []string{"Device clocks (devfreq)", "dmc", "dmc_ondemand", "528 MHz", "2112 MHz", "dmc (memory controller): dmc_ondemand at 528 MHz, limits 528–2112 MHz",
			"offers 528 1068 1560 2112 MHz; most time since boot at 528 MHz (99.8 %)",
			"fdab0000.npu (NPU): rknpu_ondemand at unknown, limits unknown–1000 MHz",
			"offers 300 400 500 600 700 800 900 1000 MHz; most time since boot at unknown",
			"unknown: cur_freq (needs root)"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			Render(&b, &inventory.Info{Devfreq: c.devs}, false)
			for _, s := range c.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("missing %q in:\n%s", s, b.String())
				}
			}
			for _, s := range c.notWant {
				if strings.Contains(b.String(), s) {
					t.Errorf("unexpected %q in:\n%s", s, b.String())
				}
			}
		})
	}
}
