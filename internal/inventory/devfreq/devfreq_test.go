package devfreq

import (
	"reflect"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// rk3588 is a fixture root shaped like an RK3588 BSP kernel's
// /sys/class/devfreq (values from sbc-bench logs of ROCK 5B boards).
var rk3588 = map[string]string{
	"/sys/class/devfreq/dmc/governor":                       "dmc_ondemand\n",
	"/sys/class/devfreq/dmc/available_governors":            "rknpu_ondemand dmc_ondemand userspace powersave performance simple_ondemand\n",
	"/sys/class/devfreq/dmc/available_frequencies":          "528000000 1068000000 1560000000 2112000000\n",
	"/sys/class/devfreq/dmc/cur_freq":                       "528000000\n",
	"/sys/class/devfreq/dmc/min_freq":                       "528000000\n",
	"/sys/class/devfreq/dmc/max_freq":                       "2112000000\n",
	"/sys/class/devfreq/dmc/trans_stat":                     "     From  :   To\n           : 528000000106800000015600000002112000000   time(ms)\n* 528000000:         0         0         0        37 110661386\n 1068000000:        12         0         0         0     34776\n 1560000000:         0         0         0         0         0\n 2112000000:        26        12         0         0    224716\nTotal transition : 87\n",
	"/sys/class/devfreq/fb000000.gpu/governor":              "simple_ondemand\n",
	"/sys/class/devfreq/fb000000.gpu/available_frequencies": "300000000 400000000 500000000 600000000 700000000 800000000 900000000 1000000000\n",
	"/sys/class/devfreq/fb000000.gpu/cur_freq":              "300000000\n",
	"/sys/class/devfreq/fb000000.gpu/min_freq":              "300000000\n",
	"/sys/class/devfreq/fb000000.gpu/max_freq":              "1000000000\n",
	"/sys/class/devfreq/fb000000.gpu/trans_stat":            "Not Supported.\n",
	"/sys/class/devfreq/fdab0000.npu/governor":              "rknpu_ondemand\n",
	"/sys/class/devfreq/fdab0000.npu/available_frequencies": "300000000 400000000 500000000 600000000 700000000 800000000 900000000 1000000000\n",
	"/sys/class/devfreq/fdab0000.npu/cur_freq":              "1000000000\n",
	"/sys/class/devfreq/fdab0000.npu/min_freq":              "garbage\n",
	"/sys/class/devfreq/fdab0000.npu/max_freq":              "1000000000\n",
}

func f(v float64) *float64 { return &v }

func TestCollect(t *testing.T) {
	devs := Collect(fixture.Host(t, rk3588))
	byName := map[string]Device{}
	for _, d := range devs {
		byName[d.Name] = d
	}
	if len(devs) != 3 {
		t.Fatalf("devices = %d, want dmc, gpu, npu: %+v", len(devs), devs)
	}
	cases := []struct {
		name, kind, gov        string
		cur, min, max          *float64
		avail                  []float64
		states                 int
		transitions            int64 // -1: unknown
		notes                  []string
		top                    float64
		availGovernorsReadable bool
	}{
		{"dmc", KindMemory, "dmc_ondemand", f(528), f(528), f(2112), []float64{528, 1068, 1560, 2112}, 4, 87, nil, 2112, true},
		{"fb000000.gpu", KindGPU, "simple_ondemand", f(300), f(300), f(1000), []float64{300, 400, 500, 600, 700, 800, 900, 1000}, 0, -1, []string{"time_in_state"}, 1000, false},
		{"fdab0000.npu", KindNPU, "rknpu_ondemand", f(1000), nil, f(1000), []float64{300, 400, 500, 600, 700, 800, 900, 1000}, 0, -1, []string{"min_freq"}, 1000, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := byName[c.name]
			if d.Kind != c.kind || d.Governor != c.gov {
				t.Errorf("kind, governor = %q, %q; want %q, %q", d.Kind, d.Governor, c.kind, c.gov)
			}
			if !reflect.DeepEqual(d.CurMHz, c.cur) || !reflect.DeepEqual(d.MinMHz, c.min) || !reflect.DeepEqual(d.MaxMHz, c.max) {
				t.Errorf("cur/min/max = %v/%v/%v", d.CurMHz, d.MinMHz, d.MaxMHz)
			}
			if !reflect.DeepEqual(d.AvailableMHz, c.avail) {
				t.Errorf("available = %v, want %v", d.AvailableMHz, c.avail)
			}
			if len(d.TimeInState) != c.states {
				t.Errorf("time in state = %+v", d.TimeInState)
			}
			if (c.transitions < 0) != (d.Transitions == nil) || (d.Transitions != nil && int64(*d.Transitions) != c.transitions) {
				t.Errorf("transitions = %v, want %d", d.Transitions, c.transitions)
			}
			if top, ok := d.TopMHz(); !ok || top != c.top {
				t.Errorf("top = %v, %v", top, ok)
			}
			if (d.AvailableGovernors != nil) != c.availGovernorsReadable {
				t.Errorf("available governors = %v", d.AvailableGovernors)
			}
			var items []string
			for _, n := range d.Notes {
				items = append(items, n.Item)
			}
			if !reflect.DeepEqual(items, c.notes) {
				t.Errorf("notes = %v, want %v", d.Notes, c.notes)
			}
		})
	}
	if dmc := byName["dmc"]; dmc.TimeInState[0].MHz != 528 || dmc.TimeInState[0].TimeMs != 110661386 {
		t.Errorf("dmc time in state = %+v", dmc.TimeInState)
	}
	if none := Collect(fixture.Host(t, map[string]string{"/proc/": ""})); none != nil {
		t.Errorf("no devfreq class: %+v", none)
	}
}

func TestKind(t *testing.T) {
	cases := map[string]string{
		"dmc": KindMemory, "ddr_bus": KindMemory, "dmc-devfreq": KindMemory,
		"fb000000.gpu": KindGPU, "ff9a0000.gpu": KindGPU, "13000000.mali": KindGPU,
		"fdab0000.npu": KindNPU, "1c00000.video-codec": KindOther,
	}
	for name, want := range cases {
		if got := Kind(name); got != want {
			t.Errorf("Kind(%q) = %q, want %q", name, got, want)
		}
	}
}
