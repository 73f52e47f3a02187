package check

import (
	"reflect"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/result"
)

func boolp(v bool) *bool { return &v }

func TestFactsFromInfo(t *testing.T) {
	in := &inventory.Info{
		CPU: cpu.Info{
			CPUs:     []cpu.CPU{{ID: 0, Online: boolp(true)}, {ID: 1, Online: boolp(true)}, {ID: 2, Online: boolp(false)}, {ID: 3}},
			Policies: []cpu.Policy{{ID: 0, Governor: "ondemand"}, {ID: 2, Governor: "performance"}, {ID: 4}},
		},
		Board: soc.Board{RaspberryPi: &rpi.Revision{Model: "Raspberry Pi 3 Model B+"}},
		Memory: memory.Info{
			Zswap: &memory.Zswap{Enabled: boolp(true)},
			Swaps: []memory.Swap{{Path: "/dev/zram0", Kind: "zram"}},
		},
		Sensors: sensors.Info{
			SoCTemp: &sensors.SoCTemp{Source: sensors.Source{Kind: sensors.KindThermalZone, Path: "/sys/class/thermal/thermal_zone1/temp"}},
			ThermalZones: []sensors.ThermalZone{
				{Name: "thermal_zone0", Path: "/sys/class/thermal/thermal_zone0/temp", TripPoints: []sensors.TripPoint{{Type: "passive", TempC: f64(50)}}},
				{Name: "thermal_zone1", Path: "/sys/class/thermal/thermal_zone1/temp", TripPoints: []sensors.TripPoint{
					{Type: "passive", TempC: f64(80)}, {Type: "hot", TempC: nil}, {Type: "critical", TempC: f64(90)},
				}},
			},
		},
		RaspberryPi: &rpi.Firmware{Config: map[string]int64{"temp_soft_limit": 60}},
	}
	f := FactsFromInfo(in, nil, nil)
	if f.NCPU != 3 {
		t.Errorf("NCPU = %d, want 3 (online or unknown)", f.NCPU)
	}
	if want := map[int]string{0: "ondemand", 2: "performance"}; !reflect.DeepEqual(f.Governors, want) {
		t.Errorf("governors = %v", f.Governors)
	}
	if !f.ZswapEnabled || !f.ZramSwapActive || f.RPiModel != "Raspberry Pi 3 Model B+" || f.TempSoftLimit == nil || *f.TempSoftLimit != 60 {
		t.Errorf("facts = %+v", f)
	}
	if want := []Trip{{Type: "passive", C: 80}, {Type: "critical", C: 90}}; !reflect.DeepEqual(f.Trips, want) {
		t.Errorf("trips = %+v, want those of the chosen zone", f.Trips)
	}
	f = FactsFromInfo(in, []int{0, 1}, []int{0})
	if f.NCPU != 2 || !reflect.DeepEqual(f.OnlineAfter, []int{0}) {
		t.Errorf("NCPU %d online after %v", f.NCPU, f.OnlineAfter)
	}
	// The facts make the rules fire: a CPU went offline, zswap on zram.
	res := result.New("monitor", in, nil)
	ids := map[string]bool{}
	for _, fd := range Run(res, f) {
		ids[fd.ID] = true
	}
	for _, id := range []string{"cpu_offline", "zswap_with_zram", "rpi_temp_soft_limit", "governor"} {
		if !ids[id] {
			t.Errorf("finding %s missing; got %v", id, ids)
		}
	}
}
