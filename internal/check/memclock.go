package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/inventory/devfreq"
	"boardbench/internal/result"
)

// Finding ids of the memory-clock rules.
const (
	IDDMCPinnedLow = "dmc_pinned_low"
	IDDMCAbsent    = "dmc_scaling_absent"
)

// dmcSoCVendors are the SoC makers whose vendor kernels scale the memory
// clock through a devfreq device of the memory controller (Rockchip's
// "dmc" on RK3288, RK3328, RK3399, RK356x, RK3576, RK3588). On their SoCs
// a machine without that device runs its memory at whatever clock the
// bootloader set, which boardbench cannot read.
var dmcSoCVendors = []string{"Rockchip "}

// DMCScaling judges the memory controller's devfreq device (r.Info's
// devfreq list): held below its highest clock (powersave, a userspace
// governor at a lower clock, max_freq below the highest offered clock),
// or absent on a SoC whose vendor kernels scale the memory clock.
func DMCScaling(r *result.Result, _ Facts) []finding.Finding {
	if r.Info == nil {
		return nil
	}
	var out []finding.Finding
	found := false
	for _, d := range r.Info.Devfreq {
		if d.Kind != devfreq.KindMemory {
			continue
		}
		found = true
		if f, ok := dmcPinnedLow(d); ok {
			out = append(out, f)
		}
	}
	if !found && dmcExpected(r.Info.SoC.Guess) {
		out = append(out, finding.Finding{
			ID: IDDMCAbsent, Severity: finding.Info,
			Title: "The memory clock cannot be read or scaled: no devfreq device for the memory controller",
			Evidence: []string{fmt.Sprintf("SoC %s: its vendor kernels scale the memory clock through a devfreq device (dmc); %s lists none",
				r.Info.SoC.Guess, devfreq.Dir)},
			Advice: "The memory runs at the clock the bootloader set, which may be its lowest. Memory bandwidth and LLM token rates depend on it: " +
				"use a bootloader and kernel with DMC support (a vendor kernel, or the DDR init blob for the highest clock) before comparing figures.",
		})
	}
	return out
}

// dmcExpected reports whether the SoC's vendor kernels scale the memory
// clock through devfreq.
func dmcExpected(soc string) bool {
	return slices.ContainsFunc(dmcSoCVendors, func(v string) bool { return strings.HasPrefix(soc, v) })
}

// dmcPinnedLow judges one memory devfreq device; false when it can reach
// its highest clock (or nothing says otherwise).
func dmcPinnedLow(d devfreq.Device) (finding.Finding, bool) {
	top, ok := d.TopMHz()
	if !ok || len(d.AvailableMHz) < 2 {
		return finding.Finding{}, false
	}
	dir := devfreq.Dir + "/" + d.Name
	var why string
	switch {
	case d.Governor == "powersave":
		why = "the powersave governor holds it at its lowest clock"
	case d.Governor == "userspace" && d.CurMHz != nil && *d.CurMHz < top:
		why = fmt.Sprintf("the userspace governor holds it at %s MHz", mhzText(*d.CurMHz))
	case d.MaxMHz != nil && *d.MaxMHz < top:
		why = fmt.Sprintf("max_freq caps it at %s MHz", mhzText(*d.MaxMHz))
	default:
		return finding.Finding{}, false
	}
	ev := []string{
		fmt.Sprintf("%s/governor: %s", dir, orUnknown(d.Governor)),
		fmt.Sprintf("%s/cur_freq: %s, max_freq: %s", dir, optMHz(d.CurMHz), optMHz(d.MaxMHz)),
		fmt.Sprintf("%s/available_frequencies: %s MHz", dir, mhzList(d.AvailableMHz)),
	}
	return finding.Finding{
		ID: IDDMCPinnedLow, Severity: finding.Warning,
		Title:    fmt.Sprintf("The memory clock (%s) is held below its highest %s MHz: %s", d.Name, mhzText(top), why),
		Evidence: ev,
		Advice: fmt.Sprintf("Memory bandwidth and everything bound by it (LLM token rates, large-array benchmarks) is lower than the board can do. "+
			"Set a load-following governor (dmc_ondemand or simple_ondemand) and max_freq %d (`boardbench review --apply` does this until restore) before comparing figures.",
			int64(top*1e6)),
	}, true
}

func mhzText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func optMHz(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return mhzText(*v) + " MHz"
}

func mhzList(v []float64) string {
	s := make([]string, len(v))
	for i, f := range v {
		s[i] = mhzText(f)
	}
	return strings.Join(s, " ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
