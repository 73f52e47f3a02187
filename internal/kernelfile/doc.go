// Package kernelfile holds the parsers of kernel files under /proc and /sys,
// one file per kernel file, named after it: cpuinfo.go reads /proc/cpuinfo,
// stat.go /proc/stat, pidstat.go /proc/PID/stat, loadavg.go /proc/loadavg,
// choice.go the sysfs attributes that list options with the selected one in
// brackets, cachesize.go the size attribute of a sysfs cache.
//
// Every parser is a pure function of the file's text: it does no I/O, never
// panics on malformed or hostile content, and says when it found nothing
// usable. Reading the file (under a root, with a bound) is the caller's job,
// through package host.
package kernelfile
