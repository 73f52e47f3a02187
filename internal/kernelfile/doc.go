// Package kernelfile holds the parsers of kernel files under /proc and /sys,
// one file per kernel file, named after it:
//
//   - /proc: cpuinfo.go, stat.go (/proc/stat, its btime too), pidstat.go
//     (/proc/PID/stat), pidio.go (/proc/PID/io), loadavg.go, meminfo.go,
//     vmstat.go, interrupts.go, softirqs.go, swaps.go, mounts.go
//     (/proc/mounts), mountinfo.go (/proc/PID/mountinfo), maps.go (the
//     shared writable mappings of /proc/PID/maps), fdinfo.go
//     (/proc/PID/fdinfo/FD), cgroup.go (/proc/PID/cgroup and a cgroup's
//     cgroup.procs), version.go (/proc/version), configgz.go
//     (/proc/config.gz), kmsgoppsel.go (the PVTM and leakage lines of the
//     kernel log, dmesg's text);
//   - /sys: timeinstate.go (cpufreq's stats/time_in_state), cachesize.go
//     (cpuN/cache/indexM/size), choice.go (attributes that list their
//     options with the selected one in brackets: I/O scheduler, PCIe ASPM
//     policy, transparent huge pages, zram compressor), available.go
//     (available governors and frequencies), cpulist.go (the CPU list
//     format of online, related_cpus, *_list), blockstat.go
//     (/sys/class/block/NAME/stat), zram.go (a zram device's mm_stat),
//     uevent.go (uevent files), devicetree.go (device-tree string lists,
//     strings and 32-bit cells), pciconfig.go (a PCI device's config space),
//     defaultpsmaxlatency.go (nvme_core's default_ps_max_latency_us),
//     pmqoslatencytolerance.go (a device's power/pm_qos_latency_tolerance_us),
//     mmc.go (an eMMC card's life_time).
//
// Every parser is a pure function of the file's text: it does no I/O, never
// panics on malformed or hostile content, and says when it found nothing
// usable. The Read helpers (ReadMountInfo, ReadMountTable, ReadMounts,
// ReadSwaps, ReadPIDStat, ReadBootTime, ReadBlockStat) read the file
// through a Reader and parse it; *host.Host is the Reader of every caller,
// so the reads stay bounded, under the root and never block on a FIFO.
//
// No other package splits the content of a kernel file into lines or
// fields: the test in rule_test.go finds the reads of /proc and /sys in the
// module's source and fails when one is parsed elsewhere.
package kernelfile
