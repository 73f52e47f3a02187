package memory

import (
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestControllers(t *testing.T) {
	in := Collect(fixture.Host(t, map[string]string{
		"/sys/class/devfreq/dmc/governor":          "dmc_ondemand\n",
		"/sys/class/devfreq/dmc/cur_freq":          "528000000\n",
		"/sys/class/devfreq/dmc/max_freq":          "2112000000\n",
		"/sys/class/devfreq/fb000000.gpu/governor": "simple_ondemand\n",
		"/sys/class/devfreq/ddr_bus/governor":      "powersave\n",
		"/sys/class/devfreq/ddr_bus/cur_freq":      "garbage\n",
	}))
	if len(in.Controllers) != 2 {
		t.Fatalf("controllers = %+v, want dmc and ddr_bus (not the GPU)", in.Controllers)
	}
	byName := map[string]Controller{}
	for _, c := range in.Controllers {
		byName[c.Name] = c
	}
	d := byName["dmc"]
	if d.Governor != "dmc_ondemand" || d.CurMHz == nil || *d.CurMHz != 528 || d.MaxMHz == nil || *d.MaxMHz != 2112 {
		t.Errorf("dmc = %+v", d)
	}
	b := byName["ddr_bus"]
	if b.Governor != "powersave" || b.CurMHz != nil || b.MaxMHz != nil {
		t.Errorf("ddr_bus = %+v, want governor powersave and no clock", b)
	}
	if none := Collect(fixture.Host(t, map[string]string{"/proc/": ""})); none.Controllers != nil {
		t.Errorf("no devfreq: %+v", none.Controllers)
	}
}
