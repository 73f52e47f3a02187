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
