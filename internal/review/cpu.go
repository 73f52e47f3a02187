package review

import (
	"fmt"
	"path"
	"slices"
	"strconv"

	"boardbench/internal/tune"
)

// goodGovernors are the cpufreq governors that reach the top clock under
// load: right for benchmarks and servers.
var goodGovernors = []string{"performance", "schedutil", "ondemand"}

// hwpDrivers manage the clock in hardware: their "powersave" is not the
// generic governor that pins the lowest clock.
var hwpDrivers = []string{"intel_pstate", "amd-pstate-epp", "intel_cpufreq"}

// policyDirs returns the cpufreq policy directories in number order.
func policyDirs(e *Env) []string {
	pols := tune.Policies(e.H)
	keys := make([]int, 0, len(pols))
	for k := range pols {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, pols[k])
	}
	return out
}

func cpufreqGovernor(e *Env) []Finding {
	var out []Finding
	for _, dir := range policyDirs(e) {
		gp := dir + "/scaling_governor"
		gov, ok := e.Read(AreaCPU, gp)
		driver, _ := e.Read(AreaCPU, dir+"/scaling_driver")
		if ok && !slices.Contains(goodGovernors, gov) && !(gov == "powersave" && slices.Contains(hwpDrivers, driver)) {
			out = append(out, warn(
				fmt.Sprintf("%s runs the %s governor, which does not reach the top clock under load", path.Base(dir), gov),
				fmt.Sprintf("echo schedutil > %s (or ondemand on kernels without schedutil)", gp),
				"/etc/rc.local, or GOVERNOR=schedutil in /etc/default/cpufrequtils",
				"none for benchmarks; schedutil idles as low as powersave",
				ev(gp, gov), ev(dir+"/scaling_driver", driver)))
		}
		maxp, cpuMaxp := dir+"/scaling_max_freq", dir+"/cpuinfo_max_freq"
		maxS, ok1 := e.Read(AreaCPU, maxp)
		cpuMaxS, ok2 := e.Read(AreaCPU, cpuMaxp)
		mx, err1 := strconv.ParseInt(maxS, 10, 64)
		cmx, err2 := strconv.ParseInt(cpuMaxS, 10, 64)
		if ok1 && ok2 && err1 == nil && err2 == nil && mx < cmx {
			out = append(out, warn(
				fmt.Sprintf("%s is capped at %d MHz below its %d MHz maximum", path.Base(dir), mx/1000, cmx/1000),
				fmt.Sprintf("echo %d > %s", cmx, maxp),
				"/etc/rc.local, or MAX_SPEED in /etc/default/cpufrequtils",
				"more heat and power under full load; a cap may have been set on purpose against throttling",
				ev(maxp, maxS), ev(cpuMaxp, cpuMaxS)))
		}
	}
	return out
}

// ondemandTunable is one ondemand governor tunable and the value that
// makes the governor ramp up for storage I/O too (the values a ROCK 5B
// needed to double its USB storage writes).
type ondemandTunable struct{ name, want string }

// OndemandTunables are the tunables --apply writes under ondemand.
var OndemandTunables = []ondemandTunable{
	{"io_is_busy", "1"},
	{"up_threshold", "25"},
	{"sampling_down_factor", "10"},
	{"sampling_rate", "200000"},
}

// OndemandDirs returns the ondemand tunable directories of policies running
// ondemand: per policy (policyN/ondemand) or the one global directory.
func OndemandDirs(e *Env) []string {
	var out []string
	global := "/sys/devices/system/cpu/cpufreq/ondemand"
	for _, dir := range policyDirs(e) {
		gov, ok := e.Read(AreaCPU, dir+"/scaling_governor")
		if !ok || gov != "ondemand" {
			continue
		}
		d := dir + "/ondemand"
		if _, ok := e.Read(AreaCPU, d+"/io_is_busy"); !ok {
			d = global
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func ondemandIOIsBusy(e *Env) []Finding {
	var out []Finding
	for _, d := range OndemandDirs(e) {
		busy, ok := e.Read(AreaCPU, d+"/io_is_busy")
		if !ok || busy == "1" {
			continue
		}
		var evidence []string
		advice := ""
		for _, t := range OndemandTunables {
			v, ok := e.Read(AreaCPU, d+"/"+t.name)
			if !ok {
				continue
			}
			evidence = append(evidence, ev(d+"/"+t.name, v))
			if v != t.want {
				if advice != "" {
					advice += "; "
				}
				advice += fmt.Sprintf("echo %s > %s/%s", t.want, d, t.name)
			}
		}
		out = append(out, warn(
			"the ondemand governor ignores I/O wait (io_is_busy=0): storage runs at low clocks",
			advice+" (boardbench review --apply sets these until restore)",
			"/etc/rc.local (a loop over the policies), or a udev rule on the cpufreq policy",
			"slightly higher clocks, and power, while storage is busy",
			evidence...))
	}
	return out
}
