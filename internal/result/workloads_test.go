package result

import (
	"encoding/json"
	"testing"
)

func workloadPhase(t *testing.T, name string, figs any, disturbed bool) Phase {
	t.Helper()
	b, err := json.Marshal(figs)
	if err != nil {
		t.Fatal(err)
	}
	p := Phase{Name: name, Status: PhaseOK, Figures: b}
	if disturbed {
		p.Judgement = &Judgement{Disturbed: true, Reason: "other tasks used 30% of the CPU time"}
	}
	return p
}

func TestBuildWorkloads(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	llama := LlamaFigures{PPTokensS: f(200), TGTokensS: f(25)}
	withPower := workloadPhase(t, PhaseLlama, llama, false)
	withPower.PowerW = f(8)
	for _, mhz := range []*float64{f(2112), nil, f(1560)} {
		withPower.Samples = append(withPower.Samples, Sample{MemClockMHz: mhz})
	}
	tests := []struct {
		name     string
		phases   []Phase
		check    func(t *testing.T, w *Workloads)
		excluded []string
	}{
		{"none", []Phase{{Name: PhaseClock}}, func(t *testing.T, w *Workloads) {
			if w != nil {
				t.Errorf("workloads %+v", w)
			}
		}, nil},
		{"zstd", []Phase{workloadPhase(t, PhaseZstd, ZstdFigures{MBs: f(3.5)}, false)}, func(t *testing.T, w *Workloads) {
			if w == nil || w.Zstd == nil || *w.Zstd.MBs != 3.5 {
				t.Errorf("workloads %+v", w)
			}
		}, nil},
		{"zstd failed", []Phase{workloadPhase(t, PhaseZstd, ZstdFigures{Error: "x"}, false)}, func(t *testing.T, w *Workloads) {
			if w != nil {
				t.Errorf("workloads %+v", w)
			}
		}, nil},
		{"disturbed zstd and armcap stay in their phases", []Phase{
			workloadPhase(t, PhaseZstd, ZstdFigures{MBs: f(3.5)}, true),
			workloadPhase(t, PhaseArmcap, ArmcapFigures{CPUs: []int{4}, Ratios: []ArmcapRatio{{Cipher: "aes-256-gcm", Ratio: f(9)}}}, true),
		}, func(t *testing.T, w *Workloads) {
			if w != nil {
				t.Errorf("workloads %+v", w)
			}
		}, nil},
		{"armcap per core type", []Phase{
			workloadPhase(t, PhaseArmcap, ArmcapFigures{CPUs: []int{0}, Ratios: []ArmcapRatio{{Cipher: "a", Ratio: f(3)}}}, false),
			workloadPhase(t, PhaseArmcap, ArmcapFigures{CPUs: []int{4}, Ratios: []ArmcapRatio{{Cipher: "a", Ratio: f(5)}}}, false),
		}, func(t *testing.T, w *Workloads) {
			if w == nil || len(w.Armcap) != 2 || w.Armcap[1].CPUs[0] != 4 {
				t.Errorf("workloads %+v", w)
			}
		}, nil},
		{"llama with power and memory clock", []Phase{withPower}, func(t *testing.T, w *Workloads) {
			l := w.Llama
			if l == nil || l.PowerW == nil || *l.PPTokensSPerW != 25 || *l.TGTokensSPerW != 3.125 || l.MemClockMHz == nil || *l.MemClockMHz != 1836 {
				t.Errorf("llama %+v", l)
			}
		}, nil},
		{"llama without power", []Phase{workloadPhase(t, PhaseLlama, llama, false)}, func(t *testing.T, w *Workloads) {
			l := w.Llama
			if l == nil || l.PowerW != nil || l.PPTokensSPerW != nil || l.MemClockMHz != nil {
				t.Errorf("llama %+v", l)
			}
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := BuildSummary(tc.phases)
			tc.check(t, s.Workloads)
			var got []string
			for _, e := range s.Excluded {
				got = append(got, e.Figure)
				if !e.Lost || e.Reason == "" {
					t.Errorf("excluded %+v", e)
				}
			}
			if len(got) != len(tc.excluded) {
				t.Fatalf("excluded %v, want %v", got, tc.excluded)
			}
			for i := range got {
				if got[i] != tc.excluded[i] {
					t.Errorf("excluded %v, want %v", got, tc.excluded)
				}
			}
		})
	}
}

// TestWorkloadsHPLSSH: hpl and ssh-ciphers give their headlines; a failed
// or disturbed phase gives none, and excludes nothing (a warning only).
func TestWorkloadsHPLSSH(t *testing.T) {
	g, w, mbs := 12.5, 5.0, 51.9
	hplFig, _ := json.Marshal(HPLFigures{Gflops: &g, Runs: []HPLRun{{Variant: "WR11C2R4", N: 20000, NB: 128, Gflops: g}}})
	sshFig, _ := json.Marshal(SSHFigures{Ciphers: []SSHCipher{{Cipher: "chacha20-poly1305@openssh.com", MBs: &mbs}, {Cipher: "aes128-ctr", Error: "exit status 255"}}})
	disturbed := &Judgement{Disturbed: true, Reason: "other tasks used 40.0% of the CPU time (more than 5%)"}
	tests := []struct {
		name   string
		phases []Phase
		check  func(*Workloads) bool
	}{
		{"none", []Phase{{Name: PhaseClock, Status: PhaseOK}}, func(x *Workloads) bool { return x == nil }},
		{"hpl without power", []Phase{{Name: PhaseHPL, Status: PhaseOK, Figures: hplFig}},
			func(x *Workloads) bool {
				return x.HPL != nil && *x.HPL.Gflops == g && x.HPL.GflopsPerW == nil && x.SSH == nil
			}},
		{"hpl with power", []Phase{{Name: PhaseHPL, Status: PhaseOK, Figures: hplFig, Evidence: Evidence{PowerW: &w}}},
			func(x *Workloads) bool { return x.HPL.GflopsPerW != nil && *x.HPL.GflopsPerW == 2.5 }},
		{"failed hpl", []Phase{{Name: PhaseHPL, Status: PhaseFailed, Figures: hplFig}}, func(x *Workloads) bool { return x == nil }},
		{"ssh", []Phase{{Name: PhaseSSHCiphers, Status: PhaseOK, Figures: sshFig}},
			func(x *Workloads) bool {
				v, ok := x.SSH.MBs["aes128-ctr"]
				return *x.SSH.MBs["chacha20-poly1305@openssh.com"] == mbs && ok && v == nil
			}},
		{"disturbed", []Phase{{Name: PhaseHPL, Status: PhaseOK, Figures: hplFig, Judgement: disturbed}, {Name: PhaseSSHCiphers, Status: PhaseOK, Figures: sshFig, Judgement: disturbed}},
			func(x *Workloads) bool { return x == nil }},
	}
	for _, tt := range tests {
		s := BuildSummary(tt.phases)
		if !tt.check(s.Workloads) {
			t.Errorf("%s: %+v", tt.name, s.Workloads)
		}
		if len(s.Excluded) != 0 {
			t.Errorf("%s: excluded %+v", tt.name, s.Excluded)
		}
	}
}
