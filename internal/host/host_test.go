package host_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
)

func TestReadsStayInsideRoot(t *testing.T) {
	root := fixture.Root(t, map[string]string{
		"/sys/firmware/devicetree/base/model":                      "Radxa ROCK 5B\x00",
		"/proc/device-tree":                                        "->/sys/firmware/devicetree/base",
		"/sys/devices/platform/fe1b0000.ethernet/net/eth0/address": "aa:bb:cc:dd:ee:ff\n",
		"/sys/class/net/eth0":                                      "->../../devices/platform/fe1b0000.ethernet/net/eth0",
		"/sys/class/thermal/thermal_zone0/temp":                    "45000\n",
		"/sys/class/thermal/thermal_zone1":                         "->/etc",
		"/sys/kernel/debug/danger":                                 "boom",
	})
	h := fixture.Open(t, root)
	cases := []struct {
		path    string
		want    string
		wantErr bool
	}{
		{"/proc/device-tree/model", "Radxa ROCK 5B\x00", false},
		{"/sys/class/net/eth0/address", "aa:bb:cc:dd:ee:ff\n", false},
		{"/sys/class/thermal/thermal_zone0/temp", "45000\n", false},
		{"/sys/class/thermal/thermal_zone1/passwd", "", true}, // absolute link re-rooted: no /etc/passwd in root
		{"/sys/kernel/debug/danger", "", true},                // not on the allow-list
		{"relative/path", "", true},
		{"/proc/cpuinfo", "", true}, // missing
	}
	for _, c := range cases {
		got, err := h.ReadFile(c.path)
		if (err != nil) != c.wantErr {
			t.Errorf("ReadFile(%s) err = %v, wantErr %v", c.path, err, c.wantErr)
			continue
		}
		if string(got) != c.want {
			t.Errorf("ReadFile(%s) = %q, want %q", c.path, got, c.want)
		}
	}
	if _, err := h.ReadFile("/sys/kernel/debug/danger"); !errors.Is(err, host.ErrNotAllowed) {
		t.Errorf("debugfs read: err = %v, want ErrNotAllowed", err)
	}
	rp, err := h.Resolve("/sys/class/net/eth0")
	if err != nil || rp != "/sys/devices/platform/fe1b0000.ethernet/net/eth0" {
		t.Errorf("Resolve = %q, %v", rp, err)
	}
}

func TestLinkLoop(t *testing.T) {
	root := fixture.Root(t, map[string]string{"/sys/class/net/a": "->b", "/sys/class/net/b": "->a"})
	h, _ := host.New(root)
	if _, err := h.ReadFile("/sys/class/net/a/address"); err == nil {
		t.Fatal("want error for a link loop")
	}
}

func TestNewRejectsBadRoots(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	for _, root := range []string{"/nonexistent/boardbench", file} {
		if _, err := host.New(root); err == nil {
			t.Errorf("New(%q): want error", root)
		}
	}
}

func TestReadIntAndGlob(t *testing.T) {
	root := fixture.Root(t, map[string]string{
		"/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq": "1800000\n",
		"/sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq": "garbage\n",
		"/sys/devices/system/cpu/cpu10/online":                  "1\n",
	})
	h, _ := host.New(root)
	if v, err := h.ReadInt("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"); err != nil || v != 1800000 {
		t.Errorf("ReadInt = %d, %v", v, err)
	}
	if _, err := h.ReadInt("/sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq"); err == nil {
		t.Error("want error for garbage")
	}
	got, _ := h.Glob("/sys/devices/system/cpu/cpu[0-9]*")
	if len(got) != 3 || got[2] != "/sys/devices/system/cpu/cpu10" {
		t.Errorf("Glob = %v", got)
	}
}

func TestRecorderAndCommands(t *testing.T) {
	root := fixture.Root(t, map[string]string{
		"/sys/firmware/devicetree/base/model": "Raspberry Pi 4 Model B Rev 1.4\x00",
		"/proc/device-tree":                   "->/sys/firmware/devicetree/base",
		host.CommandsDir + "/" + host.CommandKey("vcgencmd", "get_throttled"): "throttled=0x50000\n",
	})
	rec := host.NewRecorder()
	h, _ := host.New(root, host.WithRecorder(rec))
	if _, err := h.ReadString("/proc/device-tree/model"); err != nil {
		t.Fatal(err)
	}
	out, err := h.Run(context.Background(), "vcgencmd", "get_throttled")
	if err != nil || string(out) != "throttled=0x50000\n" {
		t.Fatalf("Run = %q, %v", out, err)
	}
	if !h.HasCommand("vcgencmd") || h.HasCommand("7zz") {
		t.Error("HasCommand wrong")
	}
	if _, err := h.Run(context.Background(), "vcgencmd", "measure_temp"); err == nil {
		t.Error("unrecorded command must fail on a fixture root")
	}
	s := rec.Snapshot()
	if s.Links["/proc/device-tree"] != "/sys/firmware/devicetree/base" {
		t.Errorf("links = %v", s.Links)
	}
	if _, ok := s.Files["/sys/firmware/devicetree/base/model"]; !ok {
		t.Errorf("files = %v", host.SortedKeys(s.Files))
	}
	if string(s.Commands["vcgencmd_get_throttled"]) != "throttled=0x50000\n" {
		t.Errorf("commands = %v", s.Commands)
	}
}

func TestWriteAllowList(t *testing.T) {
	gov := "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
	root := fixture.Root(t, map[string]string{gov: "schedutil\n", "/proc/sys/kernel/hostname": "x"})
	h, _ := host.New(root)
	if err := h.WriteString(gov, "performance"); err != nil {
		t.Fatal(err)
	}
	if s, _ := h.ReadString(gov); s != "performance" {
		t.Errorf("governor = %q", s)
	}
	if err := h.WriteString("/proc/sys/kernel/hostname", "y"); !errors.Is(err, host.ErrNotAllowed) {
		t.Errorf("write outside allow-list: %v", err)
	}
}

func TestCommandKey(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"vcgencmd", []string{"measure_clock", "arm"}, "vcgencmd_measure_clock_arm"},
		{"/usr/bin/uname", []string{"-m"}, "uname_-m"},
		{"vcgencmd", []string{"get_config", "int"}, "vcgencmd_get_config_int"},
	}
	for _, c := range cases {
		if got := host.CommandKey(c.name, c.args...); got != c.want {
			t.Errorf("CommandKey = %q, want %q", got, c.want)
		}
	}
}

func TestBindThread(t *testing.T) {
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		t.Fatalf("AllowedCPUs = %v, %v", cpus, err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	restore, err := host.BindThread(cpus[:1])
	if err != nil {
		t.Fatal(err)
	}
	now, _ := host.AllowedCPUs()
	if len(now) != 1 || now[0] != cpus[0] {
		t.Errorf("bound to %v, want [%d]", now, cpus[0])
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if back, _ := host.AllowedCPUs(); len(back) != len(cpus) {
		t.Errorf("restored to %v, want %v", back, cpus)
	}
	if _, err := host.BindThread(nil); err == nil {
		t.Error("binding to no CPUs must fail")
	}
}
