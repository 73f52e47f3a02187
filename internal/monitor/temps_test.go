package monitor

import (
	"context"
	"fmt"
	"testing"

	"boardbench/internal/inventory/sensors"
	"boardbench/internal/testutil/fixture"
)

// routerTemps is a fixture root shaped like the CM4 router seed's board:
// the SoC's zone, a PMIC zone, a real-time clock and an environment sensor
// on hwmon, and the hwmon mirror of the SoC zone (left out).
func routerTemps() map[string]string {
	return map[string]string{
		"sys/class/thermal/thermal_zone0/type": "cpu-thermal\n",
		"sys/class/thermal/thermal_zone0/temp": "52100\n",
		"sys/class/thermal/thermal_zone1/type": "pmic-thermal\n",
		"sys/class/thermal/thermal_zone1/temp": "47000\n",
		"sys/class/hwmon/hwmon0/name":          "cpu_thermal\n",
		"sys/class/hwmon/hwmon0/temp1_input":   "52100\n",
		"sys/class/hwmon/hwmon1/name":          "ds3231\n",
		"sys/class/hwmon/hwmon1/temp1_input":   "31250\n",
		"sys/class/hwmon/hwmon2/name":          "bme280\n",
		"sys/class/hwmon/hwmon2/temp1_input":   "24500\n",
		"sys/class/hwmon/hwmon2/temp1_label":   "ambient\n",
		// A broken sensor: not sampled.
		"sys/class/hwmon/hwmon3/name":        "broken\n",
		"sys/class/hwmon/hwmon3/temp1_input": "garbage\n",
	}
}

func TestTempSensorsNamedAndSampled(t *testing.T) {
	h := fixture.Host(t, routerTemps())
	temps := tempSensors(sensors.Collect(h))
	var labels []string
	for _, s := range temps {
		labels = append(labels, s.Label)
	}
	want := []string{"cpu-thermal", "pmic-thermal", "ds3231 temp1", "bme280 ambient"}
	if fmt.Sprint(labels) != fmt.Sprint(want) {
		t.Fatalf("labels = %v, want %v", labels, want)
	}
	m := New(h, Config{Temps: temps})
	s := m.SampleNow(context.Background())
	wantC := []float64{52.1, 47, 31.3, 24.5}
	if len(s.Temps) != len(wantC) {
		t.Fatalf("sample temps = %v", s.Temps)
	}
	for i, w := range wantC {
		if s.Temps[i] == nil || *s.Temps[i] != w {
			t.Errorf("%s = %v, want %v", labels[i], s.Temps[i], w)
		}
	}
}

func TestTempSensorsBounded(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("sys/class/thermal/thermal_zone%d/type", i)] = fmt.Sprintf("zone%d\n", i)
		files[fmt.Sprintf("sys/class/thermal/thermal_zone%d/temp", i)] = "40000\n"
	}
	if got := tempSensors(sensors.Collect(fixture.Host(t, files))); len(got) != MaxTemps {
		t.Errorf("%d sensors sampled, want at most %d", len(got), MaxTemps)
	}
}

// BenchmarkSampleTemps is the cost of one sample with MaxTemps
// temperatures besides the usual files (docs/monitor.md): at 1 s
// sampling, 0.5 % of one core is 5 ms per sample.
func BenchmarkSampleTemps(b *testing.B) {
	files := routerTemps()
	for i := range MaxTemps {
		files[fmt.Sprintf("sys/class/thermal/thermal_zone%d/type", i+2)] = fmt.Sprintf("zone%d\n", i)
		files[fmt.Sprintf("sys/class/thermal/thermal_zone%d/temp", i+2)] = "40000\n"
	}
	files["proc/stat"] = "cpu  100 0 100 1000 0 10 10 0 0 0\ncpu0 100 0 100 1000 0 10 10 0 0 0\n"
	files["proc/loadavg"] = "0.10 0.20 0.30 1/100 1234\n"
	files["proc/meminfo"] = "MemTotal: 1000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n"
	h := fixture.Host(b, files)
	m := New(h, Config{Temps: tempSensors(sensors.Collect(h))})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m.SampleNow(ctx)
	}
}

// BenchmarkSampleNoTemps is the same sample without temperatures, for
// comparison.
func BenchmarkSampleNoTemps(b *testing.B) {
	files := map[string]string{
		"proc/stat":    "cpu  100 0 100 1000 0 10 10 0 0 0\ncpu0 100 0 100 1000 0 10 10 0 0 0\n",
		"proc/loadavg": "0.10 0.20 0.30 1/100 1234\n",
		"proc/meminfo": "MemTotal: 1000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n",
	}
	m := New(fixture.Host(b, files), Config{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m.SampleNow(ctx)
	}
}
