package power

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fakemailbox"
)

// fixtureRoot writes files (path → content) under a new root.
func fixtureRoot(t *testing.T, files map[string]string) *host.Host {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := host.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The INA219 and INA226 hwmon drivers: in0 shunt voltage and in1 bus
// voltage in mV, curr1 in mA, power1 in µW. An INA3221 has no power file:
// curr N times in N.
func TestHwmonSources(t *testing.T) {
	tests := []struct {
		name, spec string
		files      map[string]string
		wantW      float64
		auto       bool
		measures   string
	}{
		{name: "ina219", spec: "", auto: true, measures: MeasuresBoard, wantW: 2.5, files: map[string]string{
			"sys/class/hwmon/hwmon0/name": "cpu_thermal\n", "sys/class/hwmon/hwmon0/temp1_input": "45000\n",
			"sys/class/hwmon/hwmon1/name": "ina219\n", "sys/class/hwmon/hwmon1/in0_input": "12\n",
			"sys/class/hwmon/hwmon1/in1_input": "5000\n", "sys/class/hwmon/hwmon1/curr1_input": "500\n",
			"sys/class/hwmon/hwmon1/power1_input": "2500000\n"}},
		{name: "ina226 by name", spec: "hwmon:ina226", measures: MeasuresBoard, wantW: 4.2, files: map[string]string{
			"sys/class/hwmon/hwmon2/name": "ina226\n", "sys/class/hwmon/hwmon2/in1_input": "5100\n",
			"sys/class/hwmon/hwmon2/curr1_input": "823\n", "sys/class/hwmon/hwmon2/power1_input": "4200000\n"}},
		{name: "ina3221 pair", spec: "hwmon:VDD_IN", measures: MeasuresBoard, wantW: 5.0 * 1.2, files: map[string]string{
			"sys/class/hwmon/hwmon0/name": "ina3221\n", "sys/class/hwmon/hwmon0/in1_input": "5000\n",
			"sys/class/hwmon/hwmon0/in1_label": "VDD_IN\n", "sys/class/hwmon/hwmon0/curr1_input": "1200\n",
			"sys/class/hwmon/hwmon0/curr1_label": "VDD_IN\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := fixtureRoot(t, tc.files)
			sp, err := ParseSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			src, err := Open(context.Background(), h, nil, sp)
			if err != nil || src == nil {
				t.Fatalf("Open: %v, %v", src, err)
			}
			inf := src.Info()
			if inf.Measures != tc.measures || (tc.auto != (inf.Reason != "")) {
				t.Errorf("info %+v", inf)
			}
			r, err := src.(*polled).p.Read(context.Background())
			if err != nil || r.W == nil || math.Abs(*r.W-tc.wantW) > 1e-9 {
				t.Fatalf("read %v %v, want %v W", r.W, err, tc.wantW)
			}
		})
	}
}

func TestHwmonAutoNeedsBoardMonitor(t *testing.T) {
	h := fixtureRoot(t, map[string]string{"sys/class/hwmon/hwmon0/name": "rp1_adc\n", "sys/class/hwmon/hwmon0/in1_input": "1500\n"})
	src, err := Open(context.Background(), h, nil, Spec{})
	if err != nil || src != nil {
		t.Fatalf("auto on a board without a power monitor: %v, %v", src, err)
	}
	if _, err := Open(context.Background(), h, nil, Spec{Kind: KindHwmon, Arg: "ina226"}); err == nil {
		t.Fatal("hwmon:ina226 without one: no error")
	}
}

// pmicReadADC is the output format of `vcgencmd pmic_read_adc` on a
// Raspberry Pi 5.
const pmicReadADC = `   3V7_WL_SW_A current(0)=0.00390372A
   3V3_SYS_A current(1)=0.05172405A
   1V8_SYS_A current(2)=0.15906630A
  DDR_VDD2_A current(3)=0.02732500A
   1V1_SYS_A current(5)=0.19129050A
   0V8_SYS_A current(6)=0.34258890A
     VDD_CORE_A current(7)=2.45000000A
   3V7_WL_SW_V volt(8)=3.71462400V
   3V3_SYS_V volt(9)=3.30867000V
   1V8_SYS_V volt(10)=1.80000000V
  DDR_VDD2_V volt(11)=1.11025600V
   1V1_SYS_V volt(13)=1.10622600V
   0V8_SYS_V volt(14)=0.80146500V
     VDD_CORE_V volt(15)=0.85000000V
     EXT5V_V volt(24)=5.14289600V
      BATT_V volt(25)=0.00000000V
`

func TestPMIC(t *testing.T) {
	rails := ParsePMICADC(pmicReadADC)
	if len(rails) != 7 {
		t.Fatalf("%d rails, want 7 (EXT5V and BATT have no current): %+v", len(rails), rails)
	}
	want := 0.00390372*3.714624 + 0.05172405*3.30867 + 0.1590663*1.8 + 0.027325*1.110256 +
		0.1912905*1.106226 + 0.3425889*0.801465 + 2.45*0.85
	if got := PMICWatts(rails); math.Abs(got-want) > 1e-9 {
		t.Errorf("PMICWatts = %v, want %v", got, want)
	}
	h := fixtureRoot(t, map[string]string{".boardbench/commands/" + host.CommandKey("vcgencmd", "pmic_read_adc"): pmicReadADC})
	src, err := Open(context.Background(), h, nil, Spec{Kind: KindRPiPMIC})
	if err != nil {
		t.Fatal(err)
	}
	if src.Info().Measures != MeasuresSoC || !strings.Contains(strings.Join(src.Info().Notes, " "), "not the wall") ||
		!strings.HasSuffix(src.Info().Description, "read through vcgencmd") {
		t.Errorf("info %+v", src.Info())
	}
	r, err := src.(*polled).p.Read(context.Background())
	if err != nil || r.W == nil || math.Abs(*r.W-want) > 1e-9 {
		t.Errorf("read %v %v", r.W, err)
	}
	if got := ParsePMICADC("garbage\n  X_A current(1)=oopsA\n"); len(got) != 0 {
		t.Errorf("garbage gave rails %+v", got)
	}
	if _, err := Open(context.Background(), fixtureRoot(t, map[string]string{"x": ""}), nil, Spec{Kind: KindRPiPMIC}); err == nil {
		t.Error("no vcgencmd: no error")
	}
}

// TestPMICMailbox: where the firmware mailbox answers, the PMIC is read
// through it (no vcgencmd needed: none is recorded here), the device stays
// open while the meter reads and is closed when it stops; where it does
// not answer, through vcgencmd.
func TestPMICMailbox(t *testing.T) {
	want := PMICWatts(ParsePMICADC(pmicReadADC))
	fw := &fakemailbox.Firmware{Answers: map[string]string{"pmic_read_adc": strings.TrimSuffix(pmicReadADC, "\n")}}
	h := fixtureRoot(t, map[string]string{"x": ""})
	src, err := openPMICVia(context.Background(), h, fw.Open)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(src.Info().Description, "read through the firmware mailbox") {
		t.Errorf("description %q", src.Info().Description)
	}
	// The meter stops after its first reading.
	ctx, cancel := context.WithCancel(context.Background())
	var got []Reading
	src.Run(ctx, func(r Reading) {
		got = append(got, r)
		cancel()
	})
	if len(got) != 1 || got[0].W == nil || math.Abs(*got[0].W-want) > 1e-9 {
		t.Fatalf("readings %+v, want one of %v W", got, want)
	}
	// One open to choose the source, one for the meter's life.
	if opened, closed := fw.Counts(); opened != 2 || closed != 2 {
		t.Errorf("opened %d, closed %d; want 2 and 2", opened, closed)
	}
	// The mailbox answers no rails: vcgencmd is asked instead.
	empty := &fakemailbox.Firmware{Answers: map[string]string{"pmic_read_adc": "nothing"}}
	hv := fixtureRoot(t, map[string]string{".boardbench/commands/" + host.CommandKey("vcgencmd", "pmic_read_adc"): pmicReadADC})
	src, err = openPMICVia(context.Background(), hv, empty.Open)
	if err != nil || !strings.HasSuffix(src.Info().Description, "read through vcgencmd") {
		t.Errorf("fallback: %v, %+v", err, src)
	}
}

func TestUSBPD(t *testing.T) {
	h := fixtureRoot(t, map[string]string{
		"sys/class/power_supply/tcpm-source-psy-4-0022/type":        "USB\n",
		"sys/class/power_supply/tcpm-source-psy-4-0022/usb_type":    "C PD [PD_PPS]\n",
		"sys/class/power_supply/tcpm-source-psy-4-0022/online":      "1\n",
		"sys/class/power_supply/tcpm-source-psy-4-0022/voltage_now": "9000000\n",
		"sys/class/power_supply/tcpm-source-psy-4-0022/current_max": "3000000\n",
	})
	src, err := Open(context.Background(), h, nil, Spec{Kind: KindUSBPD})
	if err != nil {
		t.Fatal(err)
	}
	inf := src.Info()
	if inf.Measures != MeasuresLimit || inf.LimitW == nil || *inf.LimitW != 27 {
		t.Fatalf("info %+v", inf)
	}
	m := NewMeter(src)
	m.Start(context.Background())
	defer m.Stop()
	if err := m.WaitFirst(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Latest(time.Now()); ok {
		t.Error("a USB-PD contract gave a power sample: it is a limit, not a measurement")
	}
	if _, err := Open(context.Background(), fixtureRoot(t, map[string]string{"x": ""}), nil, Spec{Kind: KindUSBPD}); err == nil {
		t.Error("no power supply: no error")
	}
}

func TestCmdSource(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	sp, err := ParseSpec(`cmd:printf '2.5\nnot watts\n1500 mW\n'; sleep 30`)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Open(context.Background(), nil, nil, sp)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMeter(src)
	m.Start(context.Background())
	defer m.Stop()
	waitFor(t, func() bool { st := m.Stats(); return st.Readings >= 2 && st.Missing >= 1 })
	r, ok := m.Latest(time.Now())
	if !ok || *r.W != 1.5 {
		t.Errorf("latest %v %v, want 1.5 W", r.W, ok)
	}
	if !hasError(m.Stats(), "not a reading in watts") {
		t.Errorf("errors %q", m.Stats().Errors)
	}
}

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "", want: "auto"}, {in: "auto", want: "auto"}, {in: "none", want: "none"},
		{in: "hwmon", want: "hwmon"}, {in: "hwmon:ina226", want: "hwmon:ina226"},
		{in: "rpi-pmic", want: "rpi-pmic"}, {in: "usb-pd", want: "usb-pd"},
		{in: "shelly:10.0.0.5", want: "shelly:http://10.0.0.5"},
		{in: "netio:http://admin:secret@10.0.0.6#2", want: "netio:http://admin:xxxxx@10.0.0.6#2"},
		// A cmd: source keeps its program's name only: the rest may hold
		// credentials.
		{in: "cmd:echo 1", want: "cmd:echo"},
		{in: "cmd:TOKEN=s3cret /usr/bin/curl -su admin:s3cret http://pdu/w", want: "cmd:curl"},
		{in: "cmd:  'my meter' --raw", want: "cmd:my"},
		{in: "netio:http://10.0.0.6/netio.json?password=s3cret", want: "netio:http://10.0.0.6/netio.json?password=xxxxx"},
		{in: "hwmon:", bad: true}, {in: "shelly", bad: true}, {in: "shelly:ftp://x", bad: true},
		{in: "usb-pd:x", bad: true}, {in: "cmd:  ", bad: true}, {in: "tasmota:x", bad: true},
	}
	for _, tc := range tests {
		s, err := ParseSpec(tc.in)
		if tc.bad != (err != nil) {
			t.Errorf("ParseSpec(%q) error %v", tc.in, err)
			continue
		}
		if !tc.bad && s.String() != tc.want {
			t.Errorf("ParseSpec(%q) = %q, want %q", tc.in, s.String(), tc.want)
		}
	}
}
