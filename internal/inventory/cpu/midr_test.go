package cpu

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"boardbench/internal/testutil/shareddata"
)

func TestCoreNameForMIDR(t *testing.T) {
	tests := []struct {
		impl, part   uint64
		vendor, name string
		ok           bool
	}{
		{0x41, 0xd0b, "ARM", "Cortex-A76", true},
		{0x41, 0xd05, "ARM", "Cortex-A55", true},
		{0x41, 0xb76, "ARM", "ARM1176", true},
		{0x41, 0xb02, "ARM", "ARM11 MPCore", true},
		{0x41, 0xc07, "ARM", "Cortex-A7", true},
		{0x41, 0xc0d, "ARM", "Cortex-A12", true},
		{0x41, 0xc0e, "ARM", "Cortex-A17", true},
		{0x51, 0x00f, "Qualcomm", "Scorpion", true},
		{0x51, 0xc00, "Qualcomm", "Falkor", true},
		{0x4e, 0x004, "NVIDIA", "Carmel", true},
		{0x4e, 0x000, "NVIDIA", "Denver", true},
		{0x53, 0x001, "Samsung", "Exynos M1", true},
		{0x48, 0xd01, "HiSilicon", "TaiShan v110", true},
		{0x42, 0x100, "Broadcom", "Brahma-B53", true},
		{0x43, 0x0a1, "Cavium", "ThunderX-88XX", true},
		{0x46, 0x001, "Fujitsu", "A64FX", true},
		{0x70, 0x662, "Phytium", "FTC662", true},
		{0xc0, 0xac3, "Ampere", "AC03", true},
		{0x6d, 0xd49, "Microsoft", "Azure Cobalt 100", true},
		{0x41, 0xfff, "ARM", "", false},
		{0xee, 0x001, "", "", false},
	}
	for _, tt := range tests {
		v, n, ok := CoreNameForMIDR(tt.impl, tt.part)
		if v != tt.vendor || n != tt.name || ok != tt.ok {
			t.Errorf("CoreNameForMIDR(%#x, %#x) = %q, %q, %v; want %q, %q, %v", tt.impl, tt.part, v, n, ok, tt.vendor, tt.name, tt.ok)
		}
	}
}

func TestCoreNameForMIDRRevision(t *testing.T) {
	tests := []struct {
		impl, part, variant, rev uint64
		name                     string
	}{
		{0x51, 0x06f, 0, 2, "Krait 200"},
		{0x51, 0x06f, 1, 0, "Krait 300"},
		{0x51, 0x06f, 2, 0, "Krait 400"},
		{0x51, 0x06f, 3, 1, "Krait 450"},
		{0x53, 0x001, 4, 0, "Exynos M2"},
		{0x53, 0x001, 1, 1, "Exynos M1"},
		{0x41, 0xd0b, 4, 0, "Cortex-A76"},
		{0x41, 0xd0b, 99, 0, "Cortex-A76"}, // out-of-range variant falls back
		{0x50, 0x000, 0, 1, "X-Gene 1"},    // the Mustang board
		{0x50, 0x000, 1, 0, "X-Gene 2"},
		{0x50, 0x000, 2, 3, "X-Gene 3"},
	}
	for _, tt := range tests {
		if _, n, ok := CoreNameForMIDRRevision(tt.impl, tt.part, tt.variant, tt.rev); !ok || n != tt.name {
			t.Errorf("CoreNameForMIDRRevision(%#x, %#x, %d, %d) = %q, %v; want %q", tt.impl, tt.part, tt.variant, tt.rev, n, ok, tt.name)
		}
	}
}

func TestDecodeMIDR(t *testing.T) {
	m := DecodeMIDR(0x414fd0b0)
	if m.Implementer != 0x41 || m.Variant != 4 || m.Architecture != 0xf || m.Part != 0xd0b || m.Revision != 0 {
		t.Fatalf("DecodeMIDR = %+v", m)
	}
	if got := RevisionString(m.Variant, m.Revision); got != "r4p0" {
		t.Errorf("RevisionString = %q", got)
	}
	if got := HexCode(0x41, 2) + " " + HexCode(0x6f, 3); got != "0x41 0x06f" {
		t.Errorf("HexCode = %q", got)
	}
}

// TestEveryTableCoreIsNamed asserts that every core of arm-socs-table's
// cpu_cores.yml (implementer and part, and variant-revision entries) is
// named by this package, so that midr_table.go cannot fall behind silently.
func TestEveryTableCoreIsNamed(t *testing.T) {
	path := filepath.Join(shareddata.Dir(t, "arm-socs-table"), "cpu_cores.yml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	top := doc.Content[0]
	checked := 0
	for i := 0; i+1 < len(top.Content); i += 2 {
		impl := mustHex(t, top.Content[i].Value)
		var cores *yaml.Node
		for j := 0; j+1 < len(top.Content[i+1].Content); j += 2 {
			if top.Content[i+1].Content[j].Value == "cores" {
				cores = top.Content[i+1].Content[j+1]
			}
		}
		if cores == nil {
			continue
		}
		for j := 0; j+1 < len(cores.Content); j += 2 {
			key := cores.Content[j].Value
			f := strings.Split(key, "-")
			part := mustHex(t, f[0])
			var name string
			var ok bool
			if len(f) == 3 {
				v, _ := strconv.ParseUint(f[1], 10, 64)
				r, _ := strconv.ParseUint(f[2], 10, 64)
				_, name, ok = CoreNameForMIDRRevision(impl, part, v, r)
			} else {
				_, name, ok = CoreNameForMIDR(impl, part)
			}
			if !ok || name == "" {
				t.Errorf("implementer %#x part %s from cpu_cores.yml is not named", impl, key)
			}
			if _, ok := ImplementerName(impl); !ok {
				t.Errorf("implementer %#x from cpu_cores.yml has no vendor name", impl)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d cores checked; cpu_cores.yml not parsed as expected", checked)
	}
	t.Logf("%d cores of cpu_cores.yml named", checked)
}

func mustHex(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	if err != nil {
		t.Fatalf("bad hex %q in cpu_cores.yml", s)
	}
	return v
}

// TestMIDRTablesHaveUniqueKeys: the tables are slices (static data), so
// the compiler no longer refuses a duplicated key as it did for map
// literals; a duplicate would make the second entry dead.
func TestMIDRTablesHaveUniqueKeys(t *testing.T) {
	for name, table := range map[string][]midrImplementer{"extraImplementers": extraImplementers, "tableImplementers": tableImplementers} {
		seen := map[uint64]bool{}
		for _, e := range table {
			if seen[e.code] {
				t.Errorf("%s: implementer %#x twice", name, e.code)
			}
			seen[e.code] = true
		}
	}
	for name, table := range map[string][]midrPart{"extraParts": extraParts, "tableParts": tableParts} {
		seen := map[midrKey]bool{}
		for _, e := range table {
			k := midrKey{e.implementer, e.part, e.variant, e.revision}
			if seen[k] {
				t.Errorf("%s: %+v twice", name, k)
			}
			seen[k] = true
		}
	}
}

func TestImplementerName(t *testing.T) {
	for _, tt := range []struct {
		code uint64
		name string
		ok   bool
	}{
		{0x41, "ARM", true},       // generated table
		{0x69, "Intel", true},     // hand-kept table
		{0x6d, "Microsoft", true}, // hand-kept table
		{0xc0, "Ampere", true},    // last of the generated table
		{0x00, "QEMU", true},      // first of the generated table
		{0xee, "", false},
	} {
		if n, ok := ImplementerName(tt.code); n != tt.name || ok != tt.ok {
			t.Errorf("ImplementerName(%#x) = %q, %v; want %q, %v", tt.code, n, ok, tt.name, tt.ok)
		}
	}
}
