package monitor

import (
	"context"
	"strings"
	"testing"
	"time"

	"boardbench/internal/testutil/fixture"
)

func TestParseTimeInStateDiff(t *testing.T) {
	before, _ := secondsByKHz([]byte("408000 100\n1800000 500\n2400000 1000\n"))
	after, _ := secondsByKHz([]byte("408000 100\n1800000 1500\n2400000 3000\nbogus line\n"))
	pt := diffTimeInState(4, before, after)
	if pt.TopMHz != 2400 || pt.TotalS != 30 || pt.BelowTopS != 10 {
		t.Errorf("got %+v", pt)
	}
	if pt.ByMHz["1800"] != 10 || pt.ByMHz["2400"] != 20 {
		t.Errorf("by MHz = %v", pt.ByMHz)
	}
}

func TestClassifyLine(t *testing.T) {
	cases := []struct{ line, want string }{
		{"[  123.456] hwmon hwmon1: Undervoltage detected!", EventUnderVoltage},
		{"[ 5.1] Under-voltage detected! (0x00050005)", EventUnderVoltage},
		{"[99.0] Out of memory: Killed process 1234 (7zz) total-vm:123kB", EventOOM},
		{"[99.0] 7zz invoked oom-killer: gfp_mask=0x100cca", EventOOM},
		{"[10.0] psci: CPU3 killed (polled 0 ms)", EventCPUOffline},
		{"[10.0] CPU2: shutdown", EventCPUOffline},
		{"[10.0] thermal thermal_zone0: critical temperature reached (115 C), shutting down", EventThermal},
		{"[10.0] mmc0: timeout waiting for hardware interrupt.", EventIO},
		{"[10.0] blk_update_request: I/O error, dev mmcblk0, sector 123", EventIO},
		{"[10.0] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 4", EventHardware},
		{"[10.0] usb 1-1: new high-speed USB device number 2 using xhci_hcd", ""},
		{"[10.0] EXT4-fs (mmcblk0p2): mounted filesystem", ""},
	}
	for _, c := range cases {
		if got := ClassifyLine(c.line); got != c.want {
			t.Errorf("ClassifyLine(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestNewLogLines(t *testing.T) {
	cases := []struct {
		before, after string
		want          int
	}{
		{"a\nb\n", "a\nb\nc\nd\n", 2},
		{"a\nb\n", "a\nb\n", 0},
		{"", "x\n", 1},
		{"old\n", "wrapped1\nwrapped2\n", 2},
	}
	for _, c := range cases {
		if got := NewLogLines(c.before, c.after); len(got) != c.want {
			t.Errorf("NewLogLines(%q,%q) = %v", c.before, c.after, got)
		}
	}
}

type fakeFirmware struct{ thr []uint32 }

func (f *fakeFirmware) ClockMHz(context.Context) (float64, error)  { return 1400, nil }
func (f *fakeFirmware) CoreVolts(context.Context) (float64, error) { return 0.8563, nil }
func (f *fakeFirmware) Throttled(context.Context) (uint32, error) {
	v := f.thr[0]
	if len(f.thr) > 1 {
		f.thr = f.thr[1:]
	}
	return v, nil
}

func TestWindowOnFixture(t *testing.T) {
	root := t.TempDir()
	tis := "/sys/devices/system/cpu/cpufreq/policy0/stats/time_in_state"
	fixture.Write(t, root, "/proc/stat", "cpu  100 0 50 800 50 0 0 0\ncpu0 100 0 50 800 50 0 0 0\n")
	fixture.Write(t, root, "/proc/loadavg", "0.05 0.10 0.20 1/100 123\n")
	fixture.Write(t, root, "/proc/meminfo", "MemTotal: 1000 kB\nSwapTotal: 2048 kB\nSwapFree: 1024 kB\n")
	fixture.Write(t, root, "/proc/vmstat", "pswpin 10\npswpout 20\n")
	fixture.Write(t, root, "/sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "1400000\n")
	fixture.Write(t, root, tis, "600000 100\n1400000 100\n")
	fixture.Write(t, root, "/sys/class/thermal/thermal_zone0/temp", "400000\n") // absurd: rejected
	fixture.Write(t, root, "/sys/class/hwmon/hwmon0/power1_input", "4500000\n")
	h := fixture.Open(t, root)
	cfg := Config{
		Policies: []Policy{{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}}},
		TempPath: "/sys/class/thermal/thermal_zone0/temp",
		Power:    []Sensor{{Label: "power", Path: "/sys/class/hwmon/hwmon0/power1_input", Quantity: "power", Unit: "W"}},
		Firmware: &fakeFirmware{thr: []uint32{0, 0x50005}},
	}
	m := New(h, cfg)
	ctx := context.Background()
	w := m.Begin(ctx, "7-zip")
	fixture.Write(t, root, "/proc/stat", "cpu  200 0 100 1600 100 0 0 0\ncpu0 200 0 100 1600 100 0 0 0\n")
	fixture.Write(t, root, tis, "600000 600\n1400000 300\n")
	fixture.Write(t, root, "/proc/vmstat", "pswpin 15\npswpout 120\n")
	ev := w.End(ctx)
	if len(ev.Samples) != 2 {
		t.Fatalf("samples = %d, want 2", len(ev.Samples))
	}
	s := ev.Samples[1]
	if s.CPUPct == nil || *s.CPUPct != 15 || *s.ClockMHz[0] != 1400 || *s.Load1 != 0.05 {
		t.Errorf("sample = %+v", s)
	}
	if s.TempC != nil {
		t.Errorf("absurd 400 °C must be rejected, got %v", *s.TempC)
	}
	if s.SwapUsedBytes == nil || *s.SwapUsedBytes != 1024*1024 {
		t.Errorf("swap used = %v", s.SwapUsedBytes)
	}
	if len(s.Power) != 1 || *s.Power[0] != 4.5 {
		t.Errorf("power = %v", s.Power)
	}
	if len(ev.TimeInState) != 1 || ev.TimeInState[0].BelowTopS != 5 || ev.TimeInState[0].TotalS != 7 {
		t.Errorf("time in state = %+v", ev.TimeInState)
	}
	if *ev.SwapIn != 5 || *ev.SwapOut != 100 {
		t.Errorf("swap in/out = %d/%d", *ev.SwapIn, *ev.SwapOut)
	}
	if *ev.ThrottledBefore != 0 || *ev.ThrottledAfter != 0x50005 {
		t.Errorf("throttled = %v/%v", *ev.ThrottledBefore, *ev.ThrottledAfter)
	}
	line := Line(cfg.Columns(), s)
	for _, want := range []string{"1400MHz", "15%", "4.50W", "0.8563V"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
}

func TestIntervalFor(t *testing.T) {
	cases := []struct{ in, want time.Duration }{
		{3 * time.Second, time.Second}, {50 * time.Second, 5 * time.Second}, {10 * time.Minute, 10 * time.Second},
	}
	for _, c := range cases {
		if got := IntervalFor(c.in); got != c.want {
			t.Errorf("IntervalFor(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
