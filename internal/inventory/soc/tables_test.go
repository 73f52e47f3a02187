package soc

import "testing"

// TestCompatibleSoCsUnique: compatibleSoCs is a slice (static data), so
// the compiler no longer refuses a duplicated string as it did for the map
// literal; a duplicate would make the second entry dead.
func TestCompatibleSoCsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range compatibleSoCs {
		if seen[e.compatible] {
			t.Errorf("compatibleSoCs: %q twice", e.compatible)
		}
		seen[e.compatible] = true
		if e.soc == "" {
			t.Errorf("compatibleSoCs: %q names no SoC", e.compatible)
		}
	}
}

func TestTableLookups(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"brcm,bcm2712", "Broadcom BCM2712"},
		{"rockchip,rk3588s", "Rockchip RK3588S"},
		{"mediatek,mt7623", "MediaTek MT7623"},
		{"brcm,bcm2713", ""},
		{"", ""},
	} {
		if got, ok := compatibleSoC(c.in); got != c.want || ok != (c.want != "") {
			t.Errorf("compatibleSoC(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"32", "tegra20"}, {"33", "tegra210"}, {"35", "tegra234"}, {"19", "tegra132"}, {"36", ""}, {"", ""},
	} {
		if got := tegraChipID(c.in); got != c.want {
			t.Errorf("tegraChipID(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"KONA", "Qualcomm Snapdragon 865 (SM8250)"},
		{"SM8150_PLUS", "Qualcomm Snapdragon 855+ (SM8150)"},
		{"MSM8996PRO", "Qualcomm Snapdragon 821 (MSM8996 Pro)"},
		{"kona", ""},
		{"SM8250", ""},
	} {
		if got := qualcommCodename(c.in); got != c.want {
			t.Errorf("qualcommCodename(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		part int
		want string
	}{{0xb76, "Broadcom BCM2835"}, {0xc07, "Broadcom BCM2836"}, {0xd03, "Broadcom BCM2837"}, {0xd08, "Broadcom BCM2711"}, {0xd0b, "Broadcom BCM2712"}, {0xd05, ""}} {
		if got := raspberryPiSoCByCore(c.part); got != c.want {
			t.Errorf("raspberryPiSoCByCore(%#x) = %q, want %q", c.part, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want bool
	}{{"to be filled by o.e.m.", true}, {"default string", true}, {"base board product name", true}, {"oem", true}, {"Raspberry Pi", false}, {"", false}} {
		if got := dmiPlaceholder(c.in); got != c.want {
			t.Errorf("dmiPlaceholder(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
