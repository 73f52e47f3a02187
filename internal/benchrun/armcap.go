package benchrun

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"

	"boardbench/internal/benchtool/openssl"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
)

// CapVariable is openssl's capability variable for an architecture: the
// environment setting that turns off the CPU's crypto extensions, and what
// it turns off.
type CapVariable struct {
	// Name is the variable, Value its setting ("OPENSSL_armcap", "0").
	Name, Value string
	// Disables says in words what the setting turns off.
	Disables string
}

// Setting is NAME=VALUE.
func (c CapVariable) Setting() string { return c.Name + "=" + c.Value }

// IA32CapNoCrypto clears, in OpenSSL's x86 capability vector, AES-NI (bit
// 57) and PCLMULQDQ (bit 33) of the first word, and SHA (bit 29), VAES
// (bit 41) and VPCLMULQDQ (bit 42) of the second (CPUID leaf 7), leaving
// SSE and AVX alone: openssl then runs its AES, GHASH and SHA in plain
// integer and vector code (OpenSSL's OPENSSL_ia32cap manual page).
const IA32CapNoCrypto = "~0x200000200000000:~0x60020000000"

// CapVariableFor returns the capability variable for a Debian architecture
// name ("arm64", "armhf", "amd64"...); ok is false for an architecture
// openssl has none for here.
func CapVariableFor(arch string) (c CapVariable, ok bool) {
	switch {
	case arch == "arm64" || strings.HasPrefix(arch, "arm"):
		return CapVariable{Name: "OPENSSL_armcap", Value: "0",
			Disables: "every ARM extension openssl uses: the AES, PMULL and SHA instructions and NEON"}, true
	case arch == "amd64" || arch == "i386" || arch == "x32":
		return CapVariable{Name: "OPENSSL_ia32cap", Value: IA32CapNoCrypto,
			Disables: "AES-NI, PCLMULQDQ, SHA, VAES and VPCLMULQDQ (SSE and AVX stay on)"}, true
	}
	return CapVariable{}, false
}

// goArchDebian maps Go's architecture names to Debian's for the fallback
// when the userland's architecture is unknown.
func goArchDebian(goarch string) string {
	switch goarch {
	case "arm":
		return "armhf"
	case "386":
		return "i386"
	}
	return goarch
}

// armcapVariable is the capability variable of the machine's openssl (the
// userland's architecture, else boardbench's own).
func (r *runner) armcapVariable() (CapVariable, string, bool) {
	arch := r.info.OS.Userland.Arch
	if arch == "" {
		arch = goArchDebian(runtime.GOARCH)
	}
	c, ok := CapVariableFor(arch)
	return c, arch, ok
}

// armcapCiphers are the ciphers measured with and without the extensions:
// those of the published comparisons (AES-256 in CBC and GCM,
// ChaCha20-Poly1305); quick mode only AES-256-CBC.
func (r *runner) armcapCiphers() []string {
	if r.plan.Quick {
		return []string{"aes-256-cbc"}
	}
	return []string{"aes-256-cbc", "aes-256-gcm", "chacha20-poly1305"}
}

// armcapSteps are the armcap workload's phases, one per core type: each
// cipher with openssl's own choice of code, then with the capability
// variable set, pinned to the same CPU.
func (r *runner) armcapSteps() []session.Step {
	var out []session.Step
	capVar, arch, known := r.armcapVariable()
	ciphers := r.armcapCiphers()
	for _, t := range r.targets {
		st := session.Step{Name: result.PhaseArmcap, Title: "openssl speed with and without the crypto extensions on one CPU of " + t.Label()}
		switch {
		case r.tools.OpenSSL == nil:
			st.Skip = missingReason("openssl", r.tools.OpenSSLMissing)
		case !known:
			st.Skip = fmt.Sprintf("openssl has no capability variable boardbench knows for this architecture (%s)", orUnknownArch(arch))
		default:
			st = r.armcapStep(t, capVar, ciphers)
		}
		out = append(out, st)
	}
	return out
}

func orUnknownArch(a string) string {
	if a == "" {
		return "unknown"
	}
	return a
}

// armcapStep measures the ciphers with and without the extensions on one
// CPU of t.
func (r *runner) armcapStep(t Target, capVar CapVariable, ciphers []string) session.Step {
	n := len(ciphers)
	return session.Step{Name: result.PhaseArmcap, Title: "openssl speed with and without the crypto extensions on one CPU of " + t.Label(),
		Kind: "openssl", Estimate: r.est.OpenSSLCipher * timeMul(2*n),
		Run: func(ctx context.Context, p *result.Phase) error {
			cpu, ok := r.pick(t)
			if !ok {
				return fmt.Errorf("no CPU of %s could be pinned", t.Label())
			}
			p.CPUs = []int{cpu}
			p.Title = fmt.Sprintf("openssl speed with and without the crypto extensions (%s) on cpu%d (%s)", capVar.Setting(), cpu, orUnknown(t.Core))
			if v, set := os.LookupEnv(capVar.Name); set {
				p.Notes = append(p.Notes, fmt.Sprintf("%s was set in boardbench's environment (%s=%s): the run \"with\" the extensions used it too", capVar.Name, capVar.Name, v))
			}
			tool := *r.tools.OpenSSL
			figs := result.ArmcapFigures{CPUs: []int{cpu}, Core: t.Core, Version: tool.Version, Variable: capVar.Setting(),
				Disables: capVar.Disables, SecondsPerBlockSize: r.plan.OpenSSLSeconds,
				With: []result.OpenSSLCipher{}, Without: []result.OpenSSLCipher{}, Ratios: []result.ArmcapRatio{}}
			var raw strings.Builder
			figs.CPUInfo, figs.CPUInfoWithout = r.armcapCPUInfo(ctx, tool, capVar, &raw)
			var failed []string
			for i, cipher := range ciphers {
				for _, without := range []bool{false, true} {
					var env []string
					label := "with"
					if without {
						env, label = []string{capVar.Setting()}, "without"
					}
					r.prog.sub(fmt.Sprintf("%s %s the extensions (%d of %d)", cipher, label, 2*i+btoi(without)+1, 2*n))
					m, err := openssl.Run(ctx, r.cfg.Exec, tool, cipher, openssl.Options{CPUs: []int{cpu}, Seconds: r.plan.OpenSSLSeconds, Env: env})
					if m == nil {
						m = &openssl.Measurement{Tool: tool.Path, Cipher: cipher}
					}
					cmd := m.Tool
					if len(env) > 0 {
						cmd = strings.Join(env, " ") + " " + cmd
					}
					appendRaw(&raw, cmd, m.Args, m.RawOutput, m.RawStderr)
					c := cipherFigures(cipher, m, err)
					if without {
						figs.Without = append(figs.Without, c)
					} else {
						figs.With = append(figs.With, c)
					}
					if ctx.Err() != nil {
						break
					}
					if err != nil {
						failed = append(failed, fmt.Sprintf("%s %s the extensions: %v", cipher, label, err))
					}
				}
				if ctx.Err() != nil {
					break
				}
			}
			figs.Ratios = ArmcapRatios(figs.With, figs.Without)
			p.RawOutput = raw.String()
			if err := p.SetFigures(figs); err != nil {
				return err
			}
			if len(failed) > 0 {
				return errors.New(strings.Join(failed, "; "))
			}
			return nil
		}}
}

// armcapCPUInfo returns the capability vector openssl reports (`openssl
// version -a`, OpenSSL 3) as it is and with the variable set, the proof that
// the setting took; "" where it reports none.
func (r *runner) armcapCPUInfo(ctx context.Context, tool tools.Tool, capVar CapVariable, raw *strings.Builder) (with, without string) {
	if tool.OpenSSL != nil {
		with = tool.OpenSSL.CPUInfo
	}
	env := []string{capVar.Setting()}
	args := []string{"version", "-a"}
	res, err := r.cfg.Exec.Exec(ctx, proc.Command{Name: tool.Command(), Args: args, Env: env})
	if err != nil {
		return with, ""
	}
	appendRaw(raw, strings.Join(env, " ")+" "+tool.Command(), args, string(res.Stdout), string(res.Stderr))
	if t, ok := tools.ParseOpenSSLVersion(string(res.Stdout)); ok && t.OpenSSL != nil {
		without = t.OpenSSL.CPUInfo
	}
	return with, without
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ArmcapRatios pairs each cipher's figures with and without the
// extensions at the largest block size both measured (16384 bytes, else
// 8192): the ratio is what the extensions are worth; nil when either
// figure is missing or the one without is zero.
func ArmcapRatios(with, without []result.OpenSSLCipher) []result.ArmcapRatio {
	out := []result.ArmcapRatio{}
	for _, w := range with {
		var wo *result.OpenSSLCipher
		for i := range without {
			if without[i].Cipher == w.Cipher {
				wo = &without[i]
			}
		}
		if wo == nil {
			continue
		}
		r := result.ArmcapRatio{Cipher: w.Cipher, BlockBytes: 16384}
		for _, b := range []int{16384, 8192} {
			a, z := kbsAt(w, b), kbsAt(*wo, b)
			if a != nil && z != nil {
				r.BlockBytes, r.WithKBs, r.WithoutKBs = b, a, z
				break
			}
		}
		if r.WithKBs != nil && *r.WithoutKBs > 0 {
			v := math.Round(*r.WithKBs / *r.WithoutKBs * 100) / 100
			r.Ratio = &v
		}
		out = append(out, r)
	}
	return out
}

// kbsAt is a cipher's figure at one block size, nil when not measured.
func kbsAt(c result.OpenSSLCipher, block int) *float64 {
	for _, v := range c.Values {
		if v.BlockBytes == block {
			return v.KBs
		}
	}
	return nil
}
