package compare

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

func f64(v float64) *float64 { return &v }
func iptr(v int) *int        { return &v }

// base is a run on an RK3588 board; variants change it in known ways.
func base() *result.Result {
	in := &inventory.Info{}
	in.Board.Model = "Radxa ROCK 5B"
	in.SoC.Guess = "Rockchip RK3588"
	in.OS.Kernel.Release = "6.1.0-rk"
	in.OS.Kernel.Machine = "aarch64"
	in.OS.Userland.Arch = "arm64"
	in.OS.Userland.Bits = iptr(64)
	in.OS.Distro.PrettyName = "Debian GNU/Linux 12 (bookworm)"
	in.CPU.Clusters = []cpu.Cluster{{CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", Governor: "schedutil"}, {CPUs: []int{4, 5}, Core: "Cortex-A76", Governor: "schedutil"}}
	r := result.New("run", in, nil)
	r.Status = result.StatusComplete
	r.StartedAt = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	r.Tools = []result.ToolVersion{{Name: "7zip", Version: "24.09"}, {Name: "openssl", Version: "3.0.15"}}
	r.Summary = result.BuildSummary(nil)
	r.Summary.SevenZipMultiMIPS = f64(16000)
	r.Summary.SevenZipMultiRuns = []float64{15800, 16000, 16200} // spread 2.5 %
	r.Summary.SevenZipMultiBasis = result.BasisAllRuns
	r.Summary.SevenZipSingleMIPS = []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 1200}, {CPU: 4, Core: "Cortex-A76", Value: 3100}}
	r.Summary.ClockMHz = []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 1800}, {CPU: 4, Core: "Cortex-A76", Value: 2350}}
	r.Summary.Valid = true
	return r
}

func TestCompareKnownDifferences(t *testing.T) {
	a := base()
	b := base()
	b.Info.OS.Kernel.Release = "6.8.0-rk"
	b.Info.OS.Userland.Arch, b.Info.OS.Userland.Bits = "armhf", iptr(32)
	b.Tools[0].Version = "16.02"
	b.Summary.SevenZipMultiMIPS = f64(16200)     // another 7-Zip version: not comparable
	b.Summary.SevenZipSingleMIPS[1].Value = 2790 // likewise
	b.Summary.ClockMHz[1].Value = 2115           // -10 %: no spread recorded, beyond 5 %
	b.Summary.ClockMHz[0].Value = 1850           // +2.8 %: no spread recorded, within 5 %
	b.Findings = []finding.Finding{{ID: "throttling", Severity: finding.Warning}}
	c := base()
	c.Summary.SevenZipMultiMIPS = f64(14000) // -12.5 %: beyond the spread
	c.Summary.SevenZipSingleMIPS = c.Summary.SevenZipSingleMIPS[:1]
	d := base()
	d.Summary.SevenZipMultiMIPS = f64(16200) // +1.25 %: within the 2.5 % spread

	cmp, err := Compare([]Input{{Label: "a", Result: a}, {Label: "b", Result: b}, {Label: "c", Result: c}, {Label: "d", Result: d}})
	if err != nil {
		t.Fatal(err)
	}
	var differing []string
	for _, x := range cmp.Differing() {
		differing = append(differing, x.Name)
	}
	want := []string{"kernel", "userland", "7-Zip", "clocks measured", "throttling", "findings"}
	if strings.Join(differing, ",") != strings.Join(want, ",") {
		t.Errorf("differing conditions = %q, want %q", differing, want)
	}
	for i, x := range cmp.Conditions {
		if i < len(want) != x.Differs {
			t.Errorf("condition %d %s (differs %v) out of order: differing ones come first", i, x.Name, x.Differs)
		}
	}
	fig := func(key string) Figure {
		for _, f := range cmp.Figures {
			if f.Key == key {
				return f
			}
		}
		t.Fatalf("no figure %s in %+v", key, cmp.Figures)
		return Figure{}
	}
	multi := fig("sevenzip_multi_mips")
	if multi.ChangePct[1] != nil || multi.BeyondSpread[1] || len(multi.NotComparable) != 4 || !multi.NotComparable[1] {
		t.Errorf("b's multi (7-Zip 16.02 against 24.09): change %v, not comparable %v; want no change, not comparable", multi.ChangePct[1], multi.NotComparable)
	}
	if *multi.ChangePct[3] != 1.25 || multi.BeyondSpread[3] || multi.NotComparable[3] {
		t.Errorf("d's multi: change %v beyond %v; want 1.25 within the spread", *multi.ChangePct[3], multi.BeyondSpread[3])
	}
	if *multi.ChangePct[2] != -12.5 || !multi.BeyondSpread[2] {
		t.Errorf("c's multi: change %v beyond %v; want -12.5 beyond the spread", *multi.ChangePct[2], multi.BeyondSpread[2])
	}
	if *multi.SpreadPct[0] != 2.5 {
		t.Errorf("spread = %v, want 2.5", *multi.SpreadPct[0])
	}
	single := fig("sevenzip_single_mips/Cortex-A76")
	if single.ChangePct[1] != nil || !single.NotComparable[1] {
		t.Errorf("single A76 of another 7-Zip version: change %v; want none, not comparable", single.ChangePct[1])
	}
	if f := fig("clock_mhz/Cortex-A76"); *f.ChangePct[1] != -10 || !f.BeyondSpread[1] || *f.LimitPct[1] != DefaultSpreadPct {
		t.Errorf("A76 clock: change %v beyond %v limit %v; want -10 beyond the 5 %% default", *f.ChangePct[1], f.BeyondSpread[1], *f.LimitPct[1])
	}
	if f := fig("clock_mhz/Cortex-A55"); f.BeyondSpread[1] {
		t.Errorf("A55 clock +2.8 %% marked beyond the 5 %% default")
	}
	if single.Values[2] != nil || single.ChangePct[2] != nil {
		t.Errorf("c has no A76 single figure, got %v", single.Values[2])
	}
	if f := fig("clock_mhz/Cortex-A55"); *f.ChangePct[2] != 0 {
		t.Errorf("clock change = %v, want 0", *f.ChangePct[2])
	}

	var text, md bytes.Buffer
	cmp.WriteText(&text)
	cmp.WriteMarkdown(&md)
	for _, s := range []string{"Conditions that differ", "6.8.0-rk", "16.02", "-12.5%)*", "+1.2%)", "armhf (32-bit)", "16200 (not comparable)", "7-Zip 16.02, the first result"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, text.String())
		}
	}
	if strings.Index(text.String(), "Conditions that differ") > strings.Index(text.String(), "Figures") {
		t.Error("conditions must come before the figures")
	}
	if !strings.Contains(md.String(), "| **kernel** | 6.1.0-rk | 6.8.0-rk | 6.1.0-rk | 6.1.0-rk |") {
		t.Errorf("markdown lacks the kernel row:\n%s", md.String())
	}
}

func TestCompareOtherCommandsFigures(t *testing.T) {
	a, b := base(), base()
	doc := func(v float64) []byte {
		return []byte(`{"schema_version":"1.0","status":"complete","summary":{"storage":{"seq_read_mb_s":` + strings.TrimSpace(formatValue(&v)) + `},"valid":true}}`)
	}
	cmp, err := Compare([]Input{{Label: "a", Result: a, Doc: doc(100)}, {Label: "b", Result: b, Doc: doc(150)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cmp.Figures {
		if f.Key == "storage.seq_read_mb_s" {
			if *f.ChangePct[1] != 50 {
				t.Errorf("change = %v, want 50", *f.ChangePct[1])
			}
			return
		}
	}
	t.Errorf("the storage figure is not compared: %+v", cmp.Figures)
}

func TestCompareNeedsTwo(t *testing.T) {
	if _, err := Compare([]Input{{Label: "a", Result: base()}}); err == nil {
		t.Error("one result compared")
	}
}
