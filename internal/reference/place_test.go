package reference

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// rk3588Set is a synthetic reference set: eight clean RK3588 results at
// 2256–2400 MHz with the memory controller at performance / 2112 MHz, a
// disturbed one, and four of another SoC with the same cores.
func rk3588Set() *Set {
	s := &Set{Version: FormatVersion}
	dmc := 2112.0
	for i := 0; i < 8; i++ {
		clock := 2256 + float64(i)*20
		s.Entries = append(s.Entries, Entry{Log: fmt.Sprintf("r%d", i), SoC: "Rockchip RK3588/RK3588s", Cores: "4×Cortex-A55 + 4×Cortex-A76",
			ClockMHz: []float64{1800, clock}, SevenZip: "16.02", Bits: 64, KernelKind: "vendor", Governor: "performance",
			DMCGovernor: "performance", DMCMHz: &dmc,
			Figures: map[string]float64{KeyClock: clock, KeyMulti: 16000 + float64(i)*100, KeySingle: 3100 + float64(i)*10,
				KeyAES: 1300000 + float64(i)*1000, KeyMemcpy: 10500 + float64(i)*50, KeyMemset: 29000 + float64(i)*50}})
	}
	s.Entries = append(s.Entries, Entry{Log: "hot", SoC: "Rockchip RK3588", Cores: "4×Cortex-A55 + 4×Cortex-A76", Disturbed: []string{"throttling"},
		Figures: map[string]float64{KeyMulti: 1}})
	for i := 0; i < 4; i++ {
		s.Entries = append(s.Entries, Entry{Log: fmt.Sprintf("s%d", i), SoC: "Rockchip RK3588S2", Cores: "4×Cortex-A55 + 4×Cortex-A76", SevenZip: "16.02", Bits: 64,
			Figures: map[string]float64{KeyClock: 2300, KeyMulti: 15000 + float64(i)*100}})
	}
	return s
}

// rk3588Result is a `run` result on an RK3588 with the given clock and
// 7-Zip multi figure.
func rk3588Result(soc string, clock, multi, memcpy float64) *result.Result {
	bits := 64
	r := &result.Result{Command: "run", Options: map[string]any{},
		Info: &inventory.Info{SoC: socOf(soc), CPU: cpu.Info{Clusters: []cpu.Cluster{
			{CPUs: []int{0, 1, 2, 3}, CoreName: "Cortex-A55", Governor: "schedutil"},
			{CPUs: []int{4, 5}, CoreName: "Cortex-A76", Governor: "schedutil"},
			{CPUs: []int{6, 7}, CoreName: "Cortex-A76", Governor: "schedutil"}}}},
		Tools:  []result.ToolVersion{{Name: "7z", Version: "16.02"}},
		Tuning: result.Tuning{Changed: []string{"policy0 governor schedutil → performance"}},
	}
	r.Info.OS.Userland.Arch, r.Info.OS.Userland.Bits = "arm64", &bits
	r.Info.OS.Kernel.Release = "6.1.43-vendor-rk35xx"
	m := multi
	r.Summary = result.Summary{ClockMHz: []result.Value{{CPU: 0, Value: 1800}, {CPU: 4, Value: clock}}, SevenZipMultiMIPS: &m,
		SevenZipSingleMIPS: []result.Value{{CPU: 4, Value: 3120}}, AES256At16K: []result.Value{{CPU: 4, Value: 1303000}},
		MemcpyMBs: []result.Value{{CPU: 4, Value: memcpy}}, MemsetMBs: []result.Value{{CPU: 4, Value: 29100}}}
	return r
}

func socOf(name string) (s soc.SoC) { s.Guess = name; return s }

func figure(t *testing.T, p Placement, key string) FigurePlacement {
	t.Helper()
	for _, f := range p.Figures {
		if f.Key == key {
			return f
		}
	}
	t.Fatalf("no figure %s in %+v", key, p)
	return FigurePlacement{}
}

func causeNames(cs []Cause) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func TestPlaceNormal(t *testing.T) {
	p := rk3588Set().Place(rk3588Result("Rockchip RK3588", 2390, 16400, 10700))
	if p.Basis != BasisSoC || p.NotPlaced != "" {
		t.Fatalf("placement = %+v", p)
	}
	m := figure(t, p, KeyMulti)
	// the disturbed result is left out; the RK3588S2 results are another SoC
	if m.N != 8 || m.Median == nil || *m.Median != 16350 || m.Percentile == nil || *m.Percentile != 56.25 || m.Below {
		t.Errorf("7-zip multi = %+v", m)
	}
	if m.P10 == nil || m.P90 == nil || !(*m.P10 < *m.Median && *m.Median < *m.P90) {
		t.Errorf("p10/p90 = %v %v", m.P10, m.P90)
	}
	if m.Population != "7-Zip 16.02" {
		t.Errorf("population = %q", m.Population)
	}
}

// TestPlaceLowClock: a result 25% below the median with a clock of 1800
// MHz: the clock deficit is the first cause, with its share and evidence.
func TestPlaceLowClock(t *testing.T) {
	r := rk3588Result("Rockchip RK3588", 1800, 12300, 10700)
	r.Findings = []finding.Finding{{ID: "throttling", Severity: finding.Warning, Title: "Throttling: clocks dropped below the maximum under load",
		Evidence: []string{"cpu4: 1800 MHz at 85 °C"}}}
	p := rk3588Set().Place(r)
	m := figure(t, p, KeyMulti)
	if got := strings.Join(causeNames(m.Causes), ","); got != CauseClock+","+CauseThrottling {
		t.Errorf("causes = %s", got)
	}
	if !m.Below || len(m.Causes) == 0 || m.Causes[0].Name != CauseClock || m.Causes[0].Explains == nil {
		t.Fatalf("7-zip multi = %+v", m)
	}
	ev := m.Causes[0].Evidence
	for _, want := range []string{"measured 1800 MHz", "the 8 Rockchip RK3588/RK3588s results ran at", "2270–2382 MHz"} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence %q lacks %q", ev, want)
		}
	}
	// the clock explains (1-1800/2326)/(1-12300/16350) of the gap, capped at 1
	if got := *m.Causes[0].Explains; got < 0.9 || got > 1 {
		t.Errorf("share = %v", got)
	}
	if mem := figure(t, p, KeyMemcpy); mem.Below {
		t.Errorf("memcpy judged below: %+v", mem)
	}
}

// TestPlaceDMCPowersave: memory figures far below with the memory
// controller at powersave and 528 MHz: the memory controller is the cause,
// measured against the reference results' 2112 MHz.
func TestPlaceDMCPowersave(t *testing.T) {
	r := rk3588Result("Rockchip RK3588", 2390, 16300, 5200)
	cur := 528.0
	r.Info.Memory.Controllers = []memory.Controller{{Name: "dmc", Governor: "powersave", CurMHz: &cur}}
	p := rk3588Set().Place(r)
	m := figure(t, p, KeyMemcpy)
	if !m.Below || len(m.Causes) == 0 || m.Causes[0].Name != CauseDMC {
		t.Fatalf("memcpy = %+v", m)
	}
	ev := m.Causes[0].Evidence
	for _, want := range []string{"governor powersave at 528 MHz", "8 performance", "2112 MHz"} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence %q lacks %q", ev, want)
		}
	}
	if m.Causes[0].Explains == nil {
		t.Error("the memory clock deficit has no share")
	}
	// tuned to performance for the run: the governor is no longer a cause
	r.Tuning.Changed = append(r.Tuning.Changed, "devfreq dmc governor powersave → performance")
	m = figure(t, rk3588Set().Place(r), KeyMemcpy)
	if !m.Below || len(m.Causes) != 0 || m.NoCause == "" {
		t.Errorf("tuned DMC: %+v", m)
	}
}

// Test32BitUserland: the set holds only 64-bit RK3588 results, so a
// 32-bit result is compared with them and its userland is a cause.
func Test32BitUserland(t *testing.T) {
	r := rk3588Result("Rockchip RK3588", 2390, 12000, 10700)
	bits := 32
	r.Info.OS.Userland.Arch, r.Info.OS.Userland.Bits = "armhf", &bits
	m := figure(t, rk3588Set().Place(r), KeyMulti)
	if !m.Below || !strings.Contains(strings.Join(causeNames(m.Causes), ","), CauseUserland) {
		t.Fatalf("7-zip multi = %+v", m)
	}
	for _, c := range m.Causes {
		if c.Name == CauseUserland && !strings.Contains(c.Evidence, "32-bit userland (armhf); 8 of the 8") {
			t.Errorf("evidence %q", c.Evidence)
		}
	}
	// with 32-bit results in the set, it is compared with those only
	s := rk3588Set()
	for i := 0; i < 5; i++ {
		s.Entries = append(s.Entries, Entry{Log: fmt.Sprintf("h%d", i), SoC: "Rockchip RK3588", SevenZip: "16.02", Bits: 32,
			Figures: map[string]float64{KeyMulti: 11800 + float64(i)*100}})
	}
	m = figure(t, s.Place(r), KeyMulti)
	if m.N != 5 || m.Population != "7-Zip 16.02, 32-bit userland" || m.Below {
		t.Errorf("32-bit population: %+v", m)
	}
}

// TestPlaceRules: quick results, other 7-Zip versions, few results, the
// core-configuration fallback and an SoC nothing is known of.
func TestPlaceRules(t *testing.T) {
	s := rk3588Set()
	q := rk3588Result("Rockchip RK3588", 2390, 16300, 10700)
	q.Options["quick"] = true
	if p := s.Place(q); !strings.Contains(p.NotPlaced, "quick") || len(p.Figures) != 0 {
		t.Errorf("quick: %+v", p)
	}
	n := rk3588Result("Rockchip RK3588", 2390, 24000, 10700)
	n.Tools[0].Version = "24.09"
	if m := figure(t, s.Place(n), KeyMulti); m.N != 0 || !strings.Contains(m.Note, "not comparable") || m.Below {
		t.Errorf("7-Zip 24.09: %+v", m)
	}
	few := s.Place(rk3588Result("Rockchip RK3588S2", 2300, 10000, 10700))
	m := figure(t, few, KeyMulti)
	if few.Basis != BasisSoC || m.N != 4 || m.Percentile != nil || m.P10 != nil || !strings.Contains(m.Note, "only 4") {
		t.Errorf("few: %+v", m)
	}
	if !m.Below {
		t.Errorf("10000 MIPS is below every one of 4 results and 33%% under their median: %+v", m)
	}
	other := s.Place(rk3588Result("Rockchip RK3582", 2300, 15000, 10700))
	if other.Basis != BasisCores || !strings.Contains(other.Note, "no reference results for SoC Rockchip RK3582") || !strings.Contains(other.Note, "second best") {
		t.Errorf("fallback: %+v", other)
	}
	none := rk3588Result("Allwinner H3", 1200, 3000, 800)
	none.Info.CPU.Clusters = []cpu.Cluster{{CPUs: []int{0, 1, 2, 3}, CoreName: "Cortex-A7"}}
	if p := s.Place(none); p.Basis != "" || !strings.Contains(p.NotPlaced, "no reference results for SoC Allwinner H3, nor for its core configuration (4×Cortex-A7)") {
		t.Errorf("none: %+v", p)
	}
}

// TestByCores: core configurations meet across spellings of one core
// name (a machine's inventory name, a log's device-tree compatible), not
// across other counts or types.
func TestByCores(t *testing.T) {
	s := &Set{Entries: []Entry{
		{Log: "a", Cores: "4×sifive,u74-mc"},
		{Log: "b", Cores: "4×Cortex-A55 + 4×Cortex-A76"},
		{Log: "c", Cores: "2×sifive,u74-mc"},
	}}
	for _, c := range []struct{ cores, want string }{
		{"4×SiFive U74-MC", "a"},
		{"4×Cortex-A55 + 4×Cortex-A76", "b"},
		{"4×cortex-a55 + 4×cortex-a76", "b"},
		{"4×Cortex-A55 + 2×Cortex-A76", ""},
		{"", ""},
	} {
		var got []string
		for _, e := range s.ByCores(c.cores) {
			got = append(got, e.Log)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("ByCores(%q) = %v, want %q", c.cores, got, c.want)
		}
	}
}

func TestRenderPlacement(t *testing.T) {
	var b bytes.Buffer
	RenderPlacement(textfmt.New(&b, false), rk3588Set().Place(rk3588Result("Rockchip RK3588", 1800, 12300, 10700)))
	out := b.String()
	for _, want := range []string{"SoC Rockchip RK3588/RK3588s", "7-zip multi", "clearly below", "1. clock (can explain up to"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

func TestSoCKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Rockchip RK3588/RK3588s", "rk3588"},
		{"Rockchip RK3588", "rk3588"},
		{"BCM2711B0", "bcm2711"},
		{"BCM2710", "bcm2837"},
		{"Broadcom BCM2837", "bcm2837"},
		{"BCM2836/BCM2709", "bcm2836"},
		{"BCM2709", "bcm2836"},
		{"BCM2708", "bcm2835"},
		{"Amlogic Meson G12B (S922X)", "s922x"},
		{"Amlogic S905X2/S905Y2/S905D2/T962X2", "s905x2"},
		{"Allwinner H3/H2+", "h3"},
		{"Intel(R) Celeron(R) CPU N4100 @ 1.10GHz", "n4100"},
		{"Intel(R) Core(TM) i3-N305", "n305"},
		{"SpacemiT K1", "k1"},
		{"", ""},
		{"Rockchip (model not named)", ""},
	} {
		if got := SoCKey(c.in); got != c.want {
			t.Errorf("SoCKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestQuantiles(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	if Quantile(xs, 0.5) != 3 || Quantile(xs, 0.1) != 1.4 || Quantile(xs, 1) != 5 {
		t.Errorf("quantiles %v %v %v", Quantile(xs, 0.5), Quantile(xs, 0.1), Quantile(xs, 1))
	}
	if PercentileOf(xs, 3) != 50 || PercentileOf(xs, 0) != 0 || PercentileOf(xs, 9) != 100 {
		t.Error("percentiles")
	}
}

// TestEmbedded: the shipped set decodes and every entry of it is usable
// data (a figure, an SoC or a core configuration).
func TestEmbedded(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) == 0 || EmbeddedSize() > 64<<10 {
		t.Fatalf("%d entries, %d bytes", len(s.Entries), EmbeddedSize())
	}
	for _, e := range s.Entries {
		if len(e.Figures) == 0 || e.SoC == "" && e.Cores == "" || e.Log == "" {
			t.Errorf("entry %+v", e)
		}
	}
	if _, err := Decode(strings.NewReader("not gzip")); err == nil {
		t.Error("garbage decoded")
	}
}

// TestGapCauses: each cause of a gap is listed only on its own evidence,
// with that evidence; a gap no measured cause explains says so.
func TestGapCauses(t *testing.T) {
	base := func() *result.Result {
		r := rk3588Result("Rockchip RK3588", 2390, 12300, 10700)
		return r
	}
	for _, c := range []struct {
		name   string
		change func(r *result.Result)
		cause  string
		want   string
	}{
		{"none", func(r *result.Result) {}, "", ""},
		{"slow cpufreq governor, not tuned", func(r *result.Result) {
			r.Tuning.Changed = nil
			for i := range r.Info.CPU.Clusters {
				r.Info.CPU.Clusters[i].Governor = "powersave"
			}
		}, CauseGovernor, "cpufreq governor powersave during the run; 8 of the 8 reference results ran performance"},
		{"throttling", func(r *result.Result) {
			r.Findings = []finding.Finding{{ID: "throttling", Severity: finding.Warning, Title: "Throttling", Evidence: []string{"cpu4: 1800 MHz at 85 °C"}}}
		}, CauseThrottling, "Throttling: cpu4: 1800 MHz at 85 °C"},
		{"disturbed 7-Zip runs", func(r *result.Result) {
			r.Summary.SevenZipMultiDisturbedRuns = []int{2}
		}, CauseBackground, "other tasks took CPUs from 1 of the multi-threaded 7-Zip runs"},
		{"mainline kernel against vendor ones", func(r *result.Result) {
			r.Info.OS.Kernel.Release = "6.12.1-edge-rockchip64"
		}, CauseKernel, "8 of the 8 Rockchip RK3588/RK3588s results ran a vendor one"},
		{"swap", func(r *result.Result) {
			r.Findings = []finding.Finding{{ID: "swapping", Severity: finding.Warning, Title: "Swapping during the run", Evidence: []string{"412 MiB swapped out"}}}
		}, CauseSwap, "Swapping during the run: 412 MiB swapped out"},
		{"an info finding is no evidence", func(r *result.Result) {
			r.Findings = []finding.Finding{{ID: "swapping", Severity: finding.Info, Title: "Swap configured"}}
		}, "", ""},
	} {
		r := base()
		c.change(r)
		m := figure(t, rk3588Set().Place(r), KeyMulti)
		if !m.Below {
			t.Errorf("%s: 12300 MIPS not below: %+v", c.name, m)
			continue
		}
		if c.cause == "" {
			if len(m.Causes) != 0 || !strings.Contains(m.NoCause, "none of the measured causes") {
				t.Errorf("%s: causes %v, no cause %q", c.name, causeNames(m.Causes), m.NoCause)
			}
			continue
		}
		if len(m.Causes) != 1 || m.Causes[0].Name != c.cause || !strings.Contains(m.Causes[0].Evidence, c.want) {
			t.Errorf("%s: causes %+v, want only %s with %q", c.name, m.Causes, c.cause, c.want)
		}
	}
}
