package compare

import (
	"strings"
	"testing"

	"boardbench/internal/result"
)

func TestCompareWorkloads(t *testing.T) {
	a, b := base(), base()
	a.Summary.Workloads = &result.Workloads{
		Zstd:   &result.ZstdFigures{MBs: f64(2), Seconds: f64(67.1)},
		Armcap: []result.ArmcapFigures{{CPUs: []int{4}, Core: "Cortex-A76", Ratios: []result.ArmcapRatio{{Cipher: "aes-256-gcm", Ratio: f64(10)}}}},
		Llama:  &result.LlamaFigures{PPTokensS: f64(100), TGTokensS: f64(20), PPTokensSPerW: f64(12.5), TGTokensSPerW: f64(2.5), MemClockMHz: f64(2112)},
	}
	b.Summary.Workloads = &result.Workloads{
		Zstd:   &result.ZstdFigures{MBs: f64(3), Seconds: f64(44.7)},
		Armcap: []result.ArmcapFigures{{CPUs: []int{4}, Core: "Cortex-A76", Ratios: []result.ArmcapRatio{{Cipher: "aes-256-gcm", Ratio: f64(12)}}}},
		Llama:  &result.LlamaFigures{PPTokensS: f64(110), TGTokensS: f64(20)},
	}
	cmp, err := Compare([]Input{{Label: "a", Result: a}, {Label: "b", Result: b}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]*float64{}
	for _, f := range cmp.Figures {
		if strings.HasPrefix(f.Key, "workloads") {
			got[f.Key] = f.ChangePct
			if !strings.HasPrefix(f.Key, "workloads.") || strings.Contains(f.Key, ".level") || strings.Contains(f.Key, "input_bytes") {
				t.Errorf("unexpected workload figure %q", f.Key)
			}
		}
	}
	want := map[string]any{
		"workloads.zstd.mb_s":                           50.0,
		"workloads.armcap.ratio/Cortex-A76/aes-256-gcm": 20.0,
		"workloads.llama.pp_tokens_s":                   10.0,
		"workloads.llama.tg_tokens_s":                   0.0,
		"workloads.llama.pp_tokens_s_per_w":             nil, // b has no power source
		"workloads.llama.mem_clock_mhz":                 nil,
	}
	for k, w := range want {
		ch, ok := got[k]
		if !ok {
			t.Errorf("no figure %s (have %v)", k, got)
			continue
		}
		if w == nil {
			if ch[1] != nil {
				t.Errorf("%s: change %v without a value in b", k, *ch[1])
			}
			continue
		}
		if ch[1] == nil || *ch[1] != w.(float64) {
			t.Errorf("%s: change %v, want %v", k, ch[1], w)
		}
	}
	if _, ok := got["workloads.zstd.seconds"]; !ok {
		t.Error("no zstd seconds")
	}
}

// TestCompareWorkloadsHPLSSH: the workloads' headline figures (summary.workloads)
// are compared with their names and units; a cipher one result lacks is
// null there.
func TestCompareWorkloadsHPLSSH(t *testing.T) {
	a, b := base(), base()
	a.Summary.Workloads = &result.Workloads{
		HPL: &result.HPLHeadline{Gflops: f64(10), GflopsPerW: f64(2)},
		SSH: &result.SSHHeadline{MBs: map[string]*float64{"chacha20-poly1305@openssh.com": f64(50), "aes128-ctr": f64(20)}},
	}
	b.Summary.Workloads = &result.Workloads{
		HPL: &result.HPLHeadline{Gflops: f64(15)},
		SSH: &result.SSHHeadline{MBs: map[string]*float64{"chacha20-poly1305@openssh.com": f64(55)}},
	}
	cmp, err := Compare([]Input{{Label: "a", Result: a}, {Label: "b", Result: b}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Figure{}
	for _, f := range cmp.Figures {
		got[f.Key] = f
	}
	tests := []struct {
		key, name, unit string
		a, b            *float64
		change          *float64
	}{
		{"workloads.hpl.gflops", "HPL (Linpack)", "Gflops", f64(10), f64(15), f64(50)},
		{"workloads.hpl.gflops_per_w", "HPL (Linpack) per watt", "Gflops/W", f64(2), nil, nil},
		{"workloads.ssh.mb_s.chacha20-poly1305@openssh.com", "ssh cipher chacha20-poly1305@openssh.com", "MB/s", f64(50), f64(55), f64(10)},
		{"workloads.ssh.mb_s.aes128-ctr", "ssh cipher aes128-ctr", "MB/s", f64(20), nil, nil},
	}
	eq := func(x, y *float64) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	for _, tt := range tests {
		f, ok := got[tt.key]
		if !ok {
			t.Errorf("%s not compared", tt.key)
			continue
		}
		if f.Name != tt.name || f.Unit != tt.unit || !eq(f.Values[0], tt.a) || !eq(f.Values[1], tt.b) || !eq(f.ChangePct[1], tt.change) {
			t.Errorf("%s = %+v", tt.key, f)
		}
	}
}
