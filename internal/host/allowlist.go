package host

import (
	"boardbench/internal/lazyre"
	"path"
	"strings"
)

// readPrefixes are the trees and files whose regular files may be read whole.
// Everything else is refused: some SoCs reset or hang when certain debug or
// register nodes are read, so boardbench reads only what it knows.
var readPrefixes = []string{
	"/proc/cpuinfo", "/proc/meminfo", "/proc/swaps", "/proc/version",
	"/proc/loadavg", "/proc/stat", "/proc/vmstat", "/proc/uptime",
	"/proc/mounts", "/proc/self/mountinfo", "/proc/cmdline", "/proc/modules",
	"/proc/diskstats", "/proc/interrupts", "/proc/softirqs", "/proc/net/dev",
	"/proc/sys/kernel/", "/proc/sys/vm/", "/proc/pressure/", "/proc/device-tree",
	"/proc/self/status", "/proc/self/cgroup",
	// review and kernel: the kernel config, interrupt affinities.
	"/proc/config.gz", "/proc/irq/",
	"/proc/self/status", "/proc/irq/",
	"/sys/devices/system/cpu/", "/sys/devices/system/node/",
	"/sys/devices/cpu_core/", "/sys/devices/cpu_atom/", "/sys/devices/cpu/",
	"/sys/firmware/devicetree/", "/sys/firmware/acpi/", "/sys/class/dmi/id/",
	"/sys/class/thermal/", "/sys/class/hwmon/", "/sys/class/block/",
	"/sys/class/net/", "/sys/class/mmc_host/", "/sys/class/devfreq/",
	"/sys/class/power_supply/", "/sys/class/nvme/", "/sys/class/scsi_disk/",
	"/sys/class/scsi_host/", "/sys/class/regulator/", "/sys/class/drm/",
	"/sys/class/misc/", "/sys/class/zram-control/", "/sys/class/powercap/",
	"/sys/dev/block/",
	"/sys/block/", "/sys/bus/pci/devices/", "/sys/bus/pci/drivers/",
	"/sys/bus/usb/devices/", "/sys/bus/usb/drivers/", "/sys/bus/mmc/devices/",
	"/sys/bus/platform/devices/", "/sys/bus/scsi/devices/",
	"/sys/module/zswap/parameters/", "/sys/module/", "/sys/kernel/mm/",
	"/sys/devices/virtual/", "/sys/devices/platform/", "/sys/devices/pci",
	"/sys/devices/soc", "/sys/devices/system/", "/sys/power/",
	"/sys/hypervisor/type",
	// mem and run: the cgroup v2 memory limits (memory.max, memory.current).
	"/sys/fs/cgroup/",
	"/etc/os-release", "/usr/lib/os-release", "/etc/debian_version",
	"/etc/armbian-release", "/etc/armbian-image-release", "/etc/alpine-release",
	"/etc/lsb-release", "/etc/rpi-issue", "/etc/hostname",
	"/boot/config.txt", "/boot/firmware/config.txt",
	// info: the kernel config of distributions without /proc/config.gz.
	"/boot/config-",
}

// listPrefixes may be listed (ReadDir) but their files not read.
var listPrefixes = []string{
	"/proc", "/sys", "/dev", "/lib", "/lib64", "/usr/lib", "/usr/lib64",
	"/usr/bin", "/bin", "/sys/devices", "/usr/local/bin", "/usr/local/lib", "/opt",
}

// headPrefixes may be read up to 4 KiB from the start (ELF headers of the
// userland's executables and libraries).
var headPrefixes = []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/lib", "/usr/lib", "/usr/local/bin/", "/usr/local/lib", "/opt/"}

// statPrefixes may be stat'ed only (existence and size of device nodes).
var statPrefixes = []string{"/dev/", "/usr/", "/opt/", "/etc/"}

// deniedBase reports the file names never read, wherever they appear:
// register dumps, ROMs, raw memory and write-triggered controls. (A switch,
// not a map literal, so that it costs nothing when boardbench starts.)
func deniedBase(name string) bool {
	switch name {
	case "rom", "mem", "kmem", "kcore",
		"reset", "remove", "rescan", "new_id",
		"remove_id", "bind", "unbind", "uevent_trigger",
		"registers", "regmap", "eeprom", "nvmem":
		return true
	}
	return false
}

// procPidFile reports whether p is one of the files of a process that may
// be read: /proc/PID/ stat, comm, status, cmdline, io, maps, mountinfo,
// cgroup, fdinfo/FD, task/TID/stat and task/TID/comm (fdinfo, maps and mountinfo
// say which devices `writes` may attribute its writes to). Spelled out
// rather than a regular expression: every read asks, and compiling one
// cost each command 64 KB of allocations.
func procPidFile(p string) bool {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return false
	}
	pid, rest, ok := strings.Cut(rest, "/")
	if !ok || !allDigits(pid) {
		return false
	}
	switch rest {
	case "stat", "comm", "status", "cmdline", "io", "maps", "mountinfo", "cgroup":
		return true
	}
	if fd, ok := strings.CutPrefix(rest, "fdinfo/"); ok {
		return allDigits(fd)
	}
	if t, ok := strings.CutPrefix(rest, "task/"); ok {
		tid, f, ok := strings.Cut(t, "/")
		return ok && allDigits(tid) && (f == "stat" || f == "comm")
	}
	return false
}

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// hasPrefixIn reports whether p lies in one of the prefixes. A prefix ending in
// "/" names a tree (and matches the tree's directory itself); any other prefix
// matches as a plain string prefix, so "/sys/devices/pci" covers every
// "/sys/devices/pci0000:00".
func hasPrefixIn(p string, prefixes []string) bool {
	for _, pre := range prefixes {
		if strings.HasPrefix(p, pre) || p == strings.TrimSuffix(pre, "/") {
			return true
		}
	}
	return false
}

func deniedName(p string) bool {
	b := path.Base(p)
	return deniedBase(b) || strings.HasPrefix(b, "resource") && strings.Contains(p, "/pci")
}

func readAllowed(p string) bool {
	if strings.HasPrefix(p, "/sys/kernel/debug") || strings.HasPrefix(p, "/sys/firmware/efi/efivars") {
		return false
	}
	if deniedName(p) {
		return false
	}
	if procPidFile(p) {
		return true
	}
	return hasPrefixIn(p, readPrefixes)
}

func listAllowed(p string) bool {
	if strings.HasPrefix(p, "/sys/kernel/debug") {
		return false
	}
	return p == "/" || hasPrefixIn(p, listPrefixes)
}

func headAllowed(p string) bool { return hasPrefixIn(p, headPrefixes) && !deniedName(p) }

func statAllowed(p string) bool { return hasPrefixIn(p, statPrefixes) }

// deniedResolved refuses reads whose links led somewhere dangerous.
func deniedResolved(rp string) bool {
	return strings.HasPrefix(rp, "/dev/") || strings.HasPrefix(rp, "/sys/kernel/debug") || deniedName(rp)
}

// writePatterns are the only files boardbench may write: cpufreq and devfreq
// governors and limits, interrupt affinity and receive packet steering,
// which it restores when it exits.
var writePatterns = []lazyre.Regexp{
	lazyre.Regexp(`^/sys/devices/system/cpu/cpufreq/policy[0-9]+/scaling_(governor|min_freq|max_freq|setspeed)$`),
	lazyre.Regexp(`^/sys/devices/system/cpu/cpu[0-9]+/cpufreq/scaling_(governor|min_freq|max_freq|setspeed)$`),
	lazyre.Regexp(`^/sys/devices/system/cpu/cpu[0-9]+/online$`),
	lazyre.Regexp(`^/sys/class/devfreq/[^/]+/(governor|min_freq|max_freq)$`),
	// review --apply: governor tunables, the PCIe ASPM policy, receive
	// packet steering, interrupt affinity (all restored from tune's state
	// file).
	lazyre.Regexp(`^/sys/devices/system/cpu/cpufreq/(policy[0-9]+/)?(ondemand|conservative)/(io_is_busy|up_threshold|sampling_down_factor|sampling_rate)$`),
	lazyre.Regexp(`^/sys/module/pcie_aspm/parameters/policy$`),
	// net --apply and review --apply: interrupt affinity and receive packet steering.
	lazyre.Regexp(`^/proc/irq/[0-9]+/smp_affinity(_list)?$`),
	lazyre.Regexp(`^/sys/class/net/[^/]+/queues/rx-[0-9]+/rps_cpus$`),
}

func writeAllowed(p string) bool {
	for _, re := range writePatterns {
		if re.MatchString(p) {
			return true
		}
	}
	return false
}

// gencmdQuestions are the only firmware general commands the mailbox
// (FirmwareMailbox) passes: questions whose answers the monitor and the
// power meter sample, never a command that changes anything.
var gencmdQuestions = []string{
	"get_throttled", "measure_clock arm", "measure_volts core", "pmic_read_adc",
}

func gencmdAllowed(cmd string) bool {
	for _, q := range gencmdQuestions {
		if cmd == q {
			return true
		}
	}
	return false
}
