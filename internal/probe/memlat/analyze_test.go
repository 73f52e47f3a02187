package memlat

import (
	"math"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/shareddata"
)

func TestDetectLevelsOnRealTables(t *testing.T) {
	const K, M = KiB, MiB
	tests := []struct {
		name    string
		file    string
		ramlat  bool   // ramlat table (absolute ns) instead of tinymembench (relative to L1)
		context string // substring of the "Executing ..." line
		variant string // substring of the table header's variant
		// want are the cache sizes the curve must show; a detected size
		// must be within a factor of two (block sizes are powers of two).
		want []int64
	}{
		// RK3588: Cortex-A76 64 KiB L1d, 512 KiB L2, 3 MiB shared L3.
		{"RK3588 A76 ramlat", "1Xuf1O1.txt", true, "cpu4 (Cortex-A76)", "", []int64{64 * K, 512 * K, 3 * M}},
		{"RK3588 A76 tinymembench", "1Xuf1O1.txt", false, "cpu4 (Cortex-A76)", "", []int64{64 * K, 512 * K, 3 * M}},
		// RK3588 Cortex-A55: 32 KiB L1d, 128 KiB L2 (too close to the L3's
		// latency to show a step), 3 MiB L3.
		{"RK3588 A55 ramlat", "1Xuf1O1.txt", true, "cpu0 (Cortex-A55)", "", []int64{32 * K, 3 * M}},
		// RK3328 (Rock64): Cortex-A53 32 KiB L1d, 256 KiB L2, no L3.
		{"RK3328 A53 tinymembench hugepage", "1Ga0KBn.txt", false, "Cortex-A53", "MADV_HUGEPAGE", []int64{32 * K, 256 * K}},
		{"RK3328 A53 ramlat", "1Ga0KBn.txt", true, "Cortex-A53", "", []int64{32 * K, 256 * K}},
		// RK3399: Cortex-A72 32 KiB L1d, 1 MiB L2; Cortex-A53 512 KiB L2.
		{"RK3399 A72 tinymembench", "3Q2q.txt", false, "Cortex-A72", "MADV_HUGEPAGE", []int64{32 * K, 1 * M}},
		{"RK3399 A53 tinymembench", "3Q2q.txt", false, "Cortex-A53", "MADV_HUGEPAGE", []int64{32 * K, 512 * K}},
		// BCM2711 (Raspberry Pi 4): Cortex-A72 32 KiB L1d, 1 MiB L2.
		{"BCM2711 A72 tinymembench", "3OBF.txt", false, "Cortex-A72", "", []int64{32 * K, 1 * M}},
		// BCM2837 (Raspberry Pi 3): Cortex-A53 32 KiB L1d, 512 KiB L2.
		{"BCM2837 A53 tinymembench", "4hOp.txt", false, "Cortex-A53", "", []int64{32 * K, 512 * K}},
		{"BCM2837 A53 ramlat", "4hOp.txt", true, "Cortex-A53", "", []int64{32 * K, 512 * K}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := shareddata.ReadLog(t, tt.file)
			var tables []Table
			if tt.ramlat {
				tables = ParseRamlat(strings.NewReader(text))
			} else {
				tables = ParseTinymembench(strings.NewReader(text))
			}
			var tb *Table
			for i := range tables {
				if strings.Contains(tables[i].Context, tt.context) && strings.Contains(tables[i].Variant, tt.variant) {
					tb = &tables[i]
					break
				}
			}
			if tb == nil {
				t.Fatalf("no table for %q %q among %d", tt.context, tt.variant, len(tables))
			}
			c := DetectLevels(tb.SizeBytes, tb.NS)
			var got []int64
			for _, l := range c.Levels {
				got = append(got, l.SizeBytes)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("detected %v, want sizes near %v", got, tt.want)
			}
			for i := range got {
				if d := math.Abs(math.Log2(float64(got[i]) / float64(tt.want[i]))); d > 1 {
					t.Errorf("level %d: detected %d KiB, want near %d KiB", i+1, got[i]>>10, tt.want[i]>>10)
				}
			}
			if c.StillRising {
				t.Error("curve reported still rising at 64 MiB")
			}
			if c.LargestBytes != tb.SizeBytes[len(tb.SizeBytes)-1] || c.LargestNS < 50 {
				t.Errorf("largest block %d at %.1f ns: not the table's last row or not memory", c.LargestBytes, c.LargestNS)
			}
		})
	}
}

func TestDetectLevelsSynthetic(t *testing.T) {
	sizes := []int64{1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10}
	tests := []struct {
		name   string
		ns     []float64
		levels []int64
		rising bool
	}{
		{"flat", []float64{1.2, 1.2, 1.21, 1.19, 1.2, 1.2, 1.2, 1.2}, nil, false},
		{"one step", []float64{1, 1, 1, 1, 1, 5, 6, 6}, []int64{16 << 10}, false},
		{"spread step", []float64{1, 1, 1, 1, 3, 6, 8, 8.5}, []int64{8 << 10}, false},
		{"two steps", []float64{1, 1, 1, 4, 4.2, 4.1, 30, 32}, []int64{4 << 10, 32 << 10}, false},
		{"rising at the end", []float64{1, 1, 1, 1, 1, 1, 1, 9}, []int64{64 << 10}, true},
		{"sub-ns noise", []float64{0, 0, 0.1, 0, 0.4, 0.2, 0.5, 0.3}, nil, false},
		{"NaN ignored", []float64{1, math.NaN(), 1, 1, 1, 5, 5, 5}, []int64{16 << 10}, false},
	}
	for _, tt := range tests {
		c := DetectLevels(sizes, tt.ns)
		var got []int64
		for _, l := range c.Levels {
			got = append(got, l.SizeBytes)
		}
		if len(got) != len(tt.levels) {
			t.Errorf("%s: levels %v, want %v", tt.name, got, tt.levels)
			continue
		}
		for i := range got {
			if got[i] != tt.levels[i] {
				t.Errorf("%s: levels %v, want %v", tt.name, got, tt.levels)
			}
		}
		if c.StillRising != tt.rising {
			t.Errorf("%s: still rising %v, want %v", tt.name, c.StillRising, tt.rising)
		}
	}
	if c := DetectLevels(nil, nil); len(c.Levels) != 0 || c.LargestBytes != 0 {
		t.Errorf("empty curve: %+v", c)
	}
}

func TestParseTinymembench(t *testing.T) {
	text := `Executing benchmark on cpu4 (Cortex-A76):
block size : single random read / dual random read, [MADV_NOHUGEPAGE]
      1024 :    0.0 ns          /     0.0 ns 
     65536 :    3.7 ns          /     5.8 ns 
  67108864 :  173.5 ns          /   213.0 ns 

block size : single random read / dual random read
      1024 :    0.0 ns          /     0.0 ns 
      2048 :    garbage
      4096 :    9.0 ns          /     9.0 ns 
`
	ts := ParseTinymembench(strings.NewReader(text))
	if len(ts) != 2 {
		t.Fatalf("got %d tables, want 2", len(ts))
	}
	a := ts[0]
	if a.Context != "Executing benchmark on cpu4 (Cortex-A76):" || a.Variant != "[MADV_NOHUGEPAGE]" {
		t.Errorf("context %q variant %q", a.Context, a.Variant)
	}
	if len(a.SizeBytes) != 3 || a.SizeBytes[2] != 67108864 || a.NS[2] != 173.5 || a.NSDual[2] != 213.0 {
		t.Errorf("table 1: %+v", a)
	}
	// A malformed row ends the table.
	if len(ts[1].SizeBytes) != 1 || ts[1].Variant != "" {
		t.Errorf("table 2: %+v", ts[1])
	}
}

func TestParseRamlat(t *testing.T) {
	text := `Executing ramlat on cpu0 (Cortex-A55), results in ns:

       size:  1x32  2x32  1x64  2x64 1xPTR 2xPTR 4xPTR 8xPTR
         4k: 1.661 1.650 1.649 1.646 1.097 1.646 2.229 4.492 
     65536k: 126.9 128.2 127.0 128.2 126.5 128.1 189.0 332.0 
    131072k: 133.8
`
	ts := ParseRamlat(strings.NewReader(text))
	if len(ts) != 1 {
		t.Fatalf("got %d tables, want 1", len(ts))
	}
	a := ts[0]
	if len(a.SizeBytes) != 2 || a.SizeBytes[0] != 4096 || a.NS[0] != 1.097 || a.NSDual[0] != 1.646 ||
		a.SizeBytes[1] != 64*MiB || a.NS[1] != 126.5 {
		t.Errorf("table: %+v", a)
	}
	if got := ParseRamlat(strings.NewReader("size: a b c\n 4k: 1 2 3\n")); len(got) != 0 {
		t.Errorf("table without PTR columns parsed: %+v", got)
	}
}

func TestParseRealLogsNeverEmpty(t *testing.T) {
	text := shareddata.ReadLog(t, "1ET3.txt")
	ts := ParseTinymembench(strings.NewReader(text))
	if len(ts) < 2 {
		t.Fatalf("1ET3: %d tables", len(ts))
	}
	for _, tb := range ts {
		if len(tb.SizeBytes) != 17 {
			t.Errorf("%s %s: %d rows, want 17 (1 KiB..64 MiB)", tb.Context, tb.Variant, len(tb.SizeBytes))
		}
	}
}

func TestReadCachesAndMatch(t *testing.T) {
	const dir = "/sys/devices/system/cpu/cpu4/cache/"
	files := map[string]string{
		"index0/level": "1", "index0/type": "Data", "index0/size": "64K", "index0/shared_cpu_list": "4",
		"index1/level": "1", "index1/type": "Instruction", "index1/size": "64K",
		"index2/level": "2", "index2/type": "Unified", "index2/size": "512K",
		"index3/level": "3", "index3/type": "Unified", "index3/size": "3072K",
		"index4/level": "x", "index4/type": "Unified", "index4/size": "1M",
	}
	tree := map[string]string{}
	for name, content := range files {
		tree[dir+name] = content + "\n"
	}
	h := fixture.Host(t, tree)
	caches, notes := ReadCaches(h, 4)
	if len(caches) != 3 || caches[0].SizeBytes != 64*KiB || caches[0].SharedCPUs != "4" ||
		caches[2].Level != 3 || caches[2].SizeBytes != 3*MiB {
		t.Fatalf("caches %+v", caches)
	}
	if len(notes) != 1 {
		t.Errorf("want one note for the malformed index4, got %v", notes)
	}
	if LargestCache(caches) != 3*MiB {
		t.Error("LargestCache")
	}
	if _, notes := ReadCaches(h, 9); len(notes) != 1 {
		t.Errorf("missing cpu9: notes %v", notes)
	}

	// Detected 64K, 256K, 2M, 16M: 256K is within 2x of 512K; 16M matches
	// nothing.
	levels := []Level{{SizeBytes: 64 * KiB}, {SizeBytes: 256 * KiB}, {SizeBytes: 2 * MiB}, {SizeBytes: 16 * MiB}}
	m := Match(levels, caches)
	wantLevel := []int{1, 2, 3, 0}
	for i, cl := range m {
		got := 0
		if cl.SysfsLevel != nil {
			got = *cl.SysfsLevel
		}
		if got != wantLevel[i] {
			t.Errorf("detected %d KiB matched level %d, want %d", cl.DetectedBytes>>10, got, wantLevel[i])
		}
	}
}
