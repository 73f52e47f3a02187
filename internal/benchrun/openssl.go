package benchrun

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"boardbench/internal/benchtool/openssl"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
)

// opensslBlockSizes are the block sizes of `openssl speed` (1.1.1 and
// later; 1.0.x stops at 8192).
var opensslBlockSizes = []int{16, 64, 256, 1024, 8192, 16384}

// opensslStep measures the plan's ciphers, one after another, pinned to
// one CPU of the target.
func (r *runner) opensslStep(t Target) session.Step {
	return r.opensslCiphersStep(result.PhaseOpenSSL, "AES-CBC", t, r.plan.Ciphers, nil)
}

// opensslEVPStep measures the AEAD ciphers of --extensive (AES-256-GCM,
// ChaCha20-Poly1305) on one CPU of the target, with openssl's build and the
// userland's bitness recorded next to the figures.
func (r *runner) opensslEVPStep(t Target) session.Step {
	return r.opensslCiphersStep(result.PhaseOpenSSLEVP, opensslEVPWhat, t, r.plan.EVPCiphers, func(f *result.OpenSSLFigures) {
		f.Build = opensslBuild(*r.tools.OpenSSL)
		f.Userland = r.userland()
	})
}

// opensslEVPWhat names the ciphers of the openssl-evp phase in its title.
const opensslEVPWhat = "AES-256-GCM and ChaCha20-Poly1305"

// opensslCiphersStep measures ciphers, one after another, pinned to one
// CPU of the target; what names them in the title, and record (when not
// nil) adds to the figures.
func (r *runner) opensslCiphersStep(name, what string, t Target, ciphers []string, record func(*result.OpenSSLFigures)) session.Step {
	n := len(ciphers)
	return session.Step{Name: name, Title: "openssl speed " + what + " on one CPU of " + t.Label(), Kind: "openssl",
		Estimate: r.est.OpenSSLCipher * timeMul(n),
		Run: func(ctx context.Context, p *result.Phase) error {
			cpu, ok := r.pick(t)
			if !ok {
				return fmt.Errorf("no CPU of %s could be pinned", t.Label())
			}
			p.CPUs = []int{cpu}
			p.Title = fmt.Sprintf("openssl speed %s on cpu%d (%s)", what, cpu, orUnknown(t.Core))
			tool := *r.tools.OpenSSL
			figs := result.OpenSSLFigures{CPUs: []int{cpu}, Core: t.Core, Version: tool.Version, SecondsPerBlockSize: r.plan.OpenSSLSeconds}
			if record != nil {
				record(&figs)
			}
			var raw strings.Builder
			var failed []string
			seconds := r.plan.OpenSSLSeconds
			for i, cipher := range ciphers {
				r.prog.sub(fmt.Sprintf("%s (%d of %d)", cipher, i+1, n))
				m, err := openssl.Run(ctx, r.cfg.Exec, tool, cipher, openssl.Options{CPUs: []int{cpu}, Seconds: seconds})
				if err != nil && ctx.Err() == nil && seconds > 0 && m != nil && m.Failure == proc.FailureExit && i == 0 {
					// OpenSSL 1.0.x and LibreSSL know no -seconds: use
					// their default (3 s per block size) for every cipher.
					seconds = 0
					figs.SecondsPerBlockSize = 0
					p.Notes = append(p.Notes, "openssl does not accept -seconds: ran with its default of 3 s per block size")
					m, err = openssl.Run(ctx, r.cfg.Exec, tool, cipher, openssl.Options{CPUs: []int{cpu}, Seconds: 0})
				}
				if m == nil {
					m = &openssl.Measurement{Tool: tool.Path, Cipher: cipher}
				}
				appendRaw(&raw, m.Tool, m.Args, m.RawOutput, m.RawStderr)
				figs.Ciphers = append(figs.Ciphers, cipherFigures(cipher, m, err))
				if ctx.Err() != nil {
					break
				}
				if err != nil {
					failed = append(failed, fmt.Sprintf("%s: %v", cipher, err))
				}
			}
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

// opensslAllCoresStep runs AES-256-CBC on every usable CPU at once.
func (r *runner) opensslAllCoresStep() session.Step {
	const cipher = "aes-256-cbc"
	return session.Step{Name: result.PhaseOpenSSLAllCores, Title: "openssl speed AES-256-CBC on all CPUs at once", Kind: "openssl",
		CPUs: r.usable, Estimate: r.est.OpenSSLCipher,
		Run: func(ctx context.Context, p *result.Phase) error {
			cpus := r.pinnable()
			if len(cpus) == 0 {
				return errors.New("no CPU could be pinned")
			}
			p.CPUs = cpus
			tool := *r.tools.OpenSSL
			ms, err := openssl.RunParallel(ctx, r.cfg.Exec, tool, cipher, cpus, openssl.Options{Seconds: r.plan.OpenSSLSeconds})
			figs := result.OpenSSLFigures{CPUs: cpus, Core: commonCore(r.targets, cpus), Version: tool.Version, SecondsPerBlockSize: r.plan.OpenSSLSeconds}
			c := result.OpenSSLCipher{Cipher: cipher, Values: []result.OpenSSLValue{}}
			for _, b := range opensslBlockSizes {
				c.Values = append(c.Values, result.OpenSSLValue{BlockBytes: b, KBs: round1p(openssl.SumKBPerSec(ms, b))})
			}
			if err != nil {
				c.Error = err.Error()
			}
			figs.Ciphers = []result.OpenSSLCipher{c}
			var raw strings.Builder
			for _, m := range ms {
				if m != nil {
					appendRaw(&raw, m.Tool, m.Args, m.RawOutput, m.RawStderr)
				}
			}
			p.RawOutput = raw.String()
			if ferr := p.SetFigures(figs); ferr != nil {
				return ferr
			}
			return err
		}}
}

// opensslBuild converts what `openssl version -a` said about tool.
func opensslBuild(tool tools.Tool) *result.OpenSSLBuild {
	b := &result.OpenSSLBuild{VersionLine: tool.VersionLine, Flavor: string(tool.Flavor)}
	if o := tool.OpenSSL; o != nil {
		b.LibraryVersion, b.BuiltOn, b.Platform, b.Options, b.Compiler = o.LibraryVersion, o.BuiltOn, o.Platform, o.Options, o.Compiler
		b.OpenSSLDir, b.EnginesDir, b.ModulesDir = o.OpenSSLDir, o.EnginesDir, o.ModulesDir
		b.CPUInfo, b.CPUInfoEnv, b.HardwareAES = o.CPUInfo, o.CPUInfoEnv, o.HardwareAES
	}
	return b
}

// userland is the userland's and the kernel's bitness from the
// description of the machine.
func (r *runner) userland() *result.Userland {
	o := r.info.OS
	return &result.Userland{Bits: o.Userland.Bits, Arch: o.Userland.Arch, KernelBits: o.Kernel.Bits, KernelArch: o.Kernel.Arch, MixedArch: o.MixedArch}
}

// cipherFigures converts one openssl measurement.
func cipherFigures(cipher string, m *openssl.Measurement, err error) result.OpenSSLCipher {
	c := result.OpenSSLCipher{Cipher: cipher, Values: []result.OpenSSLValue{}}
	if err != nil {
		c.Error = err.Error()
	}
	if m == nil || m.Result == nil {
		return c
	}
	for _, b := range opensslBlockSizes {
		v := m.KBPerSec(b)
		if v == nil && !hasBlock(m.Result.BlockSizes, b) {
			continue
		}
		c.Values = append(c.Values, result.OpenSSLValue{BlockBytes: b, KBs: round1p(v)})
	}
	return c
}

func hasBlock(sizes []int, b int) bool {
	for _, s := range sizes {
		if s == b {
			return true
		}
	}
	return false
}

// appendRaw adds one tool run to a phase's raw output, headed by its
// command line.
func appendRaw(b *strings.Builder, tool string, args []string, stdout, stderr string) {
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "$ %s %s\n", tool, strings.Join(args, " "))
	b.WriteString(stdout)
	if stderr != "" {
		if !strings.HasSuffix(stdout, "\n") && stdout != "" {
			b.WriteString("\n")
		}
		b.WriteString(stderr)
	}
}

func round1p(v *float64) *float64 {
	if v == nil {
		return nil
	}
	r := round1(*v)
	return &r
}

func orUnknown(s string) string {
	if s == "" {
		return "core type unknown"
	}
	return s
}

// commonCore returns the core type shared by all cpus, "" when mixed or
// unknown.
func commonCore(targets []Target, cpus []int) string {
	core := ""
	for i, c := range cpus {
		k := ""
		for _, t := range targets {
			for _, x := range t.CPUs {
				if x == c {
					k = t.Core
				}
			}
		}
		if i == 0 {
			core = k
		} else if k != core {
			return ""
		}
	}
	return core
}
