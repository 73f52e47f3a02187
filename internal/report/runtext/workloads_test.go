package runtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

func fptr(v float64) *float64 { return &v }

func TestRenderWorkloadPhases(t *testing.T) {
	res := 2145.627104
	hpl, _ := json.Marshal(result.HPLFigures{Tool: "hpcc", Version: "1.5.0f", HPLVersion: "2.0", Processes: 4, N: 10752, NB: 128, P: 2, Q: 2,
		Gflops: fptr(12.5), ResidualFailed: true, BLAS: "/usr/lib/aarch64-linux-gnu/openblas-pthread/libblas.so.3",
		Runs: []result.HPLRun{{Variant: "WR11C2R4", N: 10752, NB: 128, P: 2, Q: 2, TimeS: 66.2, Gflops: 12.5, Residual: &res, Check: "FAILED"}}})
	ssh, _ := json.Marshal(result.SSHFigures{Version: "9.2p1", Bytes: 1 << 30, Unsupported: []string{"aes256-ctr"},
		Ciphers: []result.SSHCipher{{Cipher: "chacha20-poly1305@openssh.com", MBs: fptr(51.9), DurationS: fptr(20.7)}, {Cipher: "aes128-ctr", Error: "exit status 255"}}})
	tests := []struct {
		name  string
		phase result.Phase
		want  []string
	}{
		{"hpl with power", result.Phase{Name: result.PhaseHPL, Figures: hpl, Evidence: result.Evidence{PowerW: fptr(5)}},
			[]string{"HPL through hpcc 1.5.0f (HPLinpack 2.0), 4 process(es) in a 2×2 grid, N=10752 NB=128", "openblas-pthread",
				"WR11C2R4  10752  128  2×2  66.20 s    12.5      2146  FAILED", "residual check FAILED", "Gflops: 12.5", "2.5 Gflops/W at 5.00 W"}},
		{"hpl without power", result.Phase{Name: result.PhaseHPL, Figures: hpl}, []string{"Gflops/W unknown (no power source)"}},
		{"ssh", result.Phase{Name: result.PhaseSSHCiphers, Figures: ssh},
			[]string{"ssh 9.2p1 to a throwaway sshd on 127.0.0.1: 1073.7 MB (1024 MiB) per cipher", "chacha20-poly1305@openssh.com   51.9 MB/s  20.70 s",
				"aes128-ctr                              -        -", "aes128-ctr: exit status 255", "not offered by this ssh: aes256-ctr"}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		renderFigures(textfmt.New(&b, false), tt.phase, "")
		for _, want := range tt.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: lacks %q:\n%s", tt.name, want, b.String())
			}
		}
	}
}

func TestWorkloadPairs(t *testing.T) {
	tests := []struct {
		name string
		s    result.Summary
		want string
	}{
		{"none", result.Summary{}, ""},
		{"figures", result.Summary{Workloads: &result.Workloads{HPL: &result.HPLHeadline{Gflops: fptr(16.3), GflopsPerW: fptr(2.04)},
			SSH: &result.SSHHeadline{MBs: map[string]*float64{"chacha20-poly1305@openssh.com": fptr(51.9), "aes128-ctr": nil}}}},
			"HPL=16.3 Gflops, 2.04 Gflops/W|ssh ciphers=aes128-ctr failed, chacha20-poly1305@openssh.com 51.9 MB/s"},
		{"disturbed", result.Summary{Excluded: []result.ExcludedFigure{
			{Figure: result.FigureHPLGflops, Phase: result.PhaseHPL, Measured: 0.36, Reason: "other tasks used 96.5% of the CPU time", Lost: true},
			{Figure: result.FigureSSHMBs + ".aes128-ctr", Phase: result.PhaseSSHCiphers, Measured: 11.8, Reason: "other tasks used 87.8% of the CPU time", Lost: true}}},
			"HPL=no figure: other tasks used 96.5% of the CPU time (read 0.36 Gflops, not a figure)|ssh ciphers=no figure: other tasks used 87.8% of the CPU time (aes128-ctr read 11.8 MB/s, not figures)"},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range workloadPairs(tt.s) {
			got = append(got, p[0]+"="+p[1])
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, g, tt.want)
		}
	}
}
