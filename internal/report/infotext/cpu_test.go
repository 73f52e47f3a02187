package infotext

import (
	"fmt"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/textfmt"
)

// cpuTestTree writes an RK3588-like root: 4× Cortex-A55 (policy 0,
// 408–1800 MHz), 2+2× Cortex-A76 (policies 4 and 6, 408–2400/2304 MHz),
// per-core L1/L2 and a shared L3.
func cpuTestTree(t *testing.T) string {
	t.Helper()
	files := map[string]string{"/proc/sys/kernel/arch": "aarch64\n", "/sys/devices/system/cpu/online": "0-7\n"}
	var info strings.Builder
	for id := 0; id < 8; id++ {
		part, variant, l2 := "0xd05", "0x2", "128K"
		if id >= 4 {
			part, variant, l2 = "0xd0b", "0x4", "512K"
		}
		fmt.Fprintf(&info, "processor\t: %d\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics\nCPU implementer\t: 0x41\n"+
			"CPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: 0\n\n", id, variant, part)
		d := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/", id)
		for i, c := range [][3]string{{"1", "Data", "32K"}, {"1", "Instruction", "32K"}, {"2", "Unified", l2}, {"3", "Unified", "3072K"}} {
			shared := fmt.Sprint(id)
			if c[0] == "3" {
				shared = "0-7"
			}
			ci := fmt.Sprintf("%scache/index%d/", d, i)
			files[ci+"level"], files[ci+"type"], files[ci+"size"], files[ci+"shared_cpu_list"] = c[0], c[1], c[2], shared
			files[ci+"coherency_line_size"], files[ci+"ways_of_associativity"] = "64", "4"
		}
	}
	files["/proc/cpuinfo"] = info.String()
	for _, p := range []struct{ id, cpus, max string }{{"0", "0 1 2 3", "1800000"}, {"4", "4 5", "2400000"}, {"6", "6 7", "2304000"}} {
		d := "/sys/devices/system/cpu/cpufreq/policy" + p.id + "/"
		files[d+"related_cpus"], files[d+"cpuinfo_min_freq"], files[d+"cpuinfo_max_freq"] = p.cpus, "408000", p.max
		files[d+"scaling_min_freq"], files[d+"scaling_max_freq"], files[d+"scaling_cur_freq"] = "408000", p.max, "1008000"
		files[d+"scaling_governor"], files[d+"scaling_driver"] = "schedutil", "cpufreq-dt"
		files[d+"scaling_available_frequencies"] = "408000 1008000 " + p.max
	}
	return fixture.Root(t, files)
}

func TestRenderCPU(t *testing.T) {
	h := fixture.Open(t, cpuTestTree(t))
	in := &inventory.Info{CPU: cpu.Collect(h)}
	var b strings.Builder
	renderCPU(textfmt.New(&b, false), in)
	text := b.String()
	want := []string{
		"CPU\n",
		"  architecture: arm64\n",
		"  CPUs:         8 (8 online)\n",
		"  core types:   4× Cortex-A55, 4× Cortex-A76\n",
		"  CPU  CLUSTER  POLICY  MIN MHz  MAX MHz  CORE / REVISION\n",
		"    0        0       0      408     1800  Cortex-A55 / r2p0\n",
		"    5        1       4      408     2400  Cortex-A76 / r4p0\n",
		"    7        2       6      408     2304  Cortex-A76 / r4p0\n",
		"        0  0-3   Cortex-A55 / r2p0       0     408–1800  schedutil\n",
		"        2  6-7   Cortex-A76 / r4p0       6     408–2304  schedutil\n",
		"       4  4-5   cpufreq-dt  schedutil     1008    408–2400  408 1008 2400\n",
		"  L1d     32 KiB     ×8  1 CPU      0-7      4  64 B\n",
		"  L2     128 KiB     ×4  1 CPU      0-3      4  64 B\n",
		"  L2     512 KiB     ×4  1 CPU      4-7      4  64 B\n",
		"  L3       3 MiB     ×1  8 CPUs     0-7      4  64 B\n",
		"  ARMv8 Crypto Extensions: yes (aes pmull sha1 sha2)\n",
		"  NEON/ASIMD:              yes\n",
		"  SVE / SVE2:              no / no\n",
		"  features (all CPUs):     aes asimd atomics crc32 evtstrm fp pmull sha1 sha2\n",
		"  unknown: cpuinfo_cur_freq (policy 0,4,6) (not recorded; reading it needs root)\n",
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

func TestRenderCPUEmpty(t *testing.T) {
	var b strings.Builder
	renderCPU(textfmt.New(&b, false), &inventory.Info{})
	text := b.String()
	for _, w := range []string{"architecture:", "unknown", "features:"} {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}
