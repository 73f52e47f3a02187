package result

import (
	"encoding/json"
	"testing"
)

func TestWorkloadsOf(t *testing.T) {
	g, w, mbs := 12.5, 5.0, 51.9
	hplFig, _ := json.Marshal(HPLFigures{Gflops: &g, Runs: []HPLRun{{Variant: "WR11C2R4", N: 20000, NB: 128, Gflops: g}}})
	sshFig, _ := json.Marshal(SSHFigures{Ciphers: []SSHCipher{{Cipher: "chacha20-poly1305@openssh.com", MBs: &mbs}, {Cipher: "aes128-ctr", Error: "exit status 255"}}})
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
	}
	for _, tt := range tests {
		if got := workloadsOf(tt.phases); !tt.check(got) {
			t.Errorf("%s: %+v", tt.name, got)
		}
	}
}
