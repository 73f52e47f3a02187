package review

import (
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/nvmepower"
	"boardbench/internal/testutil/fixture"
)

func TestAPSTFindings(t *testing.T) {
	v := func(x int64) *int64 { return &x }
	on, off := true, false
	// A table shaped like a consumer drive's: PS3 wakes in 1.2 ms, PS4 in 8 ms.
	states := []nvmepower.State{{ID: 0, MaxPowerW: 7.5}, {ID: 3, MaxPowerW: 0.07, NonOperational: true, EntryLatencyUs: 210, ExitLatencyUs: 1200},
		{ID: 4, MaxPowerW: 0.005, NonOperational: true, EntryLatencyUs: 2000, ExitLatencyUs: 8000}}
	for _, tc := range []struct {
		name string
		info nvmepower.Info
		sev  finding.Severity
		want string // in the advice; "" for no finding
	}{
		{"kernel default reaches PS4", nvmepower.Info{Controller: "nvme0", DefaultPSMaxLatencyUs: v(100000), APSTEnabled: &on, States: states}, finding.Warning, "default_ps_max_latency_us=1410"},
		{"a limit below PS4", nvmepower.Info{Controller: "nvme0", DefaultPSMaxLatencyUs: v(5500), APSTEnabled: &on, States: states}, "", ""},
		{"APST off", nvmepower.Info{Controller: "nvme0", DefaultPSMaxLatencyUs: v(100000), APSTEnabled: &off, States: states}, "", ""},
		{"states unknown, loose limit", nvmepower.Info{Controller: "nvme0", DefaultPSMaxLatencyUs: v(100000), Note: "needs root"}, finding.Info, "run boardbench review as root"},
		{"states unknown, tight limit", nvmepower.Info{Controller: "nvme0", DefaultPSMaxLatencyUs: v(100000), LatencyToleranceUs: v(2000)}, "", ""},
	} {
		got := apstFindings("nvme0n1", tc.info)
		if tc.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %+v, want no finding", tc.name, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != tc.sev || !strings.Contains(got[0].Advice, tc.want) {
			t.Errorf("%s: %+v, want one %v finding advising %q", tc.name, got, tc.sev, tc.want)
		}
	}
}

// nvmeSysfs is a root shaped like real sysfs with an NVMe drive whose
// controller's APST limit is tol (no drive here: its states are unknown).
func nvmeSysfs(tol string) map[string]string {
	const ctl = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0"
	return map[string]string{
		"/sys/block/nvme0n1":                       "->.." + strings.TrimPrefix(ctl, "/sys") + "/nvme0n1",
		ctl + "/nvme0n1/size":                      "1953525168\n",
		ctl + "/nvme0n1/device":                    "->../../nvme0",
		ctl + "/model":                             "Example NVMe SSD\n",
		"/sys/class/nvme/nvme0":                    "->../.." + strings.TrimPrefix(ctl, "/sys"),
		ctl + "/power/pm_qos_latency_tolerance_us": tol + "\n",
		nvmepower.ModuleParam:                      "100000\n",
	}
}

// TestAPSTRuleOnSysfsFixture runs the rule over nvmeSysfs.
func TestAPSTRuleOnSysfsFixture(t *testing.T) {
	e := NewEnv(fixture.Open(t, fixture.Root(t, fixture.Merge(base, nvmeSysfs("100000")))), now)
	got := nvmeAPSTLatency(e)
	if len(got) != 1 || got[0].Severity != finding.Info || !strings.Contains(got[0].Title, "nvme0n1") || !strings.Contains(strings.Join(got[0].Evidence, "\n"), "pm_qos_latency_tolerance_us: 100000") {
		t.Fatalf("findings %+v", got)
	}
}
