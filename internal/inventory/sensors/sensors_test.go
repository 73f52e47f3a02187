package sensors

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
)

func TestSoCTempChoice(t *testing.T) {
	cases := []struct {
		name       string
		files      map[string]string
		wantKind   string
		wantName   string
		wantPath   string
		wantC      float64
		wantReason []string
	}{
		{"raspberry pi 4", fixturePi4, KindThermalZone, "cpu-thermal", "/sys/class/thermal/thermal_zone0/temp", 45.277,
			[]string{"thermal_zone0 (cpu-thermal) measures the CPU"}},
		{"raspberry pi 5", fixturePi5, KindThermalZone, "cpu-thermal", "/sys/class/thermal/thermal_zone0/temp", 52.35, nil},
		{"rk3588 prefers the SoC zone over core zones", fixtureRK3588, KindThermalZone, "soc-thermal", "/sys/class/thermal/thermal_zone0/temp", 38.846,
			[]string{"measures the SoC"}},
		{"amlogic scpi hwmon only", fixtureAmlogicSCPI, KindHwmon, "scpi_sensors aml_thermal", "/sys/class/hwmon/hwmon0/temp1_input", 51,
			[]string{"hwmon sensor hwmon0 scpi_sensors aml_thermal measures the SoC"}},
		{"amlogic old kernel attributes in device/", fixtureAmlogicOld, KindHwmon, "cpu temp1", "/sys/class/hwmon/hwmon0/device/temp1_input", 56, nil},
		{"x86 package zone", fixtureX86, KindThermalZone, "x86_pkg_temp", "/sys/class/thermal/thermal_zone2/temp", 48,
			[]string{"the CPU package"}},
		{"x86 without package zone uses coretemp package", fixtureX86NoPkgZone, KindHwmon, "coretemp Package id 0", "/sys/class/hwmon/hwmon2/temp1_input", 48,
			[]string{"the CPU package"}},
		{"400 °C zone rejected", fixtureBroken, KindThermalZone, "gpu-thermal", "/sys/class/thermal/thermal_zone1/temp", 47.5,
			[]string{"first valid thermal zone", "thermal_zone0 (cpu-thermal): implausible temperature 400.0 °C", "sentinel value 65535"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := Collect(fixture.Host(t, c.files))
			got := in.SoCTemp
			if got == nil {
				t.Fatalf("soc_temp = nil, notes %v", in.Notes)
			}
			if got.Kind != c.wantKind || got.Name != c.wantName || got.Path != c.wantPath || math.Abs(got.Celsius-c.wantC) > 1e-9 {
				t.Errorf("soc_temp = %+v, want %s %q %s %.3f", *got, c.wantKind, c.wantName, c.wantPath, c.wantC)
			}
			for _, r := range c.wantReason {
				if !strings.Contains(got.Reason, r) {
					t.Errorf("reason %q lacks %q", got.Reason, r)
				}
			}
			// The chosen path must be readable again, as the monitor will.
			v, err := ReadCelsius(fixture.Host(t, c.files), got.Path)
			if err != nil || math.Abs(v-c.wantC) > 1e-9 {
				t.Errorf("ReadCelsius(%s) = %v, %v; want %.3f", got.Path, v, err, c.wantC)
			}
		})
	}
}

func TestNoSensors(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"nothing exposed", map[string]string{"/sys/": ""}, "no thermal sensor exposed"},
		{"only nvme and wifi", fixture.Merge(map[string]string{"/sys/class/thermal/": ""}, hwmon(0, "nvme", "", map[string]string{"temp1_input": "35000"})), "no thermal sensor exposed"},
		{"all invalid", fixture.Merge(zone(0, "cpu-thermal", "400000"), zone(1, "soc", "DIR")), "thermal_zone0 (cpu-thermal): implausible temperature 400.0 °C"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := Collect(fixture.Host(t, c.files))
			if in.SoCTemp != nil {
				t.Fatalf("soc_temp = %+v, want nil", in.SoCTemp)
			}
			found := false
			for _, n := range in.Notes {
				if n.Item == "soc_temp" && strings.Contains(n.Reason, c.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("notes %+v lack soc_temp %q", in.Notes, c.want)
			}
			js, err := json.Marshal(in)
			if err != nil || !strings.Contains(string(js), `"soc_temp":null`) {
				t.Errorf("json %s, %v: want soc_temp null", js, err)
			}
		})
	}
}

func TestThermalZonesAndTrips(t *testing.T) {
	in := Collect(fixture.Host(t, fixtureRK3588))
	if len(in.ThermalZones) != 7 {
		t.Fatalf("zones = %d, want 7", len(in.ThermalZones))
	}
	soc := in.ThermalZones[0]
	want := []TripPoint{
		{Index: 0, Type: "passive", TempC: f(75), HystC: f(2)},
		{Index: 1, Type: "passive", TempC: f(85), HystC: f(2)},
		{Index: 2, Type: "critical", TempC: f(115), HystC: f(0)},
	}
	if soc.Type != "soc-thermal" || soc.Mode != "enabled" || soc.Policy != "step_wise" || !reflect.DeepEqual(soc.TripPoints, want) {
		t.Errorf("soc zone = %+v", soc)
	}
	if in.ThermalZones[6].Type != "npu-thermal" || len(in.ThermalZones[6].TripPoints) != 1 {
		t.Errorf("zone 6 = %+v", in.ThermalZones[6])
	}
	if len(in.CoolingDevices) != 3 || in.CoolingDevices[2].Type != "pwm-fan" || *in.CoolingDevices[2].MaxState != 5 {
		t.Errorf("cooling = %+v", in.CoolingDevices)
	}
	if len(in.Hwmon) != 8 || in.Hwmon[7].Name != "tcpm_source_psy_4_0022" {
		t.Fatalf("hwmon = %+v", in.Hwmon)
	}

	x := Collect(fixture.Host(t, fixtureX86))
	int3400 := x.ThermalZones[1]
	if int3400.TempC != nil || !strings.HasPrefix(int3400.Invalid, "read failed") {
		t.Errorf("INT3400 zone = %+v, want invalid read", int3400)
	}
	pkg := x.ThermalZones[2]
	if len(pkg.TripPoints) != 2 || pkg.TripPoints[0].TempC == nil || *pkg.TripPoints[0].TempC != 0 {
		t.Errorf("x86_pkg_temp trips = %+v", pkg.TripPoints)
	}
}

func TestZoneOrderIsNumeric(t *testing.T) {
	m := fixture.Merge(zone(10, "ten", "40000"), zone(2, "two", "41000"), zone(1, "one", "42000"))
	in := Collect(fixture.Host(t, m))
	var got []string
	for _, z := range in.ThermalZones {
		got = append(got, z.Name)
	}
	if want := []string{"thermal_zone1", "thermal_zone2", "thermal_zone10"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestHwmonReadings(t *testing.T) {
	in := Collect(fixture.Host(t, fixturePi4))
	if len(in.Hwmon) != 2 {
		t.Fatalf("hwmon = %+v", in.Hwmon)
	}
	if in.Hwmon[0].Device != "/sys/devices/virtual/thermal/thermal_zone0" {
		t.Errorf("hwmon0 device = %q", in.Hwmon[0].Device)
	}
	volt := in.Hwmon[1]
	wantVolt := []Reading{{Sensor: "in0", Quantity: QuantityVoltage, Unit: "V",
		Alarms: map[string]bool{"lcrit": false}, Note: "exposes alarms only, no value"}}
	if volt.Name != "rpi_volt" || !reflect.DeepEqual(volt.Readings, wantVolt) {
		t.Errorf("rpi_volt = %+v", volt)
	}

	x := Collect(fixture.Host(t, fixtureX86))
	core := x.Hwmon[2]
	if core.Name != "coretemp" || len(core.Readings) != 3 {
		t.Fatalf("coretemp = %+v", core)
	}
	pkg := core.Readings[0]
	if pkg.Label != "Package id 0" || *pkg.Value != 48 || pkg.Unit != "°C" || *pkg.Max != 105 || *pkg.Crit != 105 ||
		!reflect.DeepEqual(pkg.Alarms, map[string]bool{"crit": false}) {
		t.Errorf("package reading = %+v", pkg)
	}
	wifi := x.Hwmon[3].Readings[0]
	if wifi.Value != nil || !strings.HasPrefix(wifi.Invalid, "read failed") {
		t.Errorf("iwlwifi reading = %+v, want a read failure", wifi)
	}
	nvme := x.Hwmon[1].Readings[0]
	if nvme.Alarms["alarm"] != false || len(nvme.Alarms) != 1 || *nvme.Crit != 84.85 {
		t.Errorf("nvme reading = %+v", nvme)
	}

	old := Collect(fixture.Host(t, fixtureAmlogicOld))
	r := old.Hwmon[0].Readings[0]
	if r.Note == "" || *r.Value != 56 || *r.Crit != 110 {
		t.Errorf("old-kernel reading = %+v", r)
	}
}

func TestPowerChannels(t *testing.T) {
	in := Collect(fixture.Host(t, fixturePowerMonitors))
	var got []string
	for _, c := range PowerChannels(in) {
		got = append(got, c.Name+"|"+c.Quantity+"|"+c.Unit+"|"+c.Path)
	}
	want := []string{
		"ina226 in0|voltage|V|/sys/class/hwmon/hwmon0/in0_input",
		"ina226 in1|voltage|V|/sys/class/hwmon/hwmon0/in1_input",
		"ina226 curr1|current|A|/sys/class/hwmon/hwmon0/curr1_input",
		"ina226 power1|power|W|/sys/class/hwmon/hwmon0/power1_input",
		"ina219 in0|voltage|V|/sys/class/hwmon/hwmon1/in0_input",
		"ina219 VIN|voltage|V|/sys/class/hwmon/hwmon1/in1_input",
		"amdgpu vddgfx|voltage|V|/sys/class/hwmon/hwmon2/in0_input",
		"amdgpu power1|power|W|/sys/class/hwmon/hwmon2/power1_average",
		"amdgpu energy1|energy|J|/sys/class/hwmon/hwmon2/energy1_input",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("channels:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ina := in.Hwmon[0].Readings
	wantVals := map[string]float64{"in0": 0.002, "in1": 5.088, "curr1": 0.812, "power1": 4.13125}
	for _, r := range ina {
		if w, ok := wantVals[r.Sensor]; !ok || r.Value == nil || math.Abs(*r.Value-w) > 1e-9 {
			t.Errorf("ina226 %s = %v, want %v", r.Sensor, r.Value, w)
		}
	}
	bad := in.Hwmon[1].Readings
	for _, r := range bad {
		if (r.Sensor == "curr1" || r.Sensor == "power1") && (r.Value != nil || r.Invalid == "") {
			t.Errorf("ina219 %s = %+v, want invalid", r.Sensor, r)
		}
	}
	h := fixture.Host(t, fixturePowerMonitors)
	if v, err := ReadValue(h, QuantityPower, "/sys/class/hwmon/hwmon2/power1_average"); err != nil || v != 15 {
		t.Errorf("ReadValue power = %v, %v; want 15 W", v, err)
	}

	for _, fx := range []map[string]string{fixtureX86, fixturePi4} {
		if ch := PowerChannels(Collect(fixture.Host(t, fx))); len(ch) != 0 {
			t.Errorf("channels on a board without power sensors = %+v", ch)
		}
	}
	pi5 := PowerChannels(Collect(fixture.Host(t, fixturePi5)))
	if len(pi5) != 4 || pi5[0].Name != "rp1_adc in1" {
		t.Errorf("pi5 channels = %+v", pi5)
	}
}

func TestRawScale(t *testing.T) {
	want := map[string]float64{QuantityTemperature: 1e-3, QuantityVoltage: 1e-3, QuantityCurrent: 1e-3,
		QuantityPower: 1e-6, QuantityEnergy: 1e-6, QuantityFan: 1, "humidity": 0}
	for q, w := range want {
		if got := RawScale(q); math.Abs(got-w) > w*1e-12 {
			t.Errorf("RawScale(%s) = %g, want %g", q, got, w)
		}
	}
}

func TestParseValue(t *testing.T) {
	cases := []struct {
		quantity, in string
		want         float64
		wantNote     bool
		wantErr      string
	}{
		{QuantityTemperature, "45277\n", 45.277, false, ""},
		{QuantityTemperature, "-5000", -5, false, ""},
		{QuantityTemperature, "56", 56, true, ""},
		{QuantityTemperature, "400000", 0, false, "implausible temperature 400.0 °C"},
		{QuantityTemperature, "-273150", 0, false, "implausible"},
		{QuantityTemperature, "65535", 0, false, "sentinel"},
		{QuantityTemperature, "0", 0, false, "exactly 0"},
		{QuantityTemperature, "", 0, false, "malformed"},
		{QuantityTemperature, "45.5", 0, false, "malformed"},
		{QuantityVoltage, "5088", 5.088, false, ""},
		{QuantityVoltage, "4294967295", 0, false, "sentinel"},
		{QuantityCurrent, "-812", -0.812, false, ""},
		{QuantityPower, "4131250", 4.13125, false, ""},
		{QuantityEnergy, "4294967295", 4294.967295, false, ""},
		{QuantityEnergy, "-1", 0, false, "implausible"},
		{QuantityFan, "2912", 2912, false, ""},
		{QuantityFan, "65535", 0, false, "sentinel"},
		{"humidity", "1", 0, false, "unknown quantity"},
	}
	for _, c := range cases {
		v, n, err := ParseValue(c.quantity, c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ParseValue(%s, %q) err = %v, want %q", c.quantity, c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || math.Abs(v-c.want) > 1e-9 || (n != "") != c.wantNote {
			t.Errorf("ParseValue(%s, %q) = %v, %q, %v; want %v", c.quantity, c.in, v, n, err, c.want)
		}
	}
}

func TestSoCScore(t *testing.T) {
	ordered := []string{"x86_pkg_temp", "soc-thermal", "cpu_thermal", "bigcore0-thermal", "littlecore-thermal"}
	prev := 1000
	for _, n := range ordered {
		s, what := socScore(n)
		if s >= prev || s <= 0 || what == "" {
			t.Errorf("socScore(%q) = %d %q, want below %d and positive", n, s, what, prev)
		}
		prev = s
	}
	for _, n := range []string{"gpu-thermal", "acpitz", "center-thermal", ""} {
		if s, _ := socScore(n); s != 0 {
			t.Errorf("socScore(%q) = %d, want 0", n, s)
		}
	}
	for _, n := range []string{"iwlwifi_1", "nvme", "battery", "pch_skylake"} {
		if s, _ := socScore(n); s != -1 {
			t.Errorf("socScore(%q) = %d, want -1", n, s)
		}
	}
}

func TestReadFailureNamesErrno(t *testing.T) {
	h := fixture.Host(t, map[string]string{"/sys/class/hwmon/hwmon0/temp1_input/": ""})
	_, err := ReadCelsius(h, "/sys/class/hwmon/hwmon0/temp1_input")
	if err == nil || !strings.Contains(err.Error(), "read failed") {
		t.Errorf("err = %v, want read failed", err)
	}
	_, err = ReadCelsius(h, "/sys/class/hwmon/hwmon0/temp2_input")
	if err == nil || !strings.Contains(err.Error(), "ENOENT") {
		t.Errorf("err = %v, want ENOENT named", err)
	}
}

func TestCollectLive(t *testing.T) {
	if _, err := os.Stat("/sys/class"); err != nil {
		t.Skip("no /sys/class: not a Linux machine")
	}
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	in := Collect(h)
	if in.SoCTemp == nil && len(in.Notes) == 0 {
		t.Errorf("live: no soc_temp and no note saying why")
	}
	if in.SoCTemp != nil {
		if _, err := ReadCelsius(h, in.SoCTemp.Path); err != nil {
			t.Errorf("live ReadCelsius(%s): %v", in.SoCTemp.Path, err)
		}
	}
}

func f(v float64) *float64 { return &v }

func TestGarbageNeverPanics(t *testing.T) {
	junk := "\x00\xff\xfe garbage \n\n-"
	files := fixture.Merge(
		zone(0, junk, junk, trip{junk, junk, junk}),
		zone(1, "cpu-thermal", "999999999999999999999999"),
		map[string]string{
			"/sys/class/thermal/thermal_zone1/trip_point_x_type":  "critical",
			"/sys/class/thermal/thermal_zone1/trip_point_01_type": "critical",
			"/sys/class/thermal/thermal_zone01/temp":              "45000",
			"/sys/class/thermal/cooling_device0/cur_state":        junk,
			"/sys/class/hwmon/hwmon0/temp99999_input":             "45000",
			"/sys/class/hwmon/hwmon0/in-1_input":                  "5000",
			"/sys/class/hwmon/hwmon0/temp1_input":                 junk,
			"/sys/class/hwmon/hwmon0/temp1_label":                 junk,
			"/sys/class/hwmon/hwmon0/temp1_max":                   junk,
			"/sys/class/hwmon/hwmon0/in0_alarm":                   junk,
			"/sys/class/hwmon/hwmon1/device":                      "->/sys/class/hwmon/hwmon1",
		},
	)
	in := Collect(fixture.Host(t, files))
	if len(in.ThermalZones) != 2 {
		t.Errorf("zones = %+v, want the two well-named ones", in.ThermalZones)
	}
	for _, z := range in.ThermalZones {
		if z.TempC != nil || z.Invalid == "" {
			t.Errorf("zone %s = %+v, want invalid", z.Name, z)
		}
	}
	if len(in.ThermalZones[1].TripPoints) != 0 {
		t.Errorf("oddly named trip points kept: %+v", in.ThermalZones[1].TripPoints)
	}
	if len(in.Hwmon) < 1 || len(in.Hwmon[0].Readings) != 2 {
		t.Fatalf("hwmon = %+v", in.Hwmon)
	}
	for _, r := range in.Hwmon[0].Readings {
		if r.Value != nil || r.Max != nil || r.Alarms != nil {
			t.Errorf("garbage reading believed: %+v", r)
		}
	}
	if in.SoCTemp != nil {
		t.Errorf("soc_temp from garbage: %+v", in.SoCTemp)
	}
}
