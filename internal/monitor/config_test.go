package monitor

import (
	"context"
	"reflect"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/testutil/fixture"
)

func ip(v int) *int { return &v }

func fp(v float64) *float64 { return &v }

func TestPoliciesFor(t *testing.T) {
	cases := []struct {
		name string
		in   cpu.Info
		want []Policy
	}{
		{
			name: "big.LITTLE with shared policies",
			in: cpu.Info{Clusters: []cpu.Cluster{
				{CPUs: []int{4, 5}, Policy: ip(4), Policies: []int{4}},
				{CPUs: []int{0, 1, 2, 3}, Policy: ip(0), Policies: []int{0}},
				{CPUs: []int{6, 7}, Policy: ip(6), Policies: []int{6}},
			}},
			want: []Policy{
				{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}},
				{Label: "cpu4-5", ID: 4, CPUs: []int{4, 5}},
				{Label: "cpu6-7", ID: 6, CPUs: []int{6, 7}},
			},
		},
		{
			name: "per-CPU policies give the representative's",
			in: cpu.Info{
				Clusters: []cpu.Cluster{
					{CPUs: []int{0, 1, 2, 3}, Policies: []int{0, 1, 2, 3}},
					{CPUs: []int{4, 5, 6, 7}, Policies: []int{4, 5, 6, 7}},
				},
				Policies: []cpu.Policy{{ID: 0, CPUs: []int{0}}, {ID: 4, CPUs: []int{4}}},
			},
			want: []Policy{
				{Label: "cpu0", ID: 0, CPUs: []int{0}},
				{Label: "cpu4", ID: 4, CPUs: []int{4}},
			},
		},
		{
			name: "two core types in one policy share a column",
			in: cpu.Info{Clusters: []cpu.Cluster{
				{CPUs: []int{0, 1}, Policy: ip(0), Policies: []int{0}},
				{CPUs: []int{2, 3}, Policy: ip(0), Policies: []int{0}},
			}},
			want: []Policy{{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}}},
		},
		{
			name: "no cpufreq",
			in:   cpu.Info{Clusters: []cpu.Cluster{{CPUs: []int{0, 1}}}},
			want: nil,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := policiesFor(c.in); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestPowerSensors(t *testing.T) {
	ch := func(name, q string) sensors.Channel {
		return sensors.Channel{Source: sensors.Source{Kind: sensors.KindHwmon, Name: name, Path: "/sys/class/hwmon/hwmon0/" + name}, Quantity: q}
	}
	got := powerSensors([]sensors.Channel{
		ch("ina226 in0", sensors.QuantityVoltage),
		ch("ina226 energy1", sensors.QuantityEnergy),
		ch("ina226 curr1", sensors.QuantityCurrent),
		ch("ina226 in1", sensors.QuantityVoltage),
		ch("ina226 power1", sensors.QuantityPower),
		ch("ina226 in2", sensors.QuantityVoltage),
	})
	var labels, units []string
	for _, s := range got {
		labels = append(labels, s.Label)
		units = append(units, s.Unit)
	}
	if want := []string{"power1", "curr1", "in0", "in1"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels = %v, want %v (power first, energy dropped, at most %d)", labels, want, MaxPowerColumns)
	}
	if want := []string{"W", "A", "V", "V"}; !reflect.DeepEqual(units, want) {
		t.Errorf("units = %v, want %v", units, want)
	}
	// Labels that would collide once shortened keep their chip names.
	got = powerSensors([]sensors.Channel{ch("ina226 in0", sensors.QuantityVoltage), ch("ina3221 in0", sensors.QuantityVoltage)})
	if got[0].Label != "ina226 in0" || got[1].Label != "ina3221 in0" {
		t.Errorf("colliding labels shortened: %+v", got)
	}
}

// vcgencmdFiles are recorded vcgencmd answers of a Raspberry Pi 4 that
// throttled after an under-voltage.
func vcgencmdFiles() map[string]string {
	dir := host.CommandsDir + "/"
	return map[string]string{
		dir + host.CommandKey("vcgencmd", "measure_clock", "arm"):  "frequency(48)=1500398464\n",
		dir + host.CommandKey("vcgencmd", "get_throttled"):         "throttled=0x50005\n",
		dir + host.CommandKey("vcgencmd", "measure_volts", "core"): "volt=0.8600V\n",
	}
}

func TestConfigFor(t *testing.T) {
	in := &inventory.Info{
		CPU: cpu.Info{Clusters: []cpu.Cluster{{CPUs: []int{0, 1, 2, 3}, Policy: ip(0), Policies: []int{0}}}},
		Sensors: sensors.Info{
			SoCTemp: &sensors.SoCTemp{Source: sensors.Source{Kind: sensors.KindThermalZone, Name: "cpu-thermal", Path: "/sys/class/thermal/thermal_zone0/temp"}},
			Hwmon: []sensors.Hwmon{{Hwmon: "hwmon1", Name: "rp1_adc", Readings: []sensors.Reading{
				{Sensor: "in1", Quantity: sensors.QuantityVoltage, Value: fp(1.2), Unit: "V", Path: "/sys/class/hwmon/hwmon1/in1_input"},
				{Sensor: "in2", Quantity: sensors.QuantityVoltage, Unit: "V", Path: "/sys/class/hwmon/hwmon1/in2_input", Invalid: "EIO"},
			}}},
		},
		RaspberryPi: &rpi.Firmware{ArmClockMHz: fp(1500)},
	}
	h := fixture.Host(t, vcgencmdFiles())
	cfg := ConfigFor(h, in)
	if len(cfg.Policies) != 1 || cfg.Policies[0].Label != "cpu0-3" {
		t.Errorf("policies = %+v", cfg.Policies)
	}
	if cfg.TempPath != "/sys/class/thermal/thermal_zone0/temp" || cfg.TempLabel != "cpu-thermal" {
		t.Errorf("temperature = %q %q", cfg.TempPath, cfg.TempLabel)
	}
	if len(cfg.Power) != 1 || cfg.Power[0].Path != "/sys/class/hwmon/hwmon1/in1_input" || cfg.Power[0].Unit != "V" {
		t.Errorf("power = %+v (the invalid in2 must be left out)", cfg.Power)
	}
	if !cfg.ReadKernelLog || cfg.Interval != 0 {
		t.Errorf("ReadKernelLog = %v, Interval = %v", cfg.ReadKernelLog, cfg.Interval)
	}
	fw := cfg.Firmware
	if fw == nil {
		t.Fatal("no firmware although vcgencmd answers are recorded")
	}
	ctx := context.Background()
	if v, err := fw.ClockMHz(ctx); err != nil || v != 1500.398464 {
		t.Errorf("ClockMHz = %v, %v", v, err)
	}
	if v, err := fw.Throttled(ctx); err != nil || v != 0x50005 {
		t.Errorf("Throttled = %#x, %v", v, err)
	}
	if v, err := fw.CoreVolts(ctx); err != nil || v != 0.86 {
		t.Errorf("CoreVolts = %v, %v", v, err)
	}

	// The firmware answered nothing while describing the machine: not asked.
	in.RaspberryPi = &rpi.Firmware{}
	if cfg := ConfigFor(h, in); cfg.Firmware != nil {
		t.Error("firmware asked although it answered nothing")
	}
	// No vcgencmd: no firmware, and a nil interface (not a typed nil).
	in.RaspberryPi = nil
	if cfg := ConfigFor(fixture.Host(t, nil), in); cfg.Firmware != nil {
		t.Errorf("firmware = %#v without vcgencmd", cfg.Firmware)
	}
	// Nothing known: nothing sampled but the basics.
	if cfg := ConfigFor(h, &inventory.Info{}); len(cfg.Policies) != 0 || cfg.TempPath != "" || len(cfg.Power) != 0 {
		t.Errorf("empty inventory gave %+v", cfg)
	}
}

func TestVcgencmdFirmwareErrors(t *testing.T) {
	dir := host.CommandsDir + "/"
	h := fixture.Host(t, map[string]string{
		dir + host.CommandKey("vcgencmd", "measure_clock", "arm"): "frequency(48)=0\n",
		dir + host.CommandKey("vcgencmd", "get_throttled"):        "error=2 error_msg=\"Invalid arguments\"\n",
	})
	fw := NewVcgencmdFirmware(h)
	if fw == nil {
		t.Fatal("vcgencmd recorded but no firmware")
	}
	ctx := context.Background()
	if _, err := fw.ClockMHz(ctx); err == nil {
		t.Error("0 Hz must be an error, not a clock")
	}
	if _, err := fw.Throttled(ctx); err == nil {
		t.Error("firmware error reply must be an error")
	}
	if _, err := fw.CoreVolts(ctx); err == nil {
		t.Error("missing recording must be an error")
	}
	// The monitor turns the errors into missing values.
	cfg := Config{Firmware: fw}
	s := New(h, cfg).SampleNow(ctx)
	if s.FirmwareMHz != nil || s.CoreVolts != nil {
		t.Errorf("sample = %+v, want no firmware values", s)
	}
}
