// Package prepare holds what `boardbench sweep` and `boardbench thermal` do
// before measuring, the same way `boardbench run` does it: wait for a quiet
// machine (or record that --force skipped the wait) and find 7-Zip,
// installing it when allowed. Each outcome that matters for the figures is
// returned as a finding for the session.
package prepare

import (
	"context"
	"errors"
	"fmt"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/idle"
	"boardbench/internal/kernelfile"
	"boardbench/internal/result"
	"boardbench/internal/tools"
)

// IdleGate is the one idle gate of every measuring command (run, sweep,
// thermal): it waits up to limit for a quiet machine and returns the
// finding to record (check.IdleGateSkipped, check.NotQuiet,
// check.IdleUnknown), or nil when the machine was quiet or ctx ended.
// status, when set, receives a line per look while waiting, the countdown
// first (a narrow terminal cuts the end of a status line, never the time
// left).
func IdleGate(ctx context.Context, h *host.Host, force bool, limit time.Duration, status func(string)) *finding.Finding {
	if force {
		f := SkippedIdleGate(h)
		return &f
	}
	// A low load average is quiet enough: no need to watch.
	if LowLoad(h) {
		return nil
	}
	report := func(st idle.State, left time.Duration) {
		if !st.Quiet && status != nil {
			status(fmt.Sprintf("%.0f s left waiting for a quiet machine (%s)", left.Seconds(), st.Reason()))
		}
	}
	st, quiet, err := idle.Wait(ctx, h, time.Second, limit, report)
	switch {
	case ctx.Err() != nil || quiet:
		return nil
	case err != nil:
		f := check.IdleUnknown(err)
		return &f
	}
	f := check.NotQuiet(st, limit)
	return &f
}

// SkippedIdleGate is the finding that records an idle check skipped by
// --force, with the load average at the start as evidence (a warning when
// that load was high).
func SkippedIdleGate(h *host.Host) finding.Finding {
	return check.IdleGateSkipped(loadAverage(h))
}

// LowLoad reports whether the 1-minute load average is low enough to call
// the machine quiet without watching it; false when it is unreadable.
func LowLoad(h *host.Host) bool {
	load1, ok := loadAverage(h)
	return ok && load1 < idle.MaxLoad1
}

func loadAverage(h *host.Host) (float64, bool) {
	data, err := h.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	return kernelfile.ParseLoadavg(data)
}

// AllowedCPUs returns given when it is set (tests pin the CPUs), else the
// CPUs this process may run on.
func AllowedCPUs(given []int) ([]int, error) {
	if given != nil {
		return given, nil
	}
	a, err := host.AllowedCPUs()
	if err != nil {
		return nil, fmt.Errorf("reading the CPUs this process may use: %v", err)
	}
	return a, nil
}

// SevenZip finds 7-Zip (a comparable 16.02 binary first, else the first
// one on PATH) and installs it when allowInstall and root permit. It
// returns the tool, or nil with a finding saying why it is missing.
func SevenZip(ctx context.Context, h *host.Host, allowInstall bool) (*tools.Tool, *finding.Finding) {
	all, _ := tools.FindAllSevenZip(ctx, h)
	if t := tools.PickComparableSevenZip(all); t != nil {
		return t, nil
	}
	if len(all) > 0 {
		return &all[0], nil
	}
	reason, hint := "not installed", "install 7-Zip (7zip or p7zip-full) from your distribution's packages"
	inst, err := tools.NewInstaller(h, allowInstall)
	if err == nil {
		t, ierr := inst.Ensure(ctx, tools.KindSevenZip)
		if ierr == nil {
			return t, nil
		}
		var ie *tools.InstallError
		if errors.As(ierr, &ie) {
			reason, hint = "not installed: "+ie.Reason, ie.Hint
		} else {
			reason = "not installed: " + ierr.Error()
		}
	} else {
		reason = "not installed (" + err.Error() + ")"
	}
	f := check.ToolMissing("7-Zip", "nothing could be measured", reason, hint)
	return nil, &f
}

// ToolVersion describes a tool for the result's list of tools.
func ToolVersion(t *tools.Tool) result.ToolVersion {
	tv := result.ToolVersion{Name: t.Name, Path: t.Path, Version: t.Version, VersionLine: t.VersionLine}
	if !t.Comparable {
		tv.Note = t.ComparableReason
	}
	return tv
}
