package benchrun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/prepare"
	"boardbench/internal/result"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// FindTools finds 7-Zip (a 16.02 binary when one is installed, for
// comparable figures; else the first of 7zz, 7z, 7za, 7zr) and openssl,
// installing a missing one when allowInstall and running as root.
func FindTools(ctx context.Context, h *host.Host, allowInstall bool) ToolSet {
	var ts ToolSet
	inst, instErr := tools.NewInstaller(h, allowInstall)
	all, _ := tools.FindAllSevenZip(ctx, h)
	if t := tools.PickComparableSevenZip(all); t != nil {
		ts.SevenZip = t
	} else if len(all) > 0 {
		t := all[0]
		ts.SevenZip = &t
	}
	if ts.SevenZip == nil {
		ts.SevenZip, ts.SevenZipMissing = ensure(ctx, inst, instErr, tools.KindSevenZip)
	}
	if t, _ := tools.FindOpenSSL(ctx, h); t != nil {
		ts.OpenSSL = t
	} else {
		ts.OpenSSL, ts.OpenSSLMissing = ensure(ctx, inst, instErr, tools.KindOpenSSL)
	}
	return ts
}

// ensure installs a missing tool when the installer allows it.
func ensure(ctx context.Context, inst *tools.Installer, instErr error, kind tools.Kind) (*tools.Tool, *ToolMissing) {
	if inst == nil {
		return nil, &ToolMissing{Reason: "not installed (" + instErr.Error() + ")", Hint: "install " + string(kind) + " from your distribution's packages"}
	}
	t, err := inst.Ensure(ctx, kind)
	if err == nil {
		return t, nil
	}
	var ie *tools.InstallError
	if errors.As(err, &ie) {
		return nil, &ToolMissing{Reason: "not installed: " + ie.Reason, Hint: ie.Hint}
	}
	return nil, &ToolMissing{Reason: "not installed: " + err.Error(), Hint: "install " + string(kind) + " from your distribution's packages"}
}

// findTools records the tools and a finding for each missing one.
func (r *runner) findTools(ctx context.Context) {
	r.tools = r.cfg.FindTools(ctx, r.h, !r.opt.NoInstall)
	add := func(name string, t *tools.Tool, missing *ToolMissing) {
		if t != nil {
			tv := result.ToolVersion{Name: t.Name, Path: t.Path, Version: t.Version, VersionLine: t.VersionLine}
			if !t.Comparable {
				tv.Note = t.ComparableReason
			}
			if t.BannerLine != "" && t.Flavor == tools.FlavorP7zipWrapper {
				tv.Note = strings.TrimSpace(tv.Note + " (banner: " + t.BannerLine + ")")
			}
			r.res.Tools = append(r.res.Tools, tv)
			return
		}
		if missing == nil {
			missing = &ToolMissing{Reason: "not installed"}
		}
		r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: name, Note: missing.Reason + "; " + missing.Hint})
		r.runFindings = append(r.runFindings, check.ToolMissing(name, "its benchmarks were skipped", missing.Reason, missing.Hint))
	}
	add("7-Zip", r.tools.SevenZip, r.tools.SevenZipMissing)
	add("openssl", r.tools.OpenSSL, r.tools.OpenSSLMissing)
}

// idleGate waits until the machine is quiet, up to the idle timeout, or
// records that the gate was skipped or timed out (prepare.IdleGate, the
// gate of every measuring command); on a terminal the countdown redraws
// one line, elsewhere a line every 10 s at most.
func (r *runner) idleGate(ctx context.Context) {
	var lastLine time.Time
	status := func(msg string) {
		if r.cfg.TTY {
			r.prog.redraw("boardbench run: " + msg)
		} else if r.now().Sub(lastLine) >= 10*time.Second {
			lastLine = r.now()
			r.prog.linef("boardbench run: %s", msg)
		}
	}
	f := prepare.IdleGate(ctx, r.h, r.opt.Force, r.opt.IdleTimeout, status)
	r.prog.clear()
	if f != nil {
		r.runFindings = append(r.runFindings, *f)
	}
}

// tune switches cpufreq governors (and memory devfreq governors) to
// performance as root, through the session's guard; the engine restores
// everything at the end.
func (r *runner) tune(ctx context.Context) {
	if !r.isRoot {
		r.res.Tuning.Note = "not root: cpufreq governors left as they are"
		r.runFindings = append(r.runFindings, check.NotTuned(r.governorsText()))
		return
	}
	g, _, err := r.sess.Tune(ctx, tune.WithLock(r.cfg.Lock))
	if err != nil {
		r.res.Tuning.Note = "nothing to tune: " + err.Error()
		return
	}
	r.guard = g
	r.applyPerformance()
}

// applyPerformance sets the performance governor on every cpufreq policy
// and memory devfreq device that offers it; changes are listed once.
func (r *runner) applyPerformance() {
	st := r.guard.State()
	all := len(st.Policies) > 0
	for _, p := range st.Policies {
		cur := strings.TrimSpace(p.Governor)
		if !offers(r.h, p.Dir+"/scaling_available_governors", "performance") {
			all = false
			r.noteChange(fmt.Sprintf("policy%d: governor %s kept (no performance governor)", p.Policy, cur))
			continue
		}
		if now, err := r.h.ReadString(p.Dir + "/scaling_governor"); err == nil && strings.TrimSpace(now) == "performance" {
			continue
		}
		if err := r.guard.SetGovernor(p.Policy, "performance"); err != nil {
			all = false
			r.noteChange(fmt.Sprintf("policy%d: cannot set performance: %v", p.Policy, err))
			continue
		}
		r.noteChange(fmt.Sprintf("policy%d governor %s → performance", p.Policy, cur))
	}
	for _, d := range st.Devfreq {
		if !isMemoryDevfreq(d.Name) || !offers(r.h, d.Dir+"/available_governors", "performance") {
			continue
		}
		cur := strings.TrimSpace(d.Governor)
		if cur == "performance" {
			continue
		}
		if err := r.guard.SetDevfreqGovernor(d.Name, "performance"); err != nil {
			r.noteChange(fmt.Sprintf("devfreq %s: cannot set performance: %v", d.Name, err))
			continue
		}
		r.noteChange(fmt.Sprintf("devfreq %s governor %s → performance", d.Name, cur))
	}
	r.tuned = all
}

// noteChange records a tuning line once.
func (r *runner) noteChange(s string) {
	for _, c := range r.res.Tuning.Changed {
		if c == s {
			return
		}
	}
	r.res.Tuning.Changed = append(r.res.Tuning.Changed, s)
}

// offers reports whether a sysfs list of governors contains name.
func offers(h *host.Host, p, name string) bool {
	s, err := h.ReadString(p)
	if err != nil {
		return false
	}
	return slices.Contains(kernelfile.ParseAvailable(s), name)
}

// isMemoryDevfreq recognises devfreq devices that scale the memory clock
// (Rockchip dmc, Allwinner dram, Exynos/i.MX buses, Amlogic ddr...): a slow
// governor there lowers memory bandwidth and latency figures.
func isMemoryDevfreq(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"dmc", "ddr", "dram", "memory", "-bus", "noc"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// governors reads every policy's governor now.
func (r *runner) governors() map[int]string {
	out := map[int]string{}
	for n, dir := range tune.Policies(r.h) {
		if g, err := r.h.ReadString(dir + "/scaling_governor"); err == nil {
			out[n] = strings.TrimSpace(g)
		}
	}
	return out
}

func (r *runner) governorsText() string {
	g := r.governors()
	if len(g) == 0 {
		return "no cpufreq"
	}
	var parts []string
	for _, n := range sortedInts(g) {
		parts = append(parts, fmt.Sprintf("policy%d %s", n, g[n]))
	}
	return strings.Join(parts, ", ")
}
