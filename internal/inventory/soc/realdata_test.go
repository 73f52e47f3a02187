package soc

import (
	"testing"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/shareddata"

	"gopkg.in/yaml.v3"
)

// TestGeneratedTableInSync checks that socs_table.go holds every SoC of
// socs.yml with its core types; regenerate with `go generate` when it fails.
func TestGeneratedTableInSync(t *testing.T) {
	data := shareddata.ReadFile(t, "arm-socs-table/socs.yml")
	var socs []struct {
		Vendor string `yaml:"vendor"`
		Name   string `yaml:"name"`
		Cores  []struct {
			Implementer int `yaml:"implementer"`
			Part        int `yaml:"part"`
		} `yaml:"cores"`
	}
	if err := yaml.Unmarshal(data, &socs); err != nil {
		t.Fatal(err)
	}
	table := map[string]knownSoC{}
	for _, k := range knownSoCs {
		table[k.Vendor+"/"+k.Name] = k
	}
	if len(table) != len(socs) {
		t.Errorf("table has %d SoCs, socs.yml %d: run go generate ./internal/inventory/soc", len(table), len(socs))
	}
	for _, s := range socs {
		k, ok := table[s.Vendor+"/"+s.Name]
		if !ok {
			t.Errorf("%s %s missing from the generated table", s.Vendor, s.Name)
			continue
		}
		for _, c := range s.Cores {
			found := false
			for _, kc := range k.Cores {
				found = found || (kc.Implementer == c.Implementer && kc.Part == c.Part)
			}
			if !found {
				t.Errorf("%s %s: core 0x%x/0x%x missing", s.Vendor, s.Name, c.Implementer, c.Part)
			}
		}
	}
}

// TestRealCPUInfo guesses SoCs from real /proc/cpuinfo files (no device
// tree), the cpu section collected from the same file, as on a machine
// without sysfs.
func TestRealCPUInfo(t *testing.T) {
	shareddata.ReadFile(t, "arm-socs-table/socs.yml")
	cases := []struct {
		file       string
		confidence string
		guess      string // exact guess when set
		candidate  string // must be a candidate when set
		first      string // must be the first candidate when set
	}{
		{"RK3588-5.10.66.cpuinfo", ConfidenceCoreCombination, "", "Rockchip RK3588", ""},
		{"RK3399-5.10.63-rockchip64.cpuinfo", ConfidenceCoreCombination, "", "Rockchip RK3399", "Rockchip RK3399"},
		{"raspberry-pi4", ConfidenceCoreCombination, "Broadcom BCM2711", "", ""},
		{"Apple-M1.cpuinfo", ConfidenceCoreCombination, "Apple M1", "", ""},
		{"BCM2712-6.1.47.cpuinfo", ConfidenceRevision, "Broadcom BCM2712", "", ""},
		{"BCM2711B0-5.10.78-v8.cpuinfo", ConfidenceRevision, "Broadcom BCM2711", "", ""},
		{"BCM2835-3.1.9+.cpuinfo", ConfidenceRevision, "Broadcom BCM2835", "", ""},
		{"Amlogic-S905X4-5.4.125.cpuinfo", ConfidenceCoreCombination, "", "Amlogic S905X4", ""},
		{"Qualcomm-QRB5165-4.19.125.cpuinfo", ConfidenceCPUInfoHardware, "Qualcomm Snapdragon 865 (SM8250)", "", ""},
		{"Loongson-3A5000-HV-4.19.0-loongson-3.cpuinfo", ConfidenceCPUModel, "Loongson-3A5000-HV", "", ""},
		// Vendor-only Hardware lines narrowed by the core counts.
		{"RK3188-5.10.96-rk3188.cpuinfo", ConfidenceCoreCombination, "Rockchip RK3188", "", ""},
		{"RK3066-3.0.36-rt58.cpuinfo", ConfidenceCoreCombination, "Rockchip RK3066", "", ""},
		{"Exynos-5250.cpuinfo", ConfidenceCoreCombination, "Samsung Exynos 5250", "", ""},
		{"Amlogic-S805-5.10.0-aml-s812.cpuinfo", ConfidenceCoreCombination, "Amlogic S805", "", ""},
		{"Amlogic-S812-5.10.0-aml-s812.cpuinfo", ConfidenceCoreCombination, "Amlogic S802 or Amlogic S812", "", ""},
		// Board names and families.
		{"IMX.6-Quad-3.0.101+.cpuinfo", ConfidenceCoreCombination, "NXP i.MX6 Quad", "", ""},
		{"Nvidia-Tegra-3-3.1.10-armv7l.cpuinfo", ConfidenceCPUInfoHardware, "NVIDIA Tegra 3 (Tegra30)", "", ""},
		{"Allwinner-H3-5.10.60-sunxi.cpuinfo", ConfidenceCoreCombination, "", "Allwinner H3", ""},
		// Full chip names.
		{"Mediatek-MT6771V.cpuinfo", ConfidenceCPUInfoHardware, "MediaTek MT6771V/C", "", ""},
		{"Qualcomm-MSM8996pro-3.18.31-g19caf23.cpuinfo", ConfidenceCPUInfoHardware, "Qualcomm Snapdragon 821 (MSM8996 Pro)", "", ""},
		// MIPS system type, ARM model name.
		{"Ingenic-JZ4780-3.18.3.cpuinfo", ConfidenceCPUInfoHardware, "Ingenic JZ4780", "", ""},
		{"Sophon-SG2300x-5.4.217.cpuinfo", ConfidenceCPUInfoHardware, "Sophgo BM1684X", "", ""},
		// Counts of 64-bit cores; hidden CPUs.
		{"Phytium-FT2000+:64-4.18.0-147.el8.aarch64.cpuinfo", ConfidenceCoreCombination, "Phytium FT-2000+/64", "", ""},
		{"Nvidia-Jetson-TX2-4.4.15-tegra-mode-1.cpuinfo", ConfidenceCoreCombination, "", "NVIDIA Tegra X2 (Tegra186)", ""},
		// RISC-V cores and harts.
		{"StarFive-JH7100-5.18.0-starfive-5.18.cpuinfo", ConfidenceCoreCombination, "StarFive JH7100", "", ""},
		{"Sophon-SG2042-6.1.18.cpuinfo", ConfidenceCoreCombination, "Sophgo SG2042", "", ""},
		{"rv-lpi4a", ConfidenceCoreCombination, "T-Head TH1520", "", ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data := shareddata.ReadFile(t, "cpuinfo/"+c.file)
			h := fixture.Host(t, map[string]string{"/proc/cpuinfo": string(data)})
			_, s := Collect(h, cpu.Collect(h), true)
			if s.Confidence != c.confidence || (c.guess != "" && s.Guess != c.guess) {
				t.Errorf("got %q (%s), want %q (%s): %s", s.Guess, s.Confidence, c.guess, c.confidence, s.Reason)
			}
			if c.candidate != "" && !contains(s.Candidates, c.candidate) {
				t.Errorf("candidates %v lack %q", s.Candidates, c.candidate)
			}
			if c.first != "" && (len(s.Candidates) == 0 || s.Candidates[0] != c.first) {
				t.Errorf("first candidate of %v is not %q", s.Candidates, c.first)
			}
		})
	}
}
