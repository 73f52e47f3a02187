package benchrun

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tools"
)

// armhfShell is the ELF header of a 32-bit hard-float ARM executable (a
// Raspberry Pi OS armhf /bin/sh under a 64-bit kernel).
func armhfShell() string {
	b := make([]byte, 64)
	copy(b, "\x7fELF\x01\x01\x01")
	b[0x10], b[0x12] = 2, 40 // ET_EXEC, EM_ARM
	b[0x24], b[0x25], b[0x27] = 0x00, 0x04, 0x05
	return string(b)
}

// extensiveRoot is the big.LITTLE fixture with a 64-bit kernel and a 32-bit
// armhf userland.
func extensiveRoot(t *testing.T) string {
	root := bigLittle(t)
	fixture.Add(t, root, map[string]string{
		"proc/sys/kernel/arch":    "aarch64\n",
		"bin/sh":                  armhfShell(),
		"lib/ld-linux-armhf.so.3": "x",
	})
	return root
}

// extensiveConfig runs --extensive on root with an openssl whose build is
// known and a cryptsetup that exists only for fakeExec.
func extensiveConfig(t *testing.T, root string, ex *fakeExec) Config {
	cfg := fixtureConfig(t, root, ex)
	no := false
	cfg.FindTools = func(ctx context.Context, h *host.Host, allow bool) ToolSet {
		ts := fakeTools(ctx, h, allow)
		ts.OpenSSL.VersionLine = "OpenSSL 3.0.17 1 Jul 2025 (Library: OpenSSL 3.0.17 1 Jul 2025)"
		ts.OpenSSL.OpenSSL = &tools.OpenSSLBuild{LibraryVersion: "3.0.17", Platform: "debian-armhf", Options: "bn(64,32)",
			Compiler: "gcc -fPIC -pthread -DOPENSSL_USE_NODELETE", CPUInfo: "OPENSSL_armcap=0x1 env:0x1", CPUInfoEnv: "0x1", HardwareAES: &no, OpenSSLDir: "/usr/lib/ssl"}
		return ts
	}
	cfg.FindCryptsetup = func(ctx context.Context, h *host.Host, allow bool) (*tools.Tool, *ToolMissing) {
		return &tools.Tool{Name: "cryptsetup", Path: "/usr/sbin/cryptsetup", Version: "2.6.1", VersionLine: "cryptsetup 2.6.1 flags: UDEV BLKID KEYRING KERNEL_CAPI",
			Flavor: tools.FlavorCryptsetup, Cryptsetup: &tools.CryptsetupBuild{Flags: []string{"UDEV", "BLKID", "KEYRING", "KERNEL_CAPI"}}}, nil
	}
	return cfg
}

func phasesNamed(r *result.Result, name string) []result.Phase {
	var out []result.Phase
	for _, p := range r.Phases {
		if p.Name == name {
			out = append(out, p)
		}
	}
	return out
}

// TestRunExtensiveCiphers runs --extensive as root: per core type, openssl
// measures AES-256-GCM and ChaCha20-Poly1305 and cryptsetup aes-xts with
// 256- and 512-bit keys, each pinned to one CPU, with openssl's build and
// the userland's bitness recorded next to the figures.
func TestRunExtensiveCiphers(t *testing.T) {
	root := extensiveRoot(t)
	ex := &fakeExec{}
	cfg := extensiveConfig(t, root, ex)
	out := filepath.Join(t.TempDir(), "r.json")
	if _, err := Run(context.Background(), cfg, Options{Output: out, Force: true, Extensive: true, SustainedDuration: time.Nanosecond}); err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	got := phaseNames(r)[9:]
	want := []string{"openssl-evp:ok", "openssl-evp:ok", "cryptsetup:ok", "cryptsetup:ok", "7zip-cluster:ok", "7zip-cluster:ok", "openssl-all-cores:ok", "sustained:ok",
		// --extensive adds the cheap workloads; the fixture has no zstd,
		// and a recorded root runs no ssh.
		"zstd:skipped", "armcap:ok", "armcap:ok", "ssh-ciphers:skipped"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("extensive phases %v, want %v", got, want)
	}

	// openssl -evp: both ciphers on cpu0, then on cpu4.
	var evpCalls []string
	var csCalls []string
	for _, c := range ex.calls {
		line := strings.Join(c.Args, " ")
		switch {
		case strings.Contains(line, "-gcm") || strings.Contains(line, "chacha20"):
			evpCalls = append(evpCalls, c.Name+" "+line+" "+cpusOf(c))
		case strings.Contains(c.Name, "cryptsetup"):
			csCalls = append(csCalls, c.Name+" "+line+" "+cpusOf(c))
		}
	}
	wantEVP := []string{
		"/usr/bin/openssl speed -elapsed -seconds 1 -evp aes-256-gcm [0]", "/usr/bin/openssl speed -elapsed -seconds 1 -evp chacha20-poly1305 [0]",
		"/usr/bin/openssl speed -elapsed -seconds 1 -evp aes-256-gcm [4]", "/usr/bin/openssl speed -elapsed -seconds 1 -evp chacha20-poly1305 [4]",
	}
	if len(evpCalls) > len(wantEVP) {
		evpCalls = evpCalls[:len(wantEVP)] // then the armcap workload's (TestRunArmcap)
	}
	if !reflect.DeepEqual(evpCalls, wantEVP) {
		t.Errorf("openssl -evp calls\n%q\nwant\n%q", evpCalls, wantEVP)
	}
	wantCS := []string{
		"/usr/sbin/cryptsetup benchmark -c aes-xts-plain64 -s 256 [0]", "/usr/sbin/cryptsetup benchmark -c aes-xts-plain64 -s 512 [0]",
		"/usr/sbin/cryptsetup benchmark -c aes-xts-plain64 -s 256 [4]", "/usr/sbin/cryptsetup benchmark -c aes-xts-plain64 -s 512 [4]",
	}
	if !reflect.DeepEqual(csCalls, wantCS) {
		t.Errorf("cryptsetup calls\n%q\nwant\n%q", csCalls, wantCS)
	}

	evp := phasesNamed(r, result.PhaseOpenSSLEVP)
	var of result.OpenSSLFigures
	if err := json.Unmarshal(evp[1].Figures, &of); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(evp[1].CPUs, []int{4}) || len(of.Ciphers) != 2 || of.Ciphers[0].Cipher != "aes-256-gcm" || of.Ciphers[1].Cipher != "chacha20-poly1305" {
		t.Errorf("openssl-evp on cpu4: CPUs %v figures %+v", evp[1].CPUs, of)
	}
	if v := of.KBs("chacha20-poly1305", 16384); v == nil || *v != 250000 {
		t.Errorf("chacha20-poly1305 at 16 KiB = %v, want 250000", v)
	}
	b := of.Build
	if b == nil || b.Platform != "debian-armhf" || b.CPUInfoEnv != "0x1" || b.HardwareAES == nil || *b.HardwareAES || b.LibraryVersion != "3.0.17" || b.OpenSSLDir != "/usr/lib/ssl" {
		t.Errorf("openssl build %+v", b)
	}
	u := of.Userland
	if u == nil || u.Bits == nil || *u.Bits != 32 || u.Arch != "armhf" || u.KernelBits == nil || *u.KernelBits != 64 || !u.MixedArch {
		t.Errorf("userland %+v", u)
	}

	cs := phasesNamed(r, result.PhaseCryptsetup)
	var cf result.CryptsetupFigures
	if err := json.Unmarshal(cs[0].Figures, &cf); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cs[0].CPUs, []int{0}) || cf.Version != "2.6.1" || !reflect.DeepEqual(cf.Flags, []string{"UDEV", "BLKID", "KEYRING", "KERNEL_CAPI"}) || cf.Userland == nil || *cf.Userland.Bits != 32 {
		t.Errorf("cryptsetup on cpu0: CPUs %v figures %+v", cs[0].CPUs, cf)
	}
	if len(cf.Ciphers) != 2 || cf.Ciphers[0].KeyBits != 256 || *cf.Ciphers[0].EncryptionMiBs != 60 || *cf.Ciphers[0].DecryptionMiBs != 61 ||
		cf.Ciphers[1].KeyBits != 512 || *cf.Ciphers[1].EncryptionMiBs != 50 || cf.Ciphers[1].Cipher != "aes-xts-plain64" {
		t.Errorf("cryptsetup figures %+v", cf.Ciphers)
	}
	if !strings.Contains(cs[0].RawOutput, "$ /usr/sbin/cryptsetup benchmark -c aes-xts-plain64 -s 512") {
		t.Errorf("raw output %q", cs[0].RawOutput)
	}
	var toolNames []string
	for _, tv := range r.Tools {
		toolNames = append(toolNames, tv.Name+" "+tv.Version)
	}
	if !reflect.DeepEqual(toolNames, []string{"7zz 26.02", "openssl 3.0.19", "cryptsetup 2.6.1", "zstd "}) { // zstd: missing on the fixture
		t.Errorf("tools %v", toolNames)
	}
	if r.Options["cryptsetup_key_bits"] == nil || r.Options["openssl_evp_ciphers"] == nil {
		t.Errorf("options %v", r.Options)
	}
}

// TestRunExtensiveCryptsetupSkips: cryptsetup is skipped with the reason
// when not root (and not even looked for), when missing, and when the
// kernel has no AF_ALG (the phase fails with cryptsetup's own message and
// no figure).
func TestRunExtensiveCryptsetupSkips(t *testing.T) {
	noAFALG := "# Tests are approximate using memory only (no storage IO).\n"
	noAFALGErr := "Cipher aes-xts-plain64 (with 256 bits key) is not available.\nRequired kernel crypto interface not available.\nEnsure you have algif_skcipher kernel module loaded.\n"
	tests := []struct {
		name       string
		root       bool
		missing    bool
		noAFALG    bool
		wantStatus string
		wantReason string
	}{
		{"not root", false, false, false, result.PhaseSkipped, "not root: boardbench runs cryptsetup benchmark as root only"},
		{"missing", true, true, false, result.PhaseSkipped, "cryptsetup not installed: installing packages was not allowed; install it with: sudo apt-get install -y --no-install-recommends cryptsetup-bin"},
		{"no AF_ALG", true, false, true, result.PhaseFailed, "is not available"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := extensiveRoot(t)
			ex := &fakeExec{}
			if tt.noAFALG {
				ex.hook = func(ctx context.Context, n int, c proc.Command) (proc.Result, error, bool) {
					if !strings.Contains(c.Name, "cryptsetup") {
						return proc.Result{}, nil, false
					}
					return proc.Result{Stdout: []byte(noAFALG), Stderr: []byte(noAFALGErr), Exit: proc.Exit{Code: 1}},
						&proc.ExitError{Command: "cryptsetup benchmark", Exit: proc.Exit{Code: 1}}, true
				}
			}
			cfg := extensiveConfig(t, root, ex)
			cfg.IsRoot = &tt.root
			looked := false
			find := cfg.FindCryptsetup
			cfg.FindCryptsetup = func(ctx context.Context, h *host.Host, allow bool) (*tools.Tool, *ToolMissing) {
				looked = true
				if tt.missing {
					return nil, &ToolMissing{Reason: "not installed: installing packages was not allowed", Hint: "install it with: sudo apt-get install -y --no-install-recommends cryptsetup-bin"}
				}
				return find(ctx, h, allow)
			}
			out := filepath.Join(t.TempDir(), "r.json")
			if _, err := Run(context.Background(), cfg, Options{Output: out, Force: true, Extensive: true, NoInstall: true, SustainedDuration: time.Nanosecond}); err != nil {
				t.Fatal(err)
			}
			r, err := result.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			if looked == !tt.root {
				t.Errorf("cryptsetup looked for: %v (root %v)", looked, tt.root)
			}
			cs := phasesNamed(r, result.PhaseCryptsetup)
			if len(cs) != 2 {
				t.Fatalf("%d cryptsetup phases", len(cs))
			}
			for _, p := range cs {
				if p.Status != tt.wantStatus || !strings.Contains(p.Reason, tt.wantReason) {
					t.Errorf("phase %s %q, want %s %q", p.Status, p.Reason, tt.wantStatus, tt.wantReason)
				}
				if tt.wantStatus == result.PhaseSkipped && (len(p.Figures) != 0 && string(p.Figures) != "null") {
					t.Errorf("skipped phase has figures %s", p.Figures)
				}
				if tt.noAFALG {
					var cf result.CryptsetupFigures
					if err := json.Unmarshal(p.Figures, &cf); err != nil {
						t.Fatal(err)
					}
					for _, c := range cf.Ciphers {
						if c.EncryptionMiBs != nil || c.DecryptionMiBs != nil || !strings.Contains(c.Error, "algif_skcipher") {
							t.Errorf("cipher without AF_ALG %+v: no figure, cryptsetup's message", c)
						}
					}
				}
			}
			if tt.noAFALG && ex.count("cryptsetup") != 4 {
				t.Errorf("%d cryptsetup runs, want 4", ex.count("cryptsetup"))
			}
			if !tt.noAFALG && ex.count("cryptsetup") != 0 {
				t.Errorf("cryptsetup ran %d times", ex.count("cryptsetup"))
			}
			if f := hasFinding(r, "tool_missing"); f != nil && strings.Contains(f.Title, "cryptsetup") {
				t.Errorf("a missing cryptsetup is no finding: %+v", f)
			}
		})
	}
}

func cpusOf(c proc.Command) string { return fmt.Sprint(c.CPUs) }
