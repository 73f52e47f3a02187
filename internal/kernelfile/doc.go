// Package kernelfile holds the parsers of kernel files under /proc and /sys,
// one file per kernel file, named after it: cpuinfo.go reads /proc/cpuinfo,
// stat.go /proc/stat, pidstat.go /proc/PID/stat, loadavg.go /proc/loadavg,
// meminfo.go /proc/meminfo, vmstat.go /proc/vmstat, timeinstate.go cpufreq's
// stats/time_in_state, cachesize.go the size of a sysfs cache
// (cpuN/cache/indexM/size), and choice.go the sysfs attributes that list
// their options with the selected one in brackets (I/O scheduler, PCIe ASPM
// policy, transparent huge pages, zram compressor), interrupts.go
// /proc/interrupts, softirqs.go /proc/softirqs, fdinfo.go /proc/PID/fdinfo/FD,
// mountinfo.go the mount ids and devices of /proc/PID/mountinfo and maps.go
// the shared writable mappings of /proc/PID/maps, defaultpsmaxlatency.go
// nvme_core's default_ps_max_latency_us and pmqoslatencytolerance.go a
// device's power/pm_qos_latency_tolerance_us.
//
// Every parser is a pure function of the file's text: it does no I/O, never
// panics on malformed or hostile content, and says when it found nothing
// usable. Reading the file (under a root, with a bound) is the caller's job,
// through package host.
package kernelfile
