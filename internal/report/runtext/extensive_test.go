package runtext

import (
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// extensiveCiphers is a complete RK3588 run with the openssl-evp and
// cryptsetup phases of --extensive on a 32-bit userland: cpu0 measured,
// cpu4 where the kernel offers no AF_ALG.
func extensiveCiphers() *result.Result {
	r := completeRK3588()
	u := &result.Userland{Bits: iptr(32), Arch: "armhf", KernelBits: iptr(64), KernelArch: "arm64", MixedArch: true}
	no := false
	evp := phaseAt(result.PhaseOpenSSLEVP, "openssl speed AES-256-GCM and ChaCha20-Poly1305 on cpu0 (Cortex-A55)", []int{0}, 300, 12)
	mustFigures(&evp, result.OpenSSLFigures{CPUs: []int{0}, Core: "Cortex-A55", Version: "3.0.17", SecondsPerBlockSize: 1,
		Ciphers: []result.OpenSSLCipher{
			{Cipher: "aes-256-gcm", Values: []result.OpenSSLValue{{BlockBytes: 16, KBs: f64(20512.3)}, {BlockBytes: 16384, KBs: f64(32301.9)}}},
			{Cipher: "chacha20-poly1305", Values: []result.OpenSSLValue{{BlockBytes: 16, KBs: f64(51022.4)}, {BlockBytes: 16384, KBs: f64(138203.3)}}},
		},
		Build: &result.OpenSSLBuild{VersionLine: "OpenSSL 3.0.17 1 Jul 2025", Flavor: "OpenSSL", LibraryVersion: "3.0.17", Platform: "debian-armhf",
			Options: "bn(64,32)", CPUInfo: "OPENSSL_armcap=0x1 env:0x1", CPUInfoEnv: "0x1", HardwareAES: &no},
		Userland: u})
	cs := phaseAt(result.PhaseCryptsetup, "cryptsetup benchmark aes-xts-plain64 on cpu0 (Cortex-A55)", []int{0}, 312, 4)
	mustFigures(&cs, result.CryptsetupFigures{CPUs: []int{0}, Core: "Cortex-A55", Version: "2.6.1", Flags: []string{"KERNEL_CAPI"}, Userland: u,
		Ciphers: []result.CryptsetupCipher{
			{Cipher: "aes-xts-plain64", KeyBits: 256, EncryptionMiBs: f64(72.4), DecryptionMiBs: f64(70.9)},
			{Cipher: "aes-xts-plain64", KeyBits: 512, EncryptionMiBs: f64(55.1), DecryptionMiBs: f64(54.8)},
		}})
	failed := phaseAt(result.PhaseCryptsetup, "cryptsetup benchmark aes-xts-plain64 on cpu4 (Cortex-A76)", []int{4}, 316, 0.1)
	failed.Status, failed.Reason = result.PhaseFailed, "256-bit key: not available"
	msg := "Cipher aes-xts-plain64 (with 256 bits key) is not available. Required kernel crypto interface not available. Ensure you have algif_skcipher kernel module loaded."
	mustFigures(&failed, result.CryptsetupFigures{CPUs: []int{4}, Core: "Cortex-A76", Version: "2.6.1", Flags: []string{},
		Ciphers: []result.CryptsetupCipher{{Cipher: "aes-xts-plain64", KeyBits: 256, Error: msg}}})
	skipped := result.Phase{Name: result.PhaseCryptsetup, Title: "cryptsetup benchmark aes-xts-plain64 on one CPU of Cortex-A76", Status: result.PhaseSkipped,
		Reason: "not root: boardbench runs cryptsetup benchmark as root only"}
	r.Phases = append(r.Phases, evp, cs, failed, skipped)
	return r
}

func TestRenderExtensiveCiphers(t *testing.T) {
	out := render(extensiveCiphers(), false)
	for _, want := range []string{
		"OpenSSL 3.0.17 on cpu0 (Cortex-A55), 1 s per block size",
		"aes-256-gcm", "32302", "chacha20-poly1305", "138203",
		"build: platform debian-armhf, options bn(64,32), library 3.0.17",
		"AES instructions: not used (OPENSSL_armcap=0x1 env:0x1)",
		"capability override in the environment: 0x1",
		"userland: 32-bit armhf, kernel: 64-bit arm64 (mixed: the benchmark ran as a 32-bit program)",
		"cryptsetup 2.6.1 on cpu0 (Cortex-A55): the kernel's ciphers, in memory (no storage)",
		"72.4 MiB/s", "54.8 MiB/s", "512 bits",
		"256 bits: Cipher aes-xts-plain64 (with 256 bits key) is not available.",
		"algif_skcipher",
		"not root: boardbench runs cryptsetup benchmark as root only",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for i, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, "cryptsetup") && !strings.Contains(l, "MiB/s") && !strings.Contains(l, "userland") && !strings.Contains(l, "AES") {
			continue
		}
		if n := len([]rune(l)); n > textfmt.MaxWidth {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
}
