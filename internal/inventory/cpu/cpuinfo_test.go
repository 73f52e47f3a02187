package cpu

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/shareddata"
)

func TestHexTokens(t *testing.T) {
	tests := map[string][]uint64{
		"0xd0b":                  {0xd0b},
		"0xc07 & 0xc0f":          {0xc07, 0xc0f},
		"0xc07&0xc0f":            {0xc07, 0xc0f},
		"0x41 0x41":              {0x41},
		"garbage":                nil,
		"0xzz":                   nil,
		"d03":                    {0xd03},
		"0x12345678901234567890": nil,
	}
	for in, want := range tests {
		got := hexTokens(in)
		if len(got) != len(want) {
			t.Errorf("hexTokens(%q) = %v, want %v", in, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("hexTokens(%q) = %v, want %v", in, got, want)
			}
		}
	}
}

// FuzzCPUInfo runs the whole of Collect on a root whose /proc/cpuinfo is the
// fuzz input: nothing may panic, and every CPU must land in exactly one
// cluster.
func FuzzCPUInfo(f *testing.F) {
	// Seeds from the reference corpus when it is present.
	dir, _ := shareddata.Find("cpuinfo")
	for _, name := range []string{"RK3588-5.10.66.cpuinfo", "BCM2835-3.1.9+.cpuinfo", "Qualcomm-APQ8064A.cpuinfo", "StarFive-JH7110-5.15.0.cpuinfo", "Loongson-3A1000.cpuinfo", "Allwinner-H6-3.10.65-sunxi64.cpuinfo"} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			// Short seeds keep the fuzzer's minimisation of new inputs cheap.
			f.Add(data[:min(len(data), 700)])
		}
	}
	f.Add([]byte("processor : 0\nCPU implementer : 0x41\nCPU part : 0xc07 & 0xc0f\nCPU variant : 0x0 & 0x3\nCPU revision : 3\n"))
	f.Add([]byte("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu lm aes avx avx2\nmodel name\t: Intel(R) N100\n"))
	f.Add([]byte("Processor : 4294967296\nProcessor : -1\n\x00\xff\nhart : 9\n"))
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		fixture.Write(t, root, "/proc/cpuinfo", string(data))
		in := collectRoot(t, root)
		seen := map[int]int{}
		for _, cl := range in.Clusters {
			if len(cl.CPUs) == 0 {
				t.Fatalf("empty cluster %d", cl.ID)
			}
			for _, id := range cl.CPUs {
				seen[id]++
			}
		}
		for _, cpu := range in.CPUs {
			if seen[cpu.ID] != 1 {
				t.Fatalf("cpu%d is in %d clusters", cpu.ID, seen[cpu.ID])
			}
			if in.Clusters[cpu.Cluster].CPUs == nil {
				t.Fatalf("cpu%d cluster index %d invalid", cpu.ID, cpu.Cluster)
			}
		}
	})
}

// loongson3C6000 is /proc/cpuinfo of a LoongArch machine in the layout of
// the 6.12 kernel (arch/loongarch/kernel/proc.c), whose field names are
// capitalised ("CPU Family", "Model Name", "ISA", "Features"); two CPUs
// of a Loongson 3C6000 shown.
const loongson3C6000 = `system type		: Generic Loongson64 System

processor		: 0
package			: 0
core			: 0
global_id		: 0
CPU Family		: Loongson-64bit
Model Name		: Loongson-3C6000/S
PRID			: LA664 (0014d010)
CPU Revision		: 0x10
FPU Revision		: 0x01
CPU MHz			: 2200.00
BogoMIPS		: 4400.00
TLB Entries		: 2112
Address Sizes		: 48 bits physical, 48 bits virtual
ISA			: loongarch32r loongarch32s loongarch64
Features		: cpucfg lam ual fpu lsx lasx crc32 complex crypto lvz lbt_x86 lbt_arm lbt_mips
Hardware Watchpoint	: yes, iwatch count: 8, dwatch count: 8

processor		: 1
package			: 0
core			: 1
global_id		: 1
CPU Family		: Loongson-64bit
Model Name		: Loongson-3C6000/S
PRID			: LA664 (0014d010)
CPU Revision		: 0x10
FPU Revision		: 0x01
CPU MHz			: 2200.00
BogoMIPS		: 4400.00
TLB Entries		: 2112
Address Sizes		: 48 bits physical, 48 bits virtual
ISA			: loongarch32r loongarch32s loongarch64
Features		: cpucfg lam ual fpu lsx lasx crc32 complex crypto lvz lbt_x86 lbt_arm lbt_mips
Hardware Watchpoint	: yes, iwatch count: 8, dwatch count: 8
`

// TestLoongArchCapitalisedFields reads the 6.12 kernel's LoongArch layout:
// every core is named, the architecture and features are found.
func TestLoongArchCapitalisedFields(t *testing.T) {
	in := collectCPUInfo(t, []byte(loongson3C6000))
	if in.Arch != "loongarch64" {
		t.Errorf("arch %q, want loongarch64", in.Arch)
	}
	if len(in.CPUs) != 2 {
		t.Fatalf("%d CPUs, want 2", len(in.CPUs))
	}
	for _, c := range in.CPUs {
		if c.CoreName != "Loongson-3C6000/S" || c.ISA == "" {
			t.Errorf("cpu%d: core %q, ISA %q", c.ID, c.CoreName, c.ISA)
		}
	}
	if !slices.Contains(in.Features.Common, "lasx") {
		t.Errorf("features %v lack lasx", in.Features.Common)
	}
}
