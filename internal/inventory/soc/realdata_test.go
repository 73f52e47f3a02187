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
// tree), the cpu section left empty so that the cores come from cpuinfo.
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
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data := shareddata.ReadFile(t, "cpuinfo/"+c.file)
			h := fixture.Host(t, map[string]string{"/proc/cpuinfo": string(data)})
			_, s := Collect(h, cpu.Info{}, true)
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
