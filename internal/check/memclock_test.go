package check

import (
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/devfreq"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/result"
)

func TestDMCScaling(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	rk := []float64{528, 1068, 1560, 2112}
	dmc := func(gov string, cur, max float64) devfreq.Device {
		return devfreq.Device{Name: "dmc", Kind: devfreq.KindMemory, Governor: gov, CurMHz: f(cur), MinMHz: f(528), MaxMHz: f(max), AvailableMHz: rk}
	}
	gpu := devfreq.Device{Name: "fb000000.gpu", Kind: devfreq.KindGPU, Governor: "powersave", CurMHz: f(300), MaxMHz: f(1000), AvailableMHz: []float64{300, 1000}}
	cases := []struct {
		name  string
		soc   string
		devs  []devfreq.Device
		ids   []string
		title string
	}{
		{"dmc_ondemand idle at 528", "Rockchip RK3588", []devfreq.Device{dmc("dmc_ondemand", 528, 2112), gpu}, nil, ""},
		{"performance at 2112", "Rockchip RK3588", []devfreq.Device{dmc("performance", 2112, 2112)}, nil, ""},
		{"powersave", "Rockchip RK3588", []devfreq.Device{dmc("powersave", 528, 2112)}, []string{IDDMCPinnedLow}, "powersave governor"},
		{"userspace low", "Rockchip RK3588", []devfreq.Device{dmc("userspace", 1068, 2112)}, []string{IDDMCPinnedLow}, "userspace governor holds it at 1068 MHz"},
		{"userspace top", "Rockchip RK3588", []devfreq.Device{dmc("userspace", 2112, 2112)}, nil, ""},
		{"max_freq capped", "Rockchip RK3588", []devfreq.Device{dmc("dmc_ondemand", 528, 1068)}, []string{IDDMCPinnedLow}, "max_freq caps it at 1068 MHz"},
		{"one clock only", "Rockchip RK3399", []devfreq.Device{{Name: "dmc", Kind: devfreq.KindMemory, Governor: "powersave", AvailableMHz: []float64{800}}}, nil, ""},
		{"unknown clocks", "Rockchip RK3399", []devfreq.Device{{Name: "dmc", Kind: devfreq.KindMemory, Governor: "powersave"}}, nil, ""},
		{"absent on rockchip", "Rockchip RK3588", []devfreq.Device{gpu}, []string{IDDMCAbsent}, "no devfreq device"},
		{"absent elsewhere", "Broadcom BCM2711", nil, nil, ""},
		{"no soc guess", "", nil, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &result.Result{Info: &inventory.Info{SoC: soc.SoC{Guess: c.soc}, Devfreq: c.devs}}
			got := DMCScaling(r, Facts{})
			var ids []string
			for _, g := range got {
				ids = append(ids, g.ID)
			}
			if strings.Join(ids, ",") != strings.Join(c.ids, ",") {
				t.Fatalf("ids = %v, want %v (%+v)", ids, c.ids, got)
			}
			if c.title != "" && !strings.Contains(got[0].Title, c.title) {
				t.Errorf("title %q lacks %q", got[0].Title, c.title)
			}
		})
	}
	if got := DMCScaling(&result.Result{}, Facts{}); got != nil {
		t.Errorf("no info: %+v", got)
	}
}
