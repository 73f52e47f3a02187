package result

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

func TestWorkloadsOf(t *testing.T) {
	g, w, mbs := 12.5, 5.0, 51.9
	hplFig, _ := json.Marshal(HPLFigures{Gflops: &g, Runs: []HPLRun{{Variant: "WR11C2R4", N: 20000, NB: 128, Gflops: g}}})
	sshFig, _ := json.Marshal(SSHFigures{Ciphers: []SSHCipher{{Cipher: "chacha20-poly1305@openssh.com", MBs: &mbs}, {Cipher: "aes128-ctr", Error: "exit status 255"}}})
	disturbed := &Judgement{Disturbed: true, Reason: "other tasks used 40.0% of the CPU time (more than 5%)"}
	tests := []struct {
		name     string
		phases   []Phase
		check    func(*Workloads) bool
		excluded []string
	}{
		{"none", []Phase{{Name: PhaseClock, Status: PhaseOK}}, func(x *Workloads) bool { return x == nil }, nil},
		{"hpl without power", []Phase{{Name: PhaseHPL, Status: PhaseOK, Figures: hplFig}},
			func(x *Workloads) bool {
				return x.HPL != nil && *x.HPL.Gflops == g && x.HPL.GflopsPerW == nil && x.SSH == nil
			}, nil},
		{"hpl with power", []Phase{{Name: PhaseHPL, Status: PhaseOK, Figures: hplFig, Evidence: Evidence{PowerW: &w}}},
			func(x *Workloads) bool { return x.HPL.GflopsPerW != nil && *x.HPL.GflopsPerW == 2.5 }, nil},
		{"failed hpl", []Phase{{Name: PhaseHPL, Status: PhaseFailed, Figures: hplFig}}, func(x *Workloads) bool { return x == nil }, nil},
		{"ssh", []Phase{{Name: PhaseSSHCiphers, Status: PhaseOK, Figures: sshFig}},
			func(x *Workloads) bool {
				v, ok := x.SSH.MBs["aes128-ctr"]
				return *x.SSH.MBs["chacha20-poly1305@openssh.com"] == mbs && ok && v == nil
			}, nil},
		{"disturbed", []Phase{{Name: PhaseHPL, Status: PhaseOK, Figures: hplFig, Judgement: disturbed}, {Name: PhaseSSHCiphers, Status: PhaseOK, Figures: sshFig, Judgement: disturbed}},
			func(x *Workloads) bool { return x == nil }, []string{"workloads.hpl.gflops=12.5", "workloads.ssh.mb_s.chacha20-poly1305@openssh.com=51.9"}},
	}
	for _, tt := range tests {
		got, ex := workloadsOf(tt.phases)
		if !tt.check(got) {
			t.Errorf("%s: %+v", tt.name, got)
		}
		var exs []string
		for _, e := range ex {
			exs = append(exs, fmt.Sprintf("%s=%g", e.Figure, e.Measured))
			if !e.Lost || e.Reason != disturbed.Reason {
				t.Errorf("%s: excluded %+v", tt.name, e)
			}
		}
		if !reflect.DeepEqual(exs, tt.excluded) {
			t.Errorf("%s: excluded %v, want %v", tt.name, exs, tt.excluded)
		}
	}
}
