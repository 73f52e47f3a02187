package infotext

import (
	"testing"

	"boardbench/internal/inventory/osinfo"
)

func TestOSKernelConfig(t *testing.T) {
	hz := 250
	for _, tc := range []struct {
		c    *osinfo.KernelConfig
		want string
	}{
		{nil, "unknown"},
		{&osinfo.KernelConfig{Source: "/proc/config.gz", HZ: &hz, Preempt: "voluntary", PreemptDynamic: true, Tick: "idle"},
			"CONFIG_HZ=250, preemption voluntary (dynamic: preempt= on the kernel command line chooses another), tick idle (from /proc/config.gz)"},
		{&osinfo.KernelConfig{Source: "/boot/config-6.1.0"},
			"CONFIG_HZ unknown, preemption unknown, tick unknown (from /boot/config-6.1.0)"},
	} {
		if got := osKernelConfig(tc.c); got != tc.want {
			t.Errorf("osKernelConfig(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}
