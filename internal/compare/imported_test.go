package compare

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"boardbench/internal/result"
	"boardbench/internal/sbcimport"
	"boardbench/internal/testutil/shareddata"
	"boardbench/internal/textfmt"
)

// importedLogs imports every shared log that parses, in name order.
func importedLogs(t *testing.T) []Input {
	t.Helper()
	var in []Input
	for _, lg := range shareddata.Logs(t) {
		l, err := sbcimport.Parse([]byte(lg.Text))
		if err != nil {
			continue
		}
		// labels as long as file paths, to be wrapped too
		in = append(in, Input{Label: "/home/reviewer/results/" + lg.Name + ".imported.json", Result: l.Result(lg.Name)})
	}
	if len(in) < 200 {
		t.Fatalf("only %d logs imported", len(in))
	}
	return in
}

// TestImportedWidth compares imported results four at a time, over every
// shared log: each line of the text fits in textfmt.MaxWidth, and no
// label shows a made-up CPU number or a raw figure key.
func TestImportedWidth(t *testing.T) {
	in := importedLogs(t)
	for i := 0; i+4 <= len(in); i += 2 {
		group := in[i : i+4]
		c, err := Compare(group)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		c.WriteText(&b)
		out := b.String()
		for n, line := range strings.Split(out, "\n") {
			if w := utf8.RuneCountInString(line); w > textfmt.MaxWidth {
				t.Errorf("%s…: line %d is %d columns wide: %q", group[0].Label, n+1, w, line)
			}
		}
		for _, bad := range []string{"cpu-1", "cpuminer_khs"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s…: comparison shows %q", group[0].Label, bad)
			}
		}
		if t.Failed() {
			t.Log(out)
			return
		}
	}
}

// TestNeverAcrossCoreTypes: figures of core types not known are never
// lined up; figures of different known core types only by role (the
// fastest with the fastest), saying so; the same core type is, by
// position.
func TestNeverAcrossCoreTypes(t *testing.T) {
	pi := base()
	pi.Info.CPU.Clusters = pi.Info.CPU.Clusters[:1]
	pi.Info.CPU.Clusters[0].Core = "Cortex-A72"
	// an imported log naming no CPU: a homogeneous board's core type is
	// known from its machine description
	pi.Summary.SevenZipSingleMIPS = []result.Value{{CPU: sbcimport.UnknownCPU, Value: 1800}}
	n2 := base()
	n2.Info.CPU.Clusters = nil // the log has no topology
	n2.Summary.SevenZipSingleMIPS = []result.Value{{CPU: sbcimport.UnknownCPU, Value: 1187}, {CPU: sbcimport.UnknownCPU, Value: 1669}}
	n2.Summary.MemcpyMBs = []result.Value{{CPU: sbcimport.UnknownCPU, Core: "little core", Value: 1929}}
	other := base()
	other.Info.CPU.Clusters = nil
	other.Summary.SevenZipSingleMIPS = nil
	other.Summary.MemcpyMBs = []result.Value{{CPU: sbcimport.UnknownCPU, Core: "little core", Value: 4236}}
	rk := base() // Cortex-A55 and Cortex-A76, by CPU
	c, err := Compare([]Input{{Label: "pi", Result: pi}, {Label: "n2", Result: n2}, {Label: "other", Result: other}, {Label: "rk", Result: rk}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Figures {
		if !strings.HasPrefix(f.Key, "sevenzip_single_mips/") && !strings.HasPrefix(f.Key, "memcpy_mb_s/") {
			continue
		}
		var have []int
		for i, v := range f.Values {
			if v != nil {
				have = append(have, i)
			}
		}
		if len(have) > 1 && f.Role == "" {
			t.Errorf("%s (%s) lines up results %v: different or unknown core types, not by role", f.Key, f.Core, have)
		}
		if f.Role != "" && (slices.Contains(have, 1) || slices.Contains(have, 2) || !strings.HasPrefix(f.Core, f.Role+" core type (")) {
			t.Errorf("%s (%s) by role %q lines up %v: a result of unknown core types, or the label does not say the role", f.Key, f.Core, f.Role, have)
		}
		if f.Key == "sevenzip_single_mips/role:fastest" && (!slices.Equal(have, []int{0, 3}) || f.Core != "fastest core type (Cortex-A72 | Cortex-A76)") {
			t.Errorf("fastest: %v %q; want the Pi's Cortex-A72 with the RK3588's Cortex-A76", have, f.Core)
		}
		if f.Core == "" || strings.Contains(f.Core, "-1") {
			t.Errorf("%s: core label %q", f.Key, f.Core)
		}
	}
	// the same core type lines up
	rk2 := base()
	rk2.Summary.SevenZipSingleMIPS = []result.Value{{CPU: sbcimport.UnknownCPU, Core: "Cortex-A76", Value: 3000}}
	c, err = Compare([]Input{{Label: "rk", Result: rk}, {Label: "rk2", Result: rk2}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range c.Figures {
		if f.Key == "sevenzip_single_mips/Cortex-A76" {
			found = f.Values[0] != nil && f.Values[1] != nil && *f.Values[1] == 3000
		}
	}
	if !found {
		t.Errorf("Cortex-A76 figures not lined up: %+v", c.Figures)
	}
}

// TestClockTolerance: measured clocks closer than the tolerance are the
// same condition; farther apart, they differ.
func TestClockTolerance(t *testing.T) {
	for _, tc := range []struct {
		a, b   float64
		differ bool
	}{
		{2399, 2398, false},
		{2400, 2391, false}, // 9 MHz
		{600, 609, false},   // 9 MHz, 1.5 %
		{600, 611, true},    // 11 MHz, 1.8 %
		{2400, 2377, false}, // 23 MHz, < 1 %
		{2400, 2370, true},  // 30 MHz, 1.25 %
	} {
		a, b := base(), base()
		a.Summary.ClockMHz[1].Value, b.Summary.ClockMHz[1].Value = tc.a, tc.b
		c, err := Compare([]Input{{Label: "a", Result: a}, {Label: "b", Result: b}})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range c.Conditions {
			if x.Name == "clocks measured" && x.Differs != tc.differ {
				t.Errorf("%.0f against %.0f MHz: differs = %v, want %v", tc.a, tc.b, x.Differs, tc.differ)
			}
		}
	}
}
