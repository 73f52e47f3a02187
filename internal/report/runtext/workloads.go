package runtext

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderHPL writes HPL's runs with their residual checks, the parameters
// and, where the phase has a mean power, Gflops per watt.
func renderHPL(w *textfmt.Writer, f result.HPLFigures, powerW *float64) {
	fmt.Fprintln(w.W)
	w.Line("HPL through %s %s (HPLinpack %s), %d process(es) in a %d×%d grid, N=%d NB=%d",
		orDash(f.Tool), orNA(f.Version, "version unknown"), orNA(f.HPLVersion, "unknown"), f.Processes, f.P, f.Q, f.N, f.NB)
	if f.MemAvailableBytes != nil {
		w.Line("N sized from MemAvailable %.0f MB: the matrix takes %.0f MB", float64(*f.MemAvailableBytes)/1e6, 8*float64(f.N)*float64(f.N)/1e6)
	}
	w.Line("BLAS: %s", orNA(f.BLAS, "unknown"))
	t := textfmt.NewTable("variant", "N", "NB", "P×Q", "time", "Gflops", "residual", "check")
	for i := 1; i <= 6; i++ {
		t.RightAlign[i] = true
	}
	for _, r := range f.Runs {
		res := "-"
		if r.Residual != nil {
			res = fmt.Sprintf("%.4g", *r.Residual)
		}
		t.Row(r.Variant, fmt.Sprint(r.N), fmt.Sprint(r.NB), fmt.Sprintf("%d×%d", r.P, r.Q), fmt.Sprintf("%.2f s", r.TimeS),
			fmt.Sprintf("%.4g", r.Gflops), res, orDash(r.Check))
	}
	if len(f.Runs) > 0 {
		w.Table(t)
	} else {
		w.Line("runs: none finished")
	}
	if f.ResidualFailed {
		w.Line("residual check FAILED: the machine computed wrong results (finding hpl_residual_failed)")
	}
	if f.Gflops != nil {
		line := fmt.Sprintf("Gflops: %.4g (10^9 floating-point operations per second)", *f.Gflops)
		if powerW != nil && *powerW > 0 {
			line += fmt.Sprintf(", %.3g Gflops/W at %.2f W", *f.Gflops / *powerW, *powerW)
		} else {
			line += ", Gflops/W unknown (no power source)"
		}
		w.Line("%s", line)
	}
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
}

// renderSSH writes each cipher's throughput.
func renderSSH(w *textfmt.Writer, f result.SSHFigures) {
	fmt.Fprintln(w.W)
	w.Line("ssh %s to a throwaway sshd on 127.0.0.1: %.1f MB (%.0f MiB) per cipher to cat > /dev/null",
		orNA(f.Version, "version unknown"), float64(f.Bytes)/1e6, float64(f.Bytes)/(1<<20))
	t := textfmt.NewTable("cipher", "throughput", "time")
	t.RightAlign[1], t.RightAlign[2] = true, true
	secs := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.2f s", *v)
	}
	var errs []string
	for _, c := range f.Ciphers {
		mbs := "-"
		if c.MBs != nil {
			mbs = fmt.Sprintf("%.1f MB/s", *c.MBs)
		}
		t.Row(c.Cipher, mbs, secs(c.DurationS))
		if c.Error != "" {
			errs = append(errs, c.Cipher+": "+c.Error)
		}
	}
	if len(f.Ciphers) > 0 {
		w.Table(t)
	} else {
		w.Line("ciphers: none measured")
	}
	w.Line("MB/s = 10^6 bytes per second over the whole ssh process (connection included, as in dd | ssh)")
	if len(f.Unsupported) > 0 {
		w.Line("not offered by this ssh: %s", strings.Join(f.Unsupported, ", "))
	}
	for _, e := range errs {
		w.Line("%s", e)
	}
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
}

// workloadPairs are the summary lines of the workloads' headline figures,
// or why a measured one is no figure (none without workloads).
func workloadPairs(s result.Summary) [][2]string {
	var out [][2]string
	var wl result.Workloads
	if s.Workloads != nil {
		wl = *s.Workloads
	}
	var hplOut, sshOut []string
	for _, e := range s.Excluded {
		switch {
		case e.Figure == result.FigureHPLGflops:
			hplOut = append(hplOut, fmt.Sprintf("no figure: %s (read %.4g Gflops, not a figure)", e.Reason, e.Measured))
		case strings.HasPrefix(e.Figure, result.FigureSSHMBs+"."):
			if len(sshOut) == 0 {
				sshOut = append(sshOut, "no figure: "+e.Reason)
			}
			sshOut = append(sshOut, fmt.Sprintf("%s read %.1f MB/s", strings.TrimPrefix(e.Figure, result.FigureSSHMBs+"."), e.Measured))
		}
	}
	if h := wl.HPL; h != nil && h.Gflops != nil {
		line := fmt.Sprintf("%.4g Gflops", *h.Gflops)
		if h.GflopsPerW != nil {
			line += fmt.Sprintf(", %.3g Gflops/W", *h.GflopsPerW)
		}
		out = append(out, [2]string{"HPL", line})
	} else if len(hplOut) > 0 {
		out = append(out, [2]string{"HPL", hplOut[0]})
	}
	if ss := wl.SSH; ss != nil && len(ss.MBs) > 0 {
		var parts []string
		for _, c := range slices.Sorted(maps.Keys(ss.MBs)) {
			v := "failed"
			if ss.MBs[c] != nil {
				v = fmt.Sprintf("%.1f MB/s", *ss.MBs[c])
			}
			parts = append(parts, c+" "+v)
		}
		out = append(out, [2]string{"ssh ciphers", strings.Join(parts, ", ")})
	} else if len(sshOut) > 0 {
		out = append(out, [2]string{"ssh ciphers", sshOut[0] + " (" + strings.Join(sshOut[1:], ", ") + ", not figures)"})
	}
	return out
}
