package review

import "testing"

func TestMitigationCost(t *testing.T) {
	for _, tc := range []struct {
		file, want string
		ok         bool
	}{
		{"meltdown", "page-table isolation: every system call and interrupt switches page tables (up to 30 % on syscall-heavy loads)", true},
		{"mds", "buffer clearing on every return to user space", true},
		{"mmio_stale_data", "buffer clearing on every return to user space", true},
		{"tsx_async_abort", "buffer clearing on every return to user space", true},
		{"srbds", "slower RDRAND/RDSEED", true},
		{"reg_file_data_sampling", "register clearing on every return to user space", true},
		{"spectre_v1", "", false},
		{"", "", false},
	} {
		if got, ok := mitigationCost(tc.file); got != tc.want || ok != tc.ok {
			t.Errorf("mitigationCost(%q) = %q, %v; want %q, %v", tc.file, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSettingArea(t *testing.T) {
	for _, tc := range []struct {
		path, want string
		ok         bool
	}{
		{"/proc/cmdline", AreaBoot, true},
		{"/proc/sys/vm/swappiness", "", false},
		{"", "", false},
	} {
		if got, ok := settingArea(tc.path); got != tc.want || ok != tc.ok {
			t.Errorf("settingArea(%q) = %q, %v; want %q, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}
