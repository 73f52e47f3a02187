package benchrun

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardbench/internal/benchtool/openssl"
	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/tools"
)

func TestParseWorkloads(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"zstd", []string{"zstd"}, ""},
		{" llama , ZSTD,zstd,", []string{"zstd", "llama"}, ""},
		{"armcap,zstd", []string{"zstd", "armcap"}, ""},
		{"zstd,gzip", nil, `unknown workload "gzip"`},
		{"hpl", []string{"hpl"}, ""},
		{" ssh , hpl,ssh,", []string{"hpl", "ssh"}, ""},
		{"hpl,zzz", nil, `unknown workload "zzz"`},
		{"HPL,ssh,llama", []string{"llama", "hpl", "ssh"}, ""},
	}
	for _, tc := range tests {
		got, err := ParseWorkloads(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseWorkloads(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseWorkloads(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestWorkloadList(t *testing.T) {
	tests := []struct {
		name string
		opt  Options
		want []string
	}{
		{"none", Options{}, nil},
		{"asked for", Options{Workloads: []string{WorkloadLlama}}, []string{"llama"}},
		{"extensive adds the cheap ones", Options{Extensive: true}, []string{"zstd", "armcap", "ssh"}},
		{"extensive and llama", Options{Extensive: true, Workloads: []string{WorkloadLlama, WorkloadZstd}}, []string{"zstd", "armcap", "llama", "ssh"}},
		{"hpl and ssh", Options{Workloads: []string{"ssh", "hpl"}}, []string{"hpl", "ssh"}},
		{"extensive and hpl", Options{Extensive: true, Workloads: []string{"hpl"}}, []string{"zstd", "armcap", "hpl", "ssh"}},
	}
	for _, tc := range tests {
		if got := tc.opt.workloadList(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCheckWorkloads(t *testing.T) {
	tests := []struct {
		opt Options
		err string
	}{
		{Options{}, ""},
		{Options{Workloads: []string{"llama"}, Model: "m.gguf"}, ""},
		{Options{Workloads: []string{"llama"}}, "needs --model"},
		{Options{Workloads: []string{"zstd"}, Model: "m.gguf"}, "--model is for --workloads llama"},
	}
	for _, tc := range tests {
		err := CheckWorkloads(tc.opt)
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("CheckWorkloads(%+v) = %v, want %q", tc.opt, err, tc.err)
		}
	}
}

func TestCapVariableFor(t *testing.T) {
	tests := []struct {
		arch, setting string
		ok            bool
	}{
		{"arm64", "OPENSSL_armcap=0", true},
		{"armhf", "OPENSSL_armcap=0", true},
		{"armel", "OPENSSL_armcap=0", true},
		{"amd64", "OPENSSL_ia32cap=~0x200000200000000:~0x60020000000", true},
		{"i386", "OPENSSL_ia32cap=~0x200000200000000:~0x60020000000", true},
		{"riscv64", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		c, ok := CapVariableFor(tc.arch)
		if ok != tc.ok || (ok && c.Setting() != tc.setting) {
			t.Errorf("CapVariableFor(%q) = %q, %v; want %q, %v", tc.arch, c.Setting(), ok, tc.setting, tc.ok)
		}
	}
}

// TestArmcapRatiosRealOutput pairs what openssl printed here for
// AES-256-GCM with and without OPENSSL_ia32cap's crypto bits.
func TestArmcapRatiosRealOutput(t *testing.T) {
	read := func(name string) result.OpenSSLCipher {
		b, err := os.ReadFile(filepath.Join("testdata/armcap", name))
		if err != nil {
			t.Fatal(err)
		}
		res, err := openssl.Parse(string(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return cipherFigures("aes-256-gcm", &openssl.Measurement{Cipher: "aes-256-gcm", Result: res}, nil)
	}
	with, without := read("with-aes-256-gcm.txt"), read("without-aes-256-gcm.txt")
	rs := ArmcapRatios([]result.OpenSSLCipher{with}, []result.OpenSSLCipher{without})
	if len(rs) != 1 || rs[0].Ratio == nil || rs[0].BlockBytes != 16384 {
		t.Fatalf("ratios %+v", rs)
	}
	w, wo := *kbsAt(with, 16384), *kbsAt(without, 16384)
	if want := w / wo; *rs[0].Ratio < want-0.01 || *rs[0].Ratio > want+0.01 {
		t.Errorf("ratio %.2f, want %.2f (%.0f / %.0f kB/s)", *rs[0].Ratio, want, w, wo)
	}
	// AES-NI and PCLMULQDQ make AES-GCM several times faster.
	if *rs[0].Ratio < 2 {
		t.Errorf("ratio %.2f: the run without AES-NI was not slower", *rs[0].Ratio)
	}
}

func TestArmcapRatiosMissing(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	with := []result.OpenSSLCipher{
		{Cipher: "a", Values: []result.OpenSSLValue{{BlockBytes: 8192, KBs: v(300)}, {BlockBytes: 16384, KBs: nil}}},
		{Cipher: "b", Values: []result.OpenSSLValue{{BlockBytes: 16384, KBs: v(100)}}},
		{Cipher: "c", Values: []result.OpenSSLValue{{BlockBytes: 16384, KBs: v(100)}}},
	}
	without := []result.OpenSSLCipher{
		{Cipher: "a", Values: []result.OpenSSLValue{{BlockBytes: 8192, KBs: v(100)}}},
		{Cipher: "b", Error: "failed", Values: []result.OpenSSLValue{}},
	}
	rs := ArmcapRatios(with, without)
	if len(rs) != 2 {
		t.Fatalf("ratios %+v: want a and b (c has no run without)", rs)
	}
	if rs[0].BlockBytes != 8192 || rs[0].Ratio == nil || *rs[0].Ratio != 3 {
		t.Errorf("a: %+v, want 3 at 8192 bytes", rs[0])
	}
	if rs[1].Ratio != nil || rs[1].WithoutKBs != nil {
		t.Errorf("b: %+v, want no ratio", rs[1])
	}
}

// workloadExec answers the workloads' programs: zstd writes a compressed
// file of a third of its input and took 2 s; llama-bench prints
// testdata/llama-bench.json; openssl with a capability variable is 4 times
// slower. Everything else goes to fakeExec.
func workloadExec(t *testing.T) *fakeExec {
	llama, err := os.ReadFile("testdata/llama-bench.json")
	if err != nil {
		t.Fatal(err)
	}
	return &fakeExec{hook: func(ctx context.Context, n int, c proc.Command) (proc.Result, error, bool) {
		switch {
		case strings.HasSuffix(c.Name, "zstd"):
			in, out := c.Args[len(c.Args)-1], c.Args[len(c.Args)-2]
			st, err := os.Stat(in)
			if err != nil {
				return proc.Result{Exit: proc.Exit{Code: 1}}, &proc.ExitError{Command: c.String(), Exit: proc.Exit{Code: 1}}, true
			}
			if err := os.WriteFile(out, make([]byte, st.Size()/3), 0o600); err != nil {
				t.Error(err)
			}
			return proc.Result{Exit: proc.Exit{Duration: 2 * time.Second}}, nil, true
		case strings.HasSuffix(c.Name, "llama-bench"):
			return proc.Result{Stdout: llama, Stderr: []byte("load_backend: loaded CPU backend\n")}, nil, true
		case len(c.Env) > 0 && strings.Join(c.Args, " ") == "version -a":
			return proc.Result{Stdout: []byte("OpenSSL 3.0.17 1 Jul 2025 (Library: OpenSSL 3.0.17 1 Jul 2025)\nplatform: debian-arm64\nCPUINFO: OPENSSL_armcap=0x0 env:0\n")}, nil, true
		case len(c.Env) > 0:
			return proc.Result{Stdout: []byte(opensslOutput(c.Args[len(c.Args)-1], 25000))}, nil, true
		}
		return proc.Result{}, nil, false
	}}
}

func fakeWorkloadTool(_ context.Context, _ *host.Host, w string) (*tools.Tool, *ToolMissing) {
	switch w {
	case WorkloadZstd:
		return &tools.Tool{Name: "zstd", Path: "/usr/bin/zstd", Version: "1.5.4", VersionLine: "*** Zstandard CLI (64-bit) v1.5.4, by Yann Collet ***"}, nil
	case WorkloadLlama:
		return nil, &ToolMissing{Reason: "not installed", Hint: "build llama.cpp"}
	}
	return nil, nil
}

// TestRunWorkloads runs the three workloads on the armhf big.LITTLE
// fixture with fake programs and checks their phases, figures and the
// summary's workloads.
func TestRunWorkloads(t *testing.T) {
	root := extensiveRoot(t)
	ex := workloadExec(t)
	cfg := fixtureConfig(t, root, ex)
	cfg.FindWorkloadTool = func(ctx context.Context, h *host.Host, w string) (*tools.Tool, *ToolMissing) {
		if w == WorkloadLlama {
			return &tools.Tool{Name: "llama-bench", Path: "/usr/local/bin/llama-bench"}, nil
		}
		return fakeWorkloadTool(ctx, h, w)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	opt := Options{Output: out, Force: true, Quick: true, Workloads: []string{WorkloadZstd, WorkloadArmcap, WorkloadLlama}, Model: "/data/models/q.gguf"}
	if _, err := Run(context.Background(), cfg, opt); err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	names := phaseNames(r)
	got := names[len(names)-4:]
	want := []string{"zstd:ok", "armcap:ok", "armcap:ok", "llama:ok"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("workload phases %v, want %v", got, want)
	}

	// zstd: -q -19 -T6 on all six CPUs, quick input, 2 s.
	var z result.ZstdFigures
	mustFigures(t, phasesNamed(r, result.PhaseZstd)[0], &z)
	if z.Threads != 6 || z.Level != 19 || z.InputBytes != QuickZstdInput || z.Version != "1.5.4" {
		t.Errorf("zstd figures %+v", z)
	}
	if z.Seconds == nil || *z.Seconds != 2 || z.MBs == nil || *z.MBs != 1.049 || z.Ratio == nil || *z.Ratio != 3 {
		t.Errorf("zstd seconds %v MB/s %v ratio %v, want 2, 1.049, 3", deref(z.Seconds), deref(z.MBs), deref(z.Ratio))
	}
	for _, c := range ex.calls {
		if strings.HasSuffix(c.Name, "zstd") {
			if a := strings.Join(c.Args[:4], " "); a != "-q -19 -T6 -f" || len(c.CPUs) != 6 {
				t.Errorf("zstd called with %q on %v", a, c.CPUs)
			}
		}
	}

	// armcap: per core type, with then without OPENSSL_armcap=0 (armhf).
	ac := phasesNamed(r, result.PhaseArmcap)
	var a result.ArmcapFigures
	mustFigures(t, ac[0], &a)
	if a.Variable != "OPENSSL_armcap=0" || len(a.With) != 1 || len(a.Without) != 1 || len(a.Ratios) != 1 {
		t.Fatalf("armcap figures %+v", a)
	}
	if rt := a.Ratios[0]; rt.Ratio == nil || *rt.Ratio != 4 || rt.BlockBytes != 16384 {
		t.Errorf("armcap ratio %+v, want 4 at 16384 bytes", rt)
	}
	if a.CPUInfoWithout != "OPENSSL_armcap=0x0 env:0" {
		t.Errorf("capability vector with the variable %q", a.CPUInfoWithout)
	}
	if !strings.Contains(ac[0].RawOutput, "$ OPENSSL_armcap=0 /usr/bin/openssl speed") {
		t.Errorf("raw output does not show the variable:\n%s", ac[0].RawOutput)
	}

	// llama: the fake's JSON.
	var l result.LlamaFigures
	mustFigures(t, phasesNamed(r, result.PhaseLlama)[0], &l)
	if l.Version != "build 6920 (5a32f10a)" || l.Model != "q.gguf" || l.PPTokensS == nil || *l.PPTokensS != 221.285 || l.TGTokensS == nil || *l.TGTokensS != 26.501 {
		t.Errorf("llama figures %+v", l)
	}
	for _, c := range ex.calls {
		if strings.HasSuffix(c.Name, "llama-bench") {
			if a := strings.Join(c.Args, " "); a != "-m /data/models/q.gguf -p 64 -n 16 -r 1 -t 6 -o json" {
				t.Errorf("llama-bench called with %q", a)
			}
		}
	}

	// The summary repeats them by name (no power source: no per-W figure).
	w := r.Summary.Workloads
	if w == nil || w.Zstd == nil || len(w.Armcap) != 2 || w.Llama == nil {
		t.Fatalf("summary workloads %+v", w)
	}
	if w.Llama.PPTokensSPerW != nil || w.Llama.PowerW != nil {
		t.Errorf("tokens/s/W without a power source: %+v", w.Llama)
	}
	var llamaTool string
	for _, tv := range r.Tools {
		if tv.Name == "llama-bench" {
			llamaTool = tv.Version
		}
	}
	if llamaTool != "build 6920 (5a32f10a)" {
		t.Errorf("tools: llama-bench version %q", llamaTool)
	}
	if r.Options["model"] != "q.gguf" {
		t.Errorf("options model %v, want the file's name only", r.Options["model"])
	}
}

// TestRunWorkloadsMissingTools skips each workload with the reason.
func TestRunWorkloadsMissingTools(t *testing.T) {
	root := extensiveRoot(t)
	ex := workloadExec(t)
	cfg := fixtureConfig(t, root, ex)
	cfg.FindWorkloadTool = func(context.Context, *host.Host, string) (*tools.Tool, *ToolMissing) {
		return nil, &ToolMissing{Reason: "not installed", Hint: "install it"}
	}
	cfg.FindTools = func(ctx context.Context, h *host.Host, allow bool) ToolSet {
		ts := fakeTools(ctx, h, allow)
		ts.OpenSSL, ts.OpenSSLMissing = nil, &ToolMissing{Reason: "not installed", Hint: "install openssl"}
		return ts
	}
	out := filepath.Join(t.TempDir(), "r.json")
	opt := Options{Output: out, Force: true, Quick: true, Workloads: []string{WorkloadZstd, WorkloadArmcap, WorkloadLlama}, Model: "/m.gguf"}
	Run(context.Background(), cfg, opt)
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{result.PhaseZstd, result.PhaseArmcap, result.PhaseLlama} {
		ps := phasesNamed(r, name)
		if len(ps) == 0 {
			t.Fatalf("no %s phase", name)
		}
		for _, p := range ps {
			if p.Status != result.PhaseSkipped || !strings.Contains(p.Reason, "not installed") || len(p.Figures) != 0 {
				t.Errorf("%s: %s %q %s", name, p.Status, p.Reason, p.Figures)
			}
		}
	}
	if r.Summary.Workloads != nil {
		t.Errorf("summary workloads %+v without any figure", r.Summary.Workloads)
	}
	for _, tv := range r.Tools {
		if tv.Name == "llama-bench" && !strings.Contains(tv.Note, "not installed") {
			t.Errorf("tools: %+v", tv)
		}
	}
}

func mustFigures(t *testing.T, p result.Phase, v any) {
	t.Helper()
	if err := json.Unmarshal(p.Figures, v); err != nil {
		t.Fatalf("%s figures: %v (%s)", p.Name, err, p.Figures)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestRunWorkloadsOnFixture: on a recorded root the workloads are never
// run (nothing is started for a machine that is not this one): their
// phases are skipped with the reason, and the options record them.
func TestRunWorkloadsOnFixture(t *testing.T) {
	root := bigLittle(t)
	ex := &fakeExec{}
	cfg := fixtureConfig(t, root, ex)
	out := filepath.Join(t.TempDir(), "r.json")
	if _, err := Run(context.Background(), cfg, Options{Output: out, Force: true, Quick: true, Workloads: []string{"hpl", "ssh"}}); err != nil {
		t.Logf("run: %v", err) // the verdict of the fixture's figures is not this test's
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{result.PhaseHPL, result.PhaseSSHCiphers} {
		ps := phasesNamed(r, name)
		if len(ps) != 1 || ps[0].Status != result.PhaseSkipped || ps[0].Reason != "not the live system" {
			t.Errorf("%s phases = %+v", name, ps)
		}
	}
	if wl, _ := r.Options["workloads"].([]any); len(wl) != 2 || wl[0] != "hpl" || wl[1] != "ssh" {
		t.Errorf("options workloads = %v", r.Options["workloads"])
	}
	if r.Summary.Workloads != nil {
		t.Errorf("summary workloads without a measurement: %+v", r.Summary.Workloads)
	}
	for _, c := range ex.calls {
		if strings.Contains(c.Name, "hpcc") || strings.Contains(c.Name, "ssh") || strings.Contains(c.Name, "mpirun") {
			t.Errorf("ran %v on a recorded root", c)
		}
	}
}
