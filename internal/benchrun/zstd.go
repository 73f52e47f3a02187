package benchrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"boardbench/internal/benchtool/zstd"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// Input sizes of the zstd workload: one zstd job (zstd.JobBytes) per
// thread, at least one and at most eight jobs; QuickZstdInput in quick
// mode (one job: its figure shows one thread's speed and does not
// compare).
const (
	MinZstdInput   = zstd.JobBytes
	MaxZstdInput   = 8 * zstd.JobBytes
	QuickZstdInput = 2 << 20
)

// zstdInputBytes is the input size for a number of threads.
func (r *runner) zstdInputBytes(threads int) int64 {
	if r.plan.Quick {
		return QuickZstdInput
	}
	return min(max(int64(threads)*zstd.JobBytes, MinZstdInput), MaxZstdInput)
}

// zstdSteps is the zstd workload's phase: zstd -q -19 -T<n> on the
// generated input, n being the number of usable CPUs, bound to them.
func (r *runner) zstdSteps() []session.Step {
	n := len(r.usable)
	title := fmt.Sprintf("zstd -19 on all CPUs (cpu%s)", cpu.FormatCPUList(r.usable))
	st := session.Step{Name: result.PhaseZstd, Title: title, CPUs: r.usable}
	tool := r.wlTools[WorkloadZstd]
	if tool == nil {
		st.Skip = missingReason("zstd", r.wlMissing[WorkloadZstd])
		return []session.Step{st}
	}
	input := r.zstdInputBytes(n)
	// About 0.5 MB/s per thread at level 19 on a Cortex-A72.
	st.Estimate = time.Duration(float64(input)/0.5e6/float64(max(n, 1))) * time.Second
	st.Run = func(ctx context.Context, p *result.Phase) error {
		cpus := r.pinnable()
		if len(cpus) == 0 {
			return errors.New("no CPU could be pinned")
		}
		p.CPUs = cpus
		input := r.zstdInputBytes(len(cpus))
		p.Title = fmt.Sprintf("zstd -%d -T%d on cpu%s, %s of generated input", zstd.DefaultLevel, len(cpus), cpu.FormatCPUList(cpus), mib(input))
		r.prog.sub("generating the input, then compressing it")
		m, err := zstd.Run(ctx, r.cfg.Exec, *tool, zstd.Options{Threads: len(cpus), CPUs: cpus, InputBytes: input})
		figs := result.ZstdFigures{CPUs: cpus, Version: tool.Version, VersionLine: tool.VersionLine, Level: zstd.DefaultLevel,
			Threads: len(cpus), Input: zstd.InputName, InputBytes: input}
		if m != nil {
			var raw strings.Builder
			appendRaw(&raw, m.Tool, m.Args, m.RawOutput, m.RawStderr)
			p.RawOutput = raw.String()
			figs.OutputBytes, figs.Ratio, figs.Seconds, figs.MBs = m.OutputBytes, m.Ratio(), m.Seconds(), m.MBs()
		}
		if err != nil {
			figs.Error = err.Error()
		}
		if ferr := p.SetFigures(figs); ferr != nil {
			return ferr
		}
		return err
	}
	return []session.Step{st}
}

// mib formats a size in MiB (2^20 bytes).
func mib(b int64) string {
	return fmt.Sprintf("%g MiB", float64(b)/(1<<20))
}
