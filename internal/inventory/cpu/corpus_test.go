package cpu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/testutil/shareddata"
)

// TestCorpusParses runs Collect on a root holding only proc/cpuinfo for every
// file of the reference corpus.
func TestCorpusParses(t *testing.T) {
	dir := shareddata.Dir(t, "cpuinfo")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, armCPUs, unnamedARM := 0, 0, 0
	var unnamedFiles []string
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files++
		in := collectCPUInfo(t, data)
		if len(in.CPUs) == 0 {
			t.Errorf("%s: no CPUs", e.Name())
			continue
		}
		if in.Arch == "" || in.ArchSource != "cpuinfo" {
			t.Errorf("%s: arch %q from %q", e.Name(), in.Arch, in.ArchSource)
		}
		if len(in.Clusters) == 0 {
			t.Errorf("%s: no clusters", e.Name())
		}
		fileUnnamed := false
		for _, cpu := range in.CPUs {
			if cpu.Online == nil || !*cpu.Online {
				t.Errorf("%s: cpu%d listed in cpuinfo but not online", e.Name(), cpu.ID)
			}
			if cpu.Policy != nil || cpu.MinMHz != nil || cpu.MaxMHz != nil {
				t.Errorf("%s: cpu%d has cpufreq data without sysfs", e.Name(), cpu.ID)
			}
			if cpu.Implementer == "" {
				continue
			}
			armCPUs++
			impl, _ := firstHex(cpu.Implementer)
			part, _ := firstHex(cpu.Part)
			_, _, known := CoreNameForMIDR(impl, part)
			if known && cpu.CoreName == "" {
				t.Errorf("%s: cpu%d MIDR %s/%s is in the table but the CPU is unnamed", e.Name(), cpu.ID, cpu.Implementer, cpu.Part)
			}
			if cpu.CoreName == "" {
				unnamedARM++
				fileUnnamed = true
			}
		}
		if fileUnnamed {
			unnamedFiles = append(unnamedFiles, e.Name())
		}
		if len(in.Notes) == 0 {
			t.Errorf("%s: no notes, but sysfs is absent", e.Name())
		}
	}
	t.Logf("%d files, %d ARM CPUs, %d unnamed ARM CPUs in %v", files, armCPUs, unnamedARM, unnamedFiles)
	if files < 100 {
		t.Fatalf("only %d files in the corpus", files)
	}
	// Only the HiSilicon Hi1910 reports an unknown MIDR (implementer 0x00).
	if len(unnamedFiles) > 1 {
		t.Errorf("ARM files with unnamed CPUs: %v (want at most 1)", unnamedFiles)
	}
}

// corpusInfo collects one corpus file.
func corpusInfo(t *testing.T, name string) Info {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(shareddata.Dir(t, "cpuinfo"), name))
	if err != nil {
		t.Fatal(err)
	}
	return collectCPUInfo(t, data)
}

// clusterSummary renders clusters as "0-3 Cortex-A55 / r2p0; 4-7 ...".
func clusterSummary(in Info) string {
	var s []string
	for _, c := range in.Clusters {
		s = append(s, FormatCPUList(c.CPUs)+" "+c.Core)
	}
	return strings.Join(s, "; ")
}

func TestCorpusSpotChecks(t *testing.T) {
	tests := []struct {
		file     string
		arch     string
		clusters string
	}{
		{"RK3588-5.10.66.cpuinfo", "arm64", "0-3 Cortex-A55 / r2p0; 4-7 Cortex-A76 / r4p0"},
		{"BCM2710A1_RP3A0-5.10.63-v7.cpuinfo", "arm", "0-3 Cortex-A53 / r0p4"},
		{"BCM2835-3.1.9+.cpuinfo", "arm", "0 ARM1176 / r0p7"},
		{"Samsung-S3C6410X.cpuinfo", "arm", "0 ARM1176 / r0p6"},
		{"PLX-NAS7820-2.6.31.cpuinfo", "arm", "0-1 ARM11 MPCore / r0p5"},
		{"Amlogic-S922X-5.15.11-meson64.cpuinfo", "arm64", "0-1 Cortex-A53 / r0p4; 2-5 Cortex-A73 / r0p2"},
		{"Allwinner-H6-3.10.65-sunxi64.cpuinfo", "arm64", "0-3 Cortex-A53 / r0p4"},
		{"Qualcomm-APQ8064A.cpuinfo", "arm", "0-3 Krait 200 / r0p2"},
		{"Qualcomm-MSM8974-3.4.0-g88fbc66.cpuinfo", "arm", "0-3 Krait 400 / r2p0"},
		{"Exynos-8890-highperformance.cpuinfo", "arm64", "0-3 Cortex-A53 / r0p4; 4-7 Exynos M1 / r1p1"},
		{"NVidia-Tegra-Xavier-4.9.253-tegra.cpuinfo", "arm64", "0-5 Carmel / r0p0"},
		{"Marvell-Feroceon-88F6281-3.4.6.cpuinfo", "arm", "0 Feroceon-88FR131 / r2p1"},
		{"StarFive-JH7110-5.15.0.cpuinfo", "riscv64", "0-3 SiFive U74-MC"},
		{"Allwinner-D1-6.5.0.cpuinfo", "riscv64", "0 T-Head C906"},
		{"Loongson-3A5000M-4.19.0.cpuinfo", "loongarch64", "0-3 Loongson-3A5000M"},
		{"Ingenic-JZ4780-3.18.3.cpuinfo", "mips", "0-1 Ingenic JZRISC / V4.15"},
		{"snapdragon-765", "arm64", "0-5 Kryo 4xx Silver / r13p14; 6-7 Kryo 4xx Gold / r15p14"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			in := corpusInfo(t, tt.file)
			if in.Arch != tt.arch {
				t.Errorf("arch = %q, want %q", in.Arch, tt.arch)
			}
			if got := clusterSummary(in); got != tt.clusters {
				t.Errorf("clusters = %q, want %q", got, tt.clusters)
			}
			for _, c := range in.Clusters {
				if c.Policy != nil || c.MinMHz != nil || c.MaxMHz != nil {
					t.Errorf("cluster %d has cpufreq data without sysfs", c.ID)
				}
			}
		})
	}
}

func TestCorpusDetails(t *testing.T) {
	t.Run("RK3588 MIDR fields and crypto", func(t *testing.T) {
		in := corpusInfo(t, "RK3588-5.10.66.cpuinfo")
		c := in.CPUs[4]
		if c.CoreName != "Cortex-A76" || c.Implementer != "0x41" || c.Part != "0xd0b" || *c.Variant != 4 || *c.Revision != 0 || c.Vendor != "ARM" {
			t.Errorf("cpu4 = %+v", c)
		}
		if !in.Heterogeneous {
			t.Error("RK3588 not heterogeneous")
		}
		f := in.Features
		if f.Source != "Features" || !*f.CryptoExtensions || !*f.NEON || *f.SVE || f.AESNI != nil {
			t.Errorf("features = %+v", f)
		}
	})
	t.Run("Raspberry Pi 4 lacks crypto", func(t *testing.T) {
		in := corpusInfo(t, "BCM2711B0-5.10.78-v8.cpuinfo")
		if *in.Features.CryptoExtensions || *in.Features.AES || !*in.Features.NEON {
			t.Errorf("features = %+v", in.Features)
		}
	})
	t.Run("ARM1176 single core: no NEON", func(t *testing.T) {
		in := corpusInfo(t, "BCM2835-3.1.9+.cpuinfo")
		if len(in.CPUs) != 1 || *in.Features.NEON || in.Hardware != "BCM2708" || in.CPUs[0].ModelName != "ARMv6-compatible processor rev 7 (v6l)" {
			t.Errorf("cpus = %+v, features = %+v, hardware %q", in.CPUs, in.Features, in.Hardware)
		}
	})
	t.Run("Yitian 710 has SVE2", func(t *testing.T) {
		in := corpusInfo(t, "yitian-710")
		if !*in.Features.SVE || !*in.Features.SVE2 {
			t.Errorf("features = %+v", in.Features)
		}
	})
	t.Run("shared MIDR block is noted", func(t *testing.T) {
		in := corpusInfo(t, "Qualcomm-APQ8064A.cpuinfo")
		if !hasNote(in, "core type of each CPU") {
			t.Errorf("notes = %+v", in.Notes)
		}
	})
	t.Run("D1 RISC-V fields", func(t *testing.T) {
		c := corpusInfo(t, "Allwinner-D1-6.5.0.cpuinfo").CPUs[0]
		if c.Uarch != "thead,c906" || c.MVendorID != "0x5b7" || c.MArchID != "0x0" || c.MImpID != "0x0" || c.MMU != "sv39" ||
			!strings.HasPrefix(c.ISA, "rv64imafdc") || c.Vendor != "T-Head" || c.Hart == nil || *c.Hart != 0 {
			t.Errorf("cpu0 = %+v", c)
		}
	})
	t.Run("RISC-V without uarch is unnamed with a note", func(t *testing.T) {
		in := corpusInfo(t, "Kendryte-K210-5.1.0-rc5.cpuinfo")
		if in.CPUs[0].CoreName != "" || !hasNote(in, "core type (cpu 0-1)") {
			t.Errorf("cpu0 %+v notes %+v", in.CPUs[0], in.Notes)
		}
	})
	t.Run("LoongArch SIMD", func(t *testing.T) {
		in := corpusInfo(t, "Loongson-3A5000M-4.19.0.cpuinfo")
		if in.Features.Source != "features" || !*in.Features.LSX || !*in.Features.LASX || in.CPUs[0].CPUInfoMHz == nil || *in.CPUs[0].CPUInfoMHz != 2000 {
			t.Errorf("features %+v cpu0 %+v", in.Features, in.CPUs[0])
		}
	})
	t.Run("SpacemiT X60 vector", func(t *testing.T) {
		in := corpusInfo(t, "rv-spacemit-x60-milk-v-jupiter")
		if !*in.Features.RVV || in.Features.Source != "isa" {
			t.Errorf("features %+v", in.Features)
		}
	})
}

func hasNote(in Info, itemPrefix string) bool {
	for _, n := range in.Notes {
		if strings.HasPrefix(n.Item, itemPrefix) {
			return true
		}
	}
	return false
}
