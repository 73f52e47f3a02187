package kernelfile

import (
	"slices"
	"strconv"
	"testing"
)

func TestParseCPUInfoFormats(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		wantIDs     []int
		synthesized bool
		shared      bool
		duplicates  int
		// check is a (CPU id, key, value) lookup through Get; an id that
		// names no entry reads the global lines.
		check [][3]string
		// first is a (key, value) lookup in First.
		first [][2]string
	}{
		{
			name: "modern arm64",
			in: "processor\t: 0\nBogoMIPS\t: 48.00\nCPU part\t: 0xd05\n\n" +
				"processor\t: 1\nBogoMIPS\t: 48.00\nCPU part\t: 0xd0b\n\n",
			wantIDs: []int{0, 1},
			check:   [][3]string{{"0", "CPU part", "0xd05"}, {"1", "CPU part", "0xd0b"}},
			first:   [][2]string{{"CPU part", "0xd05"}, {"processor", "0"}},
		},
		{
			name: "single-core Processor line, no processor lines",
			in: "Processor\t: ARMv6-compatible processor rev 7 (v6l)\nBogoMIPS\t: 697.95\n" +
				"CPU implementer\t: 0x41\nCPU part\t: 0xb76\n\nHardware\t: BCM2708\n",
			wantIDs:     []int{0},
			synthesized: true,
			check:       [][3]string{{"0", "CPU part", "0xb76"}, {"0", "Processor", "ARMv6-compatible processor rev 7 (v6l)"}},
			first:       [][2]string{{"Hardware", "BCM2708"}},
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
			check:   [][3]string{{"0", "CPU part", "0xd03"}, {"2", "Features", "fp asimd aes"}, {"-1", "Hardware", "sun50iw6"}},
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
			name:       "duplicate ids keep the first",
			in:         "processor : 0\nCPU part : 0xd03\n\nprocessor : 0\nCPU part : 0xd08\nHardware : X\n",
			wantIDs:    []int{0},
			duplicates: 1,
			check:      [][3]string{{"0", "CPU part", "0xd03"}, {"-1", "Hardware", ""}},
			first:      [][2]string{{"Hardware", "X"}},
		},
		{
			name:    "machine lines inside the last record",
			in:      "processor : 0\nCPU part : 0xd03\nHardware : BCM2835\nRevision : c03114\nModel : Raspberry Pi 4 Model B Rev 1.4\n",
			wantIDs: []int{0},
			check:   [][3]string{{"-1", "Revision", ""}, {"0", "Revision", "c03114"}},
			first:   [][2]string{{"Hardware", "BCM2835"}, {"Revision", "c03114"}, {"Model", "Raspberry Pi 4 Model B Rev 1.4"}},
		},
		{name: "CPU number above the bound", in: "processor : 65536\nCPU part : 0xd03\n", wantIDs: []int{0}, synthesized: true},
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
			if !slices.Equal(ids, tt.wantIDs) {
				t.Fatalf("ids = %v, want %v", ids, tt.wantIDs)
			}
			if f.Synthesized != tt.synthesized {
				t.Errorf("Synthesized = %v, want %v", f.Synthesized, tt.synthesized)
			}
			if f.SharedBlock != tt.shared {
				t.Errorf("SharedBlock = %v, want %v", f.SharedBlock, tt.shared)
			}
			if f.Duplicates != tt.duplicates {
				t.Errorf("Duplicates = %d, want %d", f.Duplicates, tt.duplicates)
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
			for _, c := range tt.first {
				if got := f.First[c[0]]; got != c[1] {
					t.Errorf("First[%q] = %q, want %q", c[0], got, c[1])
				}
			}
		})
	}
}

func TestCPUNumber(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"0", 0, true}, {"12", 12, true}, {"65535", 65535, true},
		{"65536", 0, false}, {"-1", 0, false}, {"", 0, false}, {"0x1", 0, false}, {" 1", 0, false},
	}
	for _, tt := range tests {
		if got, ok := CPUNumber(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("CPUNumber(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzParseCPUInfo checks that no input panics and that the records keep
// their promises: distinct ids within bounds, one synthesized record at most.
func FuzzParseCPUInfo(f *testing.F) {
	f.Add([]byte("processor : 0\nCPU implementer : 0x41\nCPU part : 0xc07 & 0xc0f\n\nprocessor : 0\nHardware : X\n"))
	f.Add([]byte("Processor : ARMv7 Processor rev 2 (v7l)\nprocessor : 0\nprocessor : 1\nCPU part : 0x06f\n"))
	f.Add([]byte("hart : 0\nisa : rv64imafdc\n\nhart : 1\n"))
	f.Add([]byte("Processor : 4294967296\nProcessor : -1\n\x00\xff\nhart : 9\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := ParseCPUInfo(data)
		seen := map[int]bool{}
		for _, e := range c.Entries {
			if e.ID < 0 || e.ID > MaxCPUID || seen[e.ID] || e.Fields == nil {
				t.Fatalf("bad or repeated entry %+v", e)
			}
			seen[e.ID] = true
		}
		if c.Synthesized && len(c.Entries) != 1 {
			t.Fatalf("synthesized file with %d entries", len(c.Entries))
		}
		for k, v := range c.Global {
			if _, ok := c.First[k]; !ok {
				t.Fatalf("global %q=%q missing from First", k, v)
			}
		}
	})
}
