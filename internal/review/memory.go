package review

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/inventory/memory"
	"boardbench/internal/kernelfile"
)

// devfreqKind classifies a devfreq device by its name: "memory" (DMC),
// "GPU" or "NPU"; "" for others.
func devfreqKind(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "dmc") || strings.Contains(n, "ddr") || strings.Contains(n, "memory"):
		return "memory"
	case strings.Contains(n, "gpu") || strings.Contains(n, "mali") || strings.Contains(n, "g3d"):
		return "GPU"
	case strings.Contains(n, "npu"):
		return "NPU"
	}
	return ""
}

// highestFreq returns the highest of a space-separated frequency list.
func highestFreq(s string) (int64, bool) {
	var best int64
	for _, v := range kernelfile.ParseFrequencies(s) {
		best = max(best, v)
	}
	return best, best > 0
}

// DevfreqDefaultGovernor picks the load-following governor a devfreq
// device offers (dmc_ondemand, simple_ondemand), "" when none.
func DevfreqDefaultGovernor(available string) string {
	for _, g := range []string{"dmc_ondemand", "simple_ondemand"} {
		if slices.Contains(kernelfile.ParseAvailable(available), g) {
			return g
		}
	}
	return ""
}

func devfreqGovernor(e *Env) []Finding {
	var out []Finding
	names, _ := e.H.ReadDirNames("/sys/class/devfreq")
	for _, n := range names {
		kind := devfreqKind(n)
		if kind == "" {
			continue
		}
		dir := "/sys/class/devfreq/" + n
		gov, ok := e.Read(AreaMemory, dir+"/governor")
		if !ok {
			continue
		}
		avail, _ := e.Read(AreaMemory, dir+"/available_frequencies")
		avGov, _ := e.Read(AreaMemory, dir+"/available_governors")
		maxS, _ := e.Read(AreaMemory, dir+"/max_freq")
		cur, _ := e.Read(AreaMemory, dir+"/cur_freq")
		top, hasTop := highestFreq(avail)
		mx, mxErr := strconv.ParseInt(maxS, 10, 64)
		evidence := []string{ev(dir+"/governor", gov), ev(dir+"/cur_freq", cur), ev(dir+"/max_freq", maxS), ev(dir+"/available_frequencies", avail)}
		def := DevfreqDefaultGovernor(avGov)
		setDef := "a load-following governor"
		if def != "" {
			setDef = fmt.Sprintf("echo %s > %s/governor", def, dir)
		}
		switch {
		case gov == "powersave" || (gov == "userspace" && hasTop && cur != strconv.FormatInt(top, 10)):
			out = append(out, warn(
				fmt.Sprintf("the %s clock (%s) is held low by the %s governor", kind, n, gov),
				setDef+" (boardbench review --apply does this until restore)",
				"/etc/rc.local or a udev rule on the devfreq device",
				"a little more power at idle", evidence...))
		case gov == "performance":
			out = append(out, info(
				fmt.Sprintf("the %s clock (%s) is fixed at its maximum by the performance governor", kind, n),
				"if you did not set this, an earlier benchmark tool may have left it (it raises idle power and flatters memory results); "+setDef+"; boardbench found it and changed nothing",
				"", "none", evidence...))
		case hasTop && mxErr == nil && mx < top:
			out = append(out, warn(
				fmt.Sprintf("the %s clock (%s) is capped at %d MHz below its %d MHz maximum", kind, n, mx/1000000, top/1000000),
				fmt.Sprintf("echo %d > %s/max_freq (boardbench review --apply does this until restore)", top, dir),
				"/etc/rc.local", "more power under load", evidence...))
		}
	}
	return out
}

// flashKinds are memory.BlockDevice disk kinds on SD cards and eMMC.
var flashKinds = []string{memory.DiskSD, memory.DiskEMMC, memory.DiskMMC}

func swapOnFlash(e *Env) []Finding {
	if _, ok := e.Read(AreaMemory, "/proc/swaps"); !ok {
		return nil
	}
	var out []Finding
	for _, s := range memory.Collect(e.H).Swaps {
		if s.Device == nil || !slices.Contains(flashKinds, s.Device.DiskKind) {
			continue
		}
		out = append(out, warn(
			fmt.Sprintf("swap %s lives on %s (%s): slow, and it wears the flash out", s.Path, s.Device.Disk, s.Device.DiskKind),
			fmt.Sprintf("swapoff %s, and swap to zram instead (apt install zram-tools, or systemd-zram-generator): compressed RAM pages come back in microseconds, an SD card's random writes take milliseconds and each one wears it", s.Path),
			"remove the swap line from /etc/fstab or `systemctl disable --now dphys-swapfile`",
			"zram holds swapped pages in RAM, compressed about 3:1",
			ev("/proc/swaps", fmt.Sprintf("%s %s %d KiB", s.Path, s.Kind, s.SizeBytes/1024)),
			fmt.Sprintf("%s is on disk %s (%s)", s.Path, s.Device.Disk, s.Device.DiskKind)))
	}
	return out
}

func zramAndZswap(e *Env) []Finding {
	zp := "/sys/module/zswap/parameters/enabled"
	en, ok := e.Read(AreaMemory, zp)
	if !ok || (en != "Y" && en != "1") {
		return nil
	}
	raw, _ := e.Read(AreaMemory, "/proc/swaps")
	for _, s := range kernelfile.ParseSwaps([]byte(raw)) {
		if strings.HasPrefix(path.Base(s.Path), "zram") {
			return []Finding{warn(
				"zswap is enabled on top of zram swap: pages are compressed twice and zswap's pool takes RAM zram would use",
				"echo 0 > "+zp,
				"zswap.enabled=0 on the kernel command line (extlinux.conf APPEND, /boot/firmware/cmdline.txt or GRUB_CMDLINE_LINUX)",
				"none", ev(zp, en), ev("/proc/swaps", s.Path+" "+s.Type))}
		}
	}
	return nil
}

func thpSetting(e *Env) []Finding {
	tp := "/sys/kernel/mm/transparent_hugepage/enabled"
	v, ok := e.Read(AreaMemory, tp)
	if !ok {
		return nil
	}
	mi, ok := e.Read(AreaMemory, "/proc/meminfo")
	if !ok {
		return nil
	}
	total, ok := kernelfile.ParseMeminfo([]byte(mi))["MemTotal"]
	if !ok {
		return nil
	}
	sel := kernelfile.ParseChoice(v).Selected
	mib := total >> 20
	memEv := fmt.Sprintf("/proc/meminfo: MemTotal %d MiB", mib)
	switch {
	case sel == "always" && mib <= 1024:
		return []Finding{warn(
			fmt.Sprintf("transparent huge pages are always on with only %d MiB of RAM: memory is wasted on partly used 2 MiB pages", mib),
			"echo madvise > "+tp,
			"transparent_hugepage=madvise on the kernel command line",
			"programs that do not ask for huge pages lose them", ev(tp, v), memEv)}
	case sel == "never" && mib >= 4096:
		return []Finding{info(
			fmt.Sprintf("transparent huge pages are off with %d MiB of RAM: memory-heavy programs lose TLB reach", mib),
			"echo madvise > "+tp,
			"transparent_hugepage=madvise on the kernel command line",
			"a little memory for programs that ask for huge pages", ev(tp, v), memEv)}
	}
	return nil
}
