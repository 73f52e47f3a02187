package benchrun

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"boardbench/internal/benchtool/cryptsetup"
	"boardbench/internal/host"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
)

// cryptsetupCipher is the cipher of the cryptsetup phase (dm-crypt's and
// LUKS2's default), measured with each key size of Plan.CryptsetupKeyBits.
const cryptsetupCipher = "aes-xts-plain64"

// FindCryptsetup finds cryptsetup, installing it when allowInstall (the
// installer refuses when not root). It is only looked for with
// --extensive as root.
func FindCryptsetup(ctx context.Context, h *host.Host, allowInstall bool) (*tools.Tool, *ToolMissing) {
	if t, _ := tools.FindCryptsetup(ctx, h); t != nil {
		return t, nil
	}
	inst, instErr := tools.NewInstaller(h, allowInstall)
	return ensure(ctx, inst, instErr, tools.KindCryptsetup)
}

// findCryptsetup records cryptsetup for --extensive: as root only, since
// boardbench runs `cryptsetup benchmark` only as root. A missing
// cryptsetup skips its phases with the reason; it is no finding (the
// phases are an extra).
func (r *runner) findCryptsetup(ctx context.Context) {
	if !r.opt.Extensive {
		return
	}
	if !r.isRoot {
		return // cryptsetupSkip says why
	}
	find := r.cfg.FindCryptsetup
	if find == nil {
		find = FindCryptsetup
	}
	r.tools.Cryptsetup, r.tools.CryptsetupMissing = find(ctx, r.h, !r.opt.NoInstall)
	if t := r.tools.Cryptsetup; t != nil {
		r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: t.Name, Path: t.Path, Version: t.Version, VersionLine: t.VersionLine})
		return
	}
	m := r.tools.CryptsetupMissing
	if m == nil {
		m = &ToolMissing{Reason: "not installed"}
		r.tools.CryptsetupMissing = m
	}
	r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: "cryptsetup", Note: m.Reason + "; " + m.Hint})
}

// cryptsetupSkip is the skip reason of the cryptsetup phases, "" when they
// can run.
func (r *runner) cryptsetupSkip() string {
	switch {
	case !r.isRoot:
		return "not root: boardbench runs cryptsetup benchmark as root only (run with sudo to measure the kernel's aes-xts)"
	case r.tools.Cryptsetup == nil:
		return missingReason("cryptsetup", r.tools.CryptsetupMissing)
	}
	return ""
}

// cryptsetupStep measures aes-xts with each key size of the plan, pinned to
// one CPU of the target. The kernel does the cipher work on the calling
// thread's CPU for synchronous ciphers; it may hand it to an asynchronous
// driver (a crypto engine, a worker on another CPU) instead.
func (r *runner) cryptsetupStep(t Target) session.Step {
	n := len(r.plan.CryptsetupKeyBits)
	title := "cryptsetup benchmark " + cryptsetupCipher + " on one CPU of " + t.Label()
	st := session.Step{Name: result.PhaseCryptsetup, Title: title, Kind: "cryptsetup",
		Estimate: r.est.CryptsetupRun * timeMul(n)}
	if reason := r.cryptsetupSkip(); reason != "" {
		st.Kind, st.Estimate, st.Skip = "", 0, reason
		return st
	}
	st.Run = func(ctx context.Context, p *result.Phase) error {
		cpu, ok := r.pick(t)
		if !ok {
			return fmt.Errorf("no CPU of %s could be pinned", t.Label())
		}
		p.CPUs = []int{cpu}
		p.Title = fmt.Sprintf("cryptsetup benchmark %s on cpu%d (%s)", cryptsetupCipher, cpu, orUnknown(t.Core))
		tool := *r.tools.Cryptsetup
		figs := result.CryptsetupFigures{CPUs: []int{cpu}, Core: t.Core, Version: tool.Version, Flags: []string{}, Ciphers: []result.CryptsetupCipher{}, Userland: r.userland()}
		if tool.Cryptsetup != nil && tool.Cryptsetup.Flags != nil {
			figs.Flags = tool.Cryptsetup.Flags
		}
		var raw strings.Builder
		var failed []string
		for i, bits := range r.plan.CryptsetupKeyBits {
			r.prog.sub(fmt.Sprintf("%s %d-bit key (%d of %d)", cryptsetupCipher, bits, i+1, n))
			m, err := cryptsetup.Run(ctx, r.cfg.Exec, tool, cryptsetupCipher, bits, cryptsetup.Options{CPUs: []int{cpu}})
			if m == nil {
				m = &cryptsetup.Measurement{Tool: tool.Path, Cipher: cryptsetupCipher, KeyBits: bits}
			}
			appendRaw(&raw, m.Tool, m.Args, m.RawOutput, m.RawStderr)
			c := result.CryptsetupCipher{Cipher: cryptsetupCipher, KeyBits: bits}
			if row := m.Row(); row != nil && err == nil {
				c.EncryptionMiBs, c.DecryptionMiBs = row.EncryptionMiBs, row.DecryptionMiBs
			}
			if err != nil {
				c.Error = err.Error()
			}
			figs.Ciphers = append(figs.Ciphers, c)
			if ctx.Err() != nil {
				break
			}
			if err != nil {
				msg := err.Error()
				if errors.Is(err, cryptsetup.ErrUnavailable) && m.Result != nil && len(m.Result.Messages) > 0 {
					msg = m.Result.Messages[0] // the figures keep the whole message
				}
				failed = append(failed, fmt.Sprintf("%d-bit key: %s", bits, msg))
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
	}
	return st
}
