package cpu

import (
	"reflect"
	"testing"

	"boardbench/internal/kernelfile"
)

func TestRISCVCoreName(t *testing.T) {
	tests := []struct{ in, vendor, name string }{
		{"sifive,u74-mc", "SiFive", "SiFive U74-MC"},
		{"thead,c906", "T-Head", "T-Head C906"},
		{"thead,c910", "T-Head", "T-Head C910"},
		{"spacemit,x60", "SpacemiT", "SpacemiT X60"},
		{"andestech,ax45mp", "Andes", "Andes AX45MP"},
		{"acme,k1", "acme", "acme K1"},
		{"", "", ""},
		{"sifive,", "", ""},
	}
	for _, tt := range tests {
		v, n, _ := RISCVCoreName(tt.in)
		if v != tt.vendor || n != tt.name {
			t.Errorf("RISCVCoreName(%q) = %q, %q; want %q, %q", tt.in, v, n, tt.vendor, tt.name)
		}
	}
}

func TestRISCVVendorName(t *testing.T) {
	for _, tt := range []struct {
		in, name string
		ok       bool
	}{
		{"0x5b7", "T-Head", true},
		{"0x489", "SiFive", true},
		{"0x710", "SpacemiT", true},
		{"0x31e", "Andes", true},
		{"0x0", "", false},
		{"junk", "", false},
	} {
		if v, ok := RISCVVendorName(tt.in); v != tt.name || ok != tt.ok {
			t.Errorf("RISCVVendorName(%q) = %q, %v; want %q, %v", tt.in, v, ok, tt.name, tt.ok)
		}
	}
}

func TestX86VendorName(t *testing.T) {
	for _, tt := range []struct {
		in, name string
		ok       bool
	}{
		{"GenuineIntel", "Intel", true},
		{" AuthenticAMD\n", "AMD", true},
		{"HygonGenuine", "Hygon", true},
		{"VIA VIA VIA", "VIA", true},
		{"Shanghai", "Zhaoxin", true},
		{"genuineintel", "", false},
		{"", "", false},
	} {
		if v, ok := X86VendorName(tt.in); v != tt.name || ok != tt.ok {
			t.Errorf("X86VendorName(%q) = %q, %v; want %q, %v", tt.in, v, ok, tt.name, tt.ok)
		}
	}
}

func TestX86CoreName(t *testing.T) {
	tests := map[string]string{
		"12th Gen Intel(R) Core(TM) i7-1260P":       "Intel Core i7-1260P",
		"Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz":  "Intel Core i5-8250U",
		"AMD Ryzen 7 5800X 8-Core Processor":        "AMD Ryzen 7 5800X",
		"Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz": "Intel Xeon E5-2680 v4",
		"Intel(R) N100":                          "Intel N100",
		"AMD Ryzen 7 5825U with Radeon Graphics": "AMD Ryzen 7 5825U",
		"Intel(R) Celeron(R) N5105 @ 2.00GHz":    "Intel Celeron N5105",
		"AMD EPYC 7763 64-Core Processor":        "AMD EPYC 7763",
		"Loongson-3A5000M":                       "Loongson-3A5000M",
		"Spacemit(R) X60":                        "Spacemit X60",
	}
	for in, want := range tests {
		if got := X86CoreName(in); got != want {
			t.Errorf("X86CoreName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMIPSCoreName(t *testing.T) {
	tests := []struct{ in, name, rev string }{
		{"Ingenic JZRISC V4.15  FPU V0.0", "Ingenic JZRISC", "V4.15"},
		{"MIPS 24KEc V5.0", "MIPS 24KEc", "V5.0"},
		{"Loongson-3 V0.5  FPU V0.1", "Loongson-3", "V0.5"},
		{"MIPS 1004Kc", "MIPS 1004Kc", ""},
	}
	for _, tt := range tests {
		n, r := MIPSCoreName(tt.in)
		if n != tt.name || r != tt.rev {
			t.Errorf("MIPSCoreName(%q) = %q, %q; want %q, %q", tt.in, n, r, tt.name, tt.rev)
		}
	}
}

func TestArchFromMachine(t *testing.T) {
	tests := map[string]string{
		"aarch64": "arm64", "armv7l": "arm", "armv6l": "arm", "armv8l": "arm",
		"riscv64": "riscv64", "x86_64": "x86_64", "i686": "x86",
		"loongarch64": "loongarch64", "mips64": "mips64", "mipsel": "mips",
		"ppc64le": "ppc64le", "": "",
	}
	for in, want := range tests {
		if got := ArchFromMachine(in); got != want {
			t.Errorf("ArchFromMachine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestArchFromCPUInfo(t *testing.T) {
	tests := []struct{ in, want string }{
		{"processor : 0\nFeatures : fp asimd\nCPU implementer : 0x41\nCPU architecture: 8\n", "arm64"},
		{"processor : 0\nFeatures : half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt lpae evtstrm crc32\nCPU implementer : 0x41\nCPU architecture: 8\n", "arm"},
		{"processor : 0\nmodel name : ARMv7 Processor rev 4 (v7l)\nCPU implementer : 0x41\nCPU architecture: 7\n", "arm"},
		{"Processor : AArch64 Processor rev 4 (aarch64)\nprocessor : 0\nCPU implementer : 0x41\nCPU architecture: AArch64\n", "arm64"},
		{"processor : 0\nhart : 0\nisa : rv64imafdc\n", "riscv64"},
		{"processor : 0\nhart : 0\nisa : rv32imac\n", "riscv32"},
		{"processor : 0\ncpu family : Loongson-64bit\nisa : loongarch32 loongarch64\n", "loongarch64"},
		{"processor : 0\ncpu model : MIPS 24KEc V5.0\nisa : mips1 mips2 mips32r1 mips32r2\n", "mips"},
		{"processor : 0\ncpu model : Loongson-3 V0.5\nisa : mips1 mips64r2\n", "mips64"},
		{"processor : 0\nvendor_id : GenuineIntel\nflags : fpu vme lm\n", "x86_64"},
		{"processor : 0\nvendor_id : GenuineIntel\nflags : fpu vme\n", "x86"},
		{"nothing here\n", ""},
	}
	for _, tt := range tests {
		f := kernelfile.ParseCPUInfo([]byte(tt.in))
		if got := ArchFromCPUInfo(&f); got != tt.want {
			t.Errorf("ArchFromCPUInfo(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRISCVExtensions(t *testing.T) {
	tests := map[string][]string{
		"rv64imafdc":                          {"a", "c", "d", "f", "i", "m"},
		"rv64imafdcv_zicbom_zba":              {"a", "c", "d", "f", "i", "m", "v", "zba", "zicbom"},
		"rv64imafdcsu":                        {"a", "c", "d", "f", "i", "m", "s", "u"},
		"rv64i2p0m2p0a2p0f2p0d2p0c2p0xv5-0p0": {"a", "c", "d", "f", "i", "m", "xv"},
		"mips1 mips2":                         nil,
	}
	for in, want := range tests {
		if got := RISCVExtensions(in); !reflect.DeepEqual(got, want) {
			t.Errorf("RISCVExtensions(%q) = %v, want %v", in, got, want)
		}
	}
}
