package cpu

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/shareddata"
)

func TestParseCPUInfoFormats(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		wantIDs     []int
		synthesized bool
		shared      bool
		// check is a (CPU id, key, value) lookup through Get.
		check [][3]string
	}{
		{
			name: "modern arm64",
			in: "processor\t: 0\nBogoMIPS\t: 48.00\nCPU part\t: 0xd05\n\n" +
				"processor\t: 1\nBogoMIPS\t: 48.00\nCPU part\t: 0xd0b\n\n",
			wantIDs: []int{0, 1},
			check:   [][3]string{{"0", "CPU part", "0xd05"}, {"1", "CPU part", "0xd0b"}},
		},
		{
			name: "single-core Processor line, no processor lines",
			in: "Processor\t: ARMv6-compatible processor rev 7 (v6l)\nBogoMIPS\t: 697.95\n" +
				"CPU implementer\t: 0x41\nCPU part\t: 0xb76\n\nHardware\t: BCM2708\n",
			wantIDs:     []int{0},
			synthesized: true,
			check:       [][3]string{{"0", "CPU part", "0xb76"}, {"0", "Processor", "ARMv6-compatible processor rev 7 (v6l)"}},
		},
		{
			name: "old 32-bit shared block after processor records",
			in: "Processor\t: ARMv7 Processor rev 2 (v7l)\nprocessor\t: 0\nBogoMIPS\t: 13.53\n\n" +
				"processor\t: 1\nBogoMIPS\t: 13.53\n\nFeatures\t: swp neon\nCPU implementer\t: 0x51\nCPU part\t: 0x06f\n\nHardware\t: QCT APQ8064\n",
			wantIDs: []int{0, 1},
			shared:  true,
			check:   [][3]string{{"1", "CPU part", "0x06f"}, {"0", "Features", "swp neon"}, {"1", "BogoMIPS", "13.53"}},
		},
		{
			name: "old arm64 processor lines back to back, block glued to the last",
			in: "Processor       : AArch64 Processor rev 4 (aarch64)\nprocessor       : 0\nprocessor       : 1\nprocessor       : 2\n" +
				"Features        : fp asimd aes\nCPU implementer : 0x41\nCPU part        : 0xd03\n\nHardware        : sun50iw6\n",
			wantIDs: []int{0, 1, 2},
			shared:  true,
			check:   [][3]string{{"0", "CPU part", "0xd03"}, {"2", "Features", "fp asimd aes"}},
		},
		{
			name:    "capital Processor numbers",
			in:      "Processor : AArch64 Processor rev 14 (aarch64)\nProcessor : 0\nCPU part : 0x805\n\nProcessor : 1\nCPU part : 0x804\n",
			wantIDs: []int{0, 1},
			check:   [][3]string{{"1", "CPU part", "0x804"}, {"0", "Processor", "AArch64 Processor rev 14 (aarch64)"}},
		},
		{
			name:    "risc-v hart lines only",
			in:      "hart\t: 0\nisa\t: rv64imafdc\nmmu\t: sv39\n\nhart\t: 1\nisa\t: rv64imafdc\n",
			wantIDs: []int{0, 1},
			check:   [][3]string{{"1", "isa", "rv64imafdc"}, {"0", "mmu", "sv39"}},
		},
		{
			name: "pasted text around the dump",
			in: "title:\tBoard cpuinfo\nSoC name: X\n```\nroot@b:~$ cat /proc/cpuinfo\nprocessor : 0\nCPU part : 0xd03\n\n" +
				"processor : 1\nCPU part : 0xd03\n```\n**Additional context**\n",
			wantIDs: []int{0, 1},
			check:   [][3]string{{"1", "CPU part", "0xd03"}},
		},
		{
			name:    "duplicate ids keep the first",
			in:      "processor : 0\nCPU part : 0xd03\n\nprocessor : 0\nCPU part : 0xd08\n",
			wantIDs: []int{0},
			check:   [][3]string{{"0", "CPU part", "0xd03"}},
		},
		{name: "garbage", in: "\x00\x01\xff\xfe:::\n\n", wantIDs: nil},
		{name: "empty", in: "", wantIDs: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseCPUInfo([]byte(tt.in))
			var ids []int
			for _, e := range f.Entries {
				ids = append(ids, e.ID)
			}
			if len(ids) != len(tt.wantIDs) {
				t.Fatalf("ids = %v, want %v", ids, tt.wantIDs)
			}
			for i := range ids {
				if ids[i] != tt.wantIDs[i] {
					t.Fatalf("ids = %v, want %v", ids, tt.wantIDs)
				}
			}
			if f.Synthesized != tt.synthesized {
				t.Errorf("Synthesized = %v, want %v", f.Synthesized, tt.synthesized)
			}
			if f.SharedBlock != tt.shared {
				t.Errorf("SharedBlock = %v, want %v", f.SharedBlock, tt.shared)
			}
			for _, c := range tt.check {
				var e *CPUInfoEntry
				for i := range f.Entries {
					if strconv.Itoa(f.Entries[i].ID) == c[0] {
						e = &f.Entries[i]
					}
				}
				if got := f.Get(e, c[1]); got != c[2] {
					t.Errorf("cpu%s %q = %q, want %q", c[0], c[1], got, c[2])
				}
			}
		})
	}
}

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
		_ = ParseCPUInfo(data)
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
