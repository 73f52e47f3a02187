package cpu

import (
	"os"
	"path/filepath"
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
