package compare

import (
	"strings"
	"testing"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

// xeon is a run on an x86 server of one core type, with an AES figure far
// below the RK3588's (no spread recorded for AES).
func xeon() *result.Result {
	r := base()
	r.Info.Board.Model = "Dell PowerEdge R630"
	r.Info.SoC.Guess = ""
	r.Info.OS.Userland.Arch, r.Info.OS.Userland.Bits = "amd64", nil // as an imported log records it
	r.Info.OS.Kernel.Machine = "x86_64"
	r.Info.CPU.Clusters = []cpu.Cluster{{CPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}, Core: "Xeon E5-2680 v4"}}
	r.Summary.SevenZipSingleMIPS = []result.Value{{CPU: 0, Core: "Xeon E5-2680 v4", Value: 4100}}
	r.Summary.AES256At16K = []result.Value{{CPU: 0, Core: "Xeon E5-2680 v4", Value: 400000}}
	r.Summary.ClockMHz = []result.Value{{CPU: 0, Core: "Xeon E5-2680 v4", Value: 3300}}
	return r
}

func TestCrossBoardByRole(t *testing.T) {
	rk := base()
	rk.Summary.AES256At16K = []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 700000}, {CPU: 4, Core: "Cortex-A76", Value: 1520000}}
	amd := base()
	amd.Info.OS.Userland.Arch = "amd64"
	amd.Info.OS.Userland.Bits = func() *int { v := 64; return &v }()
	c, err := Compare([]Input{{Label: "rk", Result: rk}, {Label: "xeon", Result: xeon()}, {Label: "amd", Result: amd}})
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]Figure{}
	for _, f := range c.Figures {
		byKey[f.Key] = f
	}
	fast := byKey["sevenzip_single_mips/role:fastest"]
	if fast.Values == nil || *fast.Values[0] != 3100 || *fast.Values[1] != 4100 || fast.Role != "fastest" ||
		fast.Core != "fastest core type (Cortex-A76 | Xeon E5-2680 v4)" {
		t.Errorf("fastest 7-Zip single: %+v", fast)
	}
	slow := byKey["sevenzip_single_mips/role:slowest"]
	if slow.Values == nil || *slow.Values[0] != 1200 || slow.Values[1] != nil {
		t.Errorf("slowest 7-Zip single: %+v; want the A55 alone (the Xeon has one core type, the fastest)", slow)
	}
	aes := byKey["aes256_16k/role:fastest"]
	if aes.ChangePct == nil || aes.ChangePct[1] == nil || *aes.ChangePct[1] != -73.68 || !aes.BeyondSpread[1] {
		t.Errorf("AES fastest: %+v; want -73.68 %% marked beyond the spread", aes)
	}
	if len(c.Notes) == 0 || !strings.Contains(c.Notes[0], "matched by role") || !strings.Contains(c.Notes[0], "Cortex-A76 > Cortex-A55") {
		t.Errorf("notes %q do not say the figures are matched by role", c.Notes)
	}
	for _, x := range c.Conditions {
		if x.Name == "userland" && (x.Values[1] != "amd64 (64-bit)" || x.Values[1] != x.Values[2]) {
			t.Errorf("userland %q: amd64 without a recorded bitness is amd64 (64-bit)", x.Values)
		}
	}
	var b strings.Builder
	c.WriteText(&b)
	if !strings.Contains(b.String(), "fastest core type") || !strings.Contains(b.String(), "-73.7%)*") {
		t.Errorf("text:\n%s", b.String())
	}
}

// TestRoleRanking: core types rank by their 7-Zip single-threaded rating,
// else the measured clock, else the highest cpufreq clock.
func TestRoleRanking(t *testing.T) {
	r := base()
	r.Summary.SevenZipSingleMIPS = nil
	roles := coreRoles(r)
	if roles["Cortex-A76"] != "fastest" || roles["Cortex-A55"] != "slowest" {
		t.Errorf("by measured clock: %v", roles)
	}
	r.Summary.ClockMHz = nil
	r.Summary.MemcpyMBs = []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 1}, {CPU: 4, Core: "Cortex-A76", Value: 1}}
	hi, lo := 2400.0, 1800.0
	r.Info.CPU.Clusters[0].MaxMHz, r.Info.CPU.Clusters[1].MaxMHz = &lo, &hi
	if roles = coreRoles(r); roles["Cortex-A76"] != "fastest" || roles["Cortex-A55"] != "slowest" {
		t.Errorf("by cpufreq clock: %v", roles)
	}
}

// TestMatchByRoleOnlyWhenNamesCannot: core types among another result's
// are matched by name; sets of which neither holds the other, by role.
func TestMatchByRoleOnlyWhenNamesCannot(t *testing.T) {
	one := func(cores ...string) Input {
		r := base()
		r.Summary.SevenZipSingleMIPS, r.Summary.ClockMHz = nil, nil
		for i, c := range cores {
			r.Summary.SevenZipSingleMIPS = append(r.Summary.SevenZipSingleMIPS, result.Value{CPU: i, Core: c, Value: float64(1000 * (len(cores) - i))})
		}
		return Input{Label: cores[0], Result: r}
	}
	for _, tc := range []struct {
		in   []Input
		role bool
	}{
		{[]Input{one("Cortex-A76", "Cortex-A55"), one("Cortex-A76")}, false},
		{[]Input{one("Cortex-A76"), one("Cortex-A76", "Cortex-A55")}, false},
		{[]Input{one("Cortex-A76", "Cortex-A55"), one("Cortex-A76", "Cortex-A55")}, false},
		{[]Input{one("Cortex-A78", "Cortex-A55"), one("Cortex-A76", "Cortex-A55")}, true},
		{[]Input{one("Cortex-A76", "Cortex-A55"), one("Xeon E5-2680 v4")}, true},
		{[]Input{one("Cortex-A72"), one("Cortex-A76", "Cortex-A55")}, true},
	} {
		if got := matchByRole(tc.in); got != tc.role {
			t.Errorf("%s against %s: by role %v, want %v", tc.in[0].Label, tc.in[1].Label, got, tc.role)
		}
	}
}
