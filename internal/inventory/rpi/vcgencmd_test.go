package rpi

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
)

func TestDecodeThrottled(t *testing.T) {
	cases := []struct {
		in   uint32
		want []string
	}{
		{0x50005, []string{"under-voltage detected", "currently throttled", "under-voltage has occurred", "throttling has occurred"}},
		{0x50000, []string{"under-voltage has occurred", "throttling has occurred"}},
		{0x0, []string{}},
		{0x80008, []string{"soft temperature limit active", "soft temperature limit has occurred"}},
		{0x20002, []string{"arm frequency capped", "arm frequency capping has occurred"}},
		{0x100, []string{"bit 8 set (undocumented)"}},
	}
	for _, c := range cases {
		if got := DecodeThrottled(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("DecodeThrottled(%#x) = %q, want %q", c.in, got, c.want)
		}
	}
	th := NewThrottled(0x50005)
	if !th.UnderVoltageNow || !th.UnderVoltageOccurred || !th.ThrottledNow || !th.ThrottledOccurred || th.Hex != "0x50005" {
		t.Errorf("NewThrottled(0x50005) = %+v", th)
	}
	if th := NewThrottled(0x50000); th.UnderVoltageNow || th.ThrottledNow || !th.ThrottledOccurred {
		t.Errorf("NewThrottled(0x50000) = %+v", th)
	}
}

func TestParseThrottled(t *testing.T) {
	cases := []struct {
		in      string
		want    uint32
		wantErr bool
	}{
		{"throttled=0x50005\n", 0x50005, false},
		{"throttled=0x0\n", 0, false},
		{"throttled=0x80008", 0x80008, false},
		{"throttled=0", 0, false},
		{"error=2 error_msg=\"Invalid arguments\"\n", 0, true},
		{"throttled=0x", 0, true},
		{"throttled=0x1ffffffff", 0, true},
		{"", 0, true},
		{"VCHI initialization failed", 0, true},
	}
	for _, c := range cases {
		got, err := ParseThrottled(c.in)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("ParseThrottled(%q) = %#x, %v; want %#x, err %v", c.in, got, err, c.want, c.wantErr)
		}
	}
}

func TestParseClock(t *testing.T) {
	cases := []struct {
		in      string
		want    float64
		wantErr bool
	}{
		{"frequency(48)=1500398464\n", 1500.398464, false},
		{"frequency(0)=2400000000\n", 2400, false},
		{"frequency(45)=600000000", 600, false},
		{"frequency(48)=0\n", 0, true},
		{"frequency(48)=-5", 0, true},
		{"frequency(48)", 0, true},
		{"volt=1.2V", 0, true},
		{"", 0, true},
	}
	for _, c := range cases {
		got, err := ParseClock(c.in)
		if (err != nil) != c.wantErr || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("ParseClock(%q) = %v, %v; want %v, err %v", c.in, got, err, c.want, c.wantErr)
		}
	}
}

func TestParseVoltsTemp(t *testing.T) {
	if v, err := ParseVolts("volt=0.8600V\n"); err != nil || v != 0.86 {
		t.Errorf("ParseVolts = %v, %v", v, err)
	}
	if v, err := ParseTemp("temp=45.2'C\n"); err != nil || v != 45.2 {
		t.Errorf("ParseTemp = %v, %v", v, err)
	}
	for _, s := range []string{"", "volt=", "volt=abcV", "temp=45.2'C"} {
		if _, err := ParseVolts(s); err == nil {
			t.Errorf("ParseVolts(%q): want error", s)
		}
	}
	for _, s := range []string{"", "temp=", "temp=hot'C", "temp=9999'C", "volt=1.2V"} {
		if _, err := ParseTemp(s); err == nil {
			t.Errorf("ParseTemp(%q): want error", s)
		}
	}
}

func TestParseConfig(t *testing.T) {
	out := "arm_64bit=1\narm_freq=2400\narm_freq_min=1500\ninit_uart_clock=0x2dc6c00\n" +
		"display_hdmi_rotate=-1\nhdmi_force_cec_address:0=65535\nover_voltage_avs=0x170c0\ngarbage line\nx=y\n"
	cfg, skipped := ParseConfig(out)
	want := map[string]int64{
		"arm_64bit": 1, "arm_freq": 2400, "arm_freq_min": 1500, "init_uart_clock": 48000000,
		"display_hdmi_rotate": -1, "hdmi_force_cec_address:0": 65535, "over_voltage_avs": 0x170c0,
	}
	if !reflect.DeepEqual(cfg, want) || skipped != 2 {
		t.Errorf("ParseConfig = %v (skipped %d), want %v (skipped 2)", cfg, skipped, want)
	}
	hl := Highlights(cfg)
	var keys []string
	for _, s := range hl {
		keys = append(keys, s.Key)
	}
	if !reflect.DeepEqual(keys, []string{"arm_64bit", "arm_freq", "arm_freq_min"}) {
		t.Errorf("Highlights keys = %v", keys)
	}
}

func TestParseVersion(t *testing.T) {
	cases := []struct {
		in      string
		want    FirmwareVersion
		wantErr bool
	}{
		{"Mar 17 2023 10:53:00 \nCopyright (c) 2012 Broadcom\nversion 82f3750a65fadae9a38077e3c2e217ad158c8d54 (clean) (release) (start)\n",
			FirmwareVersion{"Mar 17 2023 10:53:00", "82f3750a65fadae9a38077e3c2e217ad158c8d54", []string{"clean", "release", "start"}}, false},
		{"2024/03/14 15:23:42 \nCopyright (c) 2012 Broadcom\nversion 4d574a2e (release) (embedded)\n",
			FirmwareVersion{"2024/03/14 15:23:42", "4d574a2e", []string{"release", "embedded"}}, false},
		{"", FirmwareVersion{}, true},
		{"error=1 error_msg=\"Command not registered\"", FirmwareVersion{}, true},
	}
	for _, c := range cases {
		got, err := ParseVersion(c.in)
		if (err != nil) != c.wantErr {
			t.Errorf("ParseVersion(%q) err = %v", c.in, err)
			continue
		}
		if !c.wantErr && !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseVersion(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestCollect(t *testing.T) {
	if fw := Collect(fixture.Replay(t, nil)); fw != nil {
		t.Errorf("no vcgencmd: got %+v, want nil", fw)
	}

	h := fixture.Replay(t, map[string]string{
		host.CommandKey("vcgencmd", "measure_clock", "arm"):  "frequency(48)=1800457088\n",
		host.CommandKey("vcgencmd", "get_throttled"):         "throttled=0x50005\n",
		host.CommandKey("vcgencmd", "measure_volts", "core"): "volt=0.8500V\n",
		host.CommandKey("vcgencmd", "measure_temp"):          "temp=not-a-number'C\n",
		host.CommandKey("vcgencmd", "get_config", "int"):     "arm_freq=1800\nover_voltage=6\narm_boost=1\n",
		// version not recorded: the command "fails".
	})
	fw := Collect(h)
	if fw == nil {
		t.Fatal("Collect = nil with vcgencmd recorded")
	}
	if fw.ArmClockMHz == nil || math.Abs(*fw.ArmClockMHz-1800.457088) > 1e-9 {
		t.Errorf("ArmClockMHz = %v", fw.ArmClockMHz)
	}
	if fw.Throttled == nil || fw.Throttled.Raw != 0x50005 || len(fw.Throttled.Flags) != 4 {
		t.Errorf("Throttled = %+v", fw.Throttled)
	}
	if fw.CoreVoltageV == nil || *fw.CoreVoltageV != 0.85 {
		t.Errorf("CoreVoltageV = %v", fw.CoreVoltageV)
	}
	if fw.TempC != nil {
		t.Errorf("TempC = %v, want nil for malformed output", *fw.TempC)
	}
	if fw.Config["over_voltage"] != 6 || len(fw.ConfigHighlights) != 3 {
		t.Errorf("Config = %v, highlights %v", fw.Config, fw.ConfigHighlights)
	}
	if fw.Version != nil {
		t.Errorf("Version = %+v, want nil", fw.Version)
	}
	var items []string
	for _, n := range fw.Notes {
		items = append(items, n.Item)
	}
	got := strings.Join(items, "|")
	if got != "vcgencmd measure_temp|vcgencmd version" {
		t.Errorf("notes = %q", got)
	}
}

func FuzzParseVcgencmd(f *testing.F) {
	for _, s := range []string{
		"throttled=0x50005\n", "frequency(48)=1500398464\n", "volt=0.8600V", "temp=45.2'C",
		"arm_freq=1800\ninit_uart_clock=0x2dc6c00\n", "version 4d574a2e (release) (embedded)",
		"error=2 error_msg=\"Invalid arguments\"", "=\n=0x\n-0x", "(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseThrottled(s); err == nil {
			_ = NewThrottled(v)
		}
		if v, err := ParseClock(s); err == nil && v <= 0 {
			t.Errorf("ParseClock(%q) = %v without error", s, v)
		}
		_, _ = ParseVolts(s)
		_, _ = ParseTemp(s)
		cfg, _ := ParseConfig(s)
		_ = Highlights(cfg)
		_, _ = ParseVersion(s)
	})
}
