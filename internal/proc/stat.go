package proc

import (
	"strconv"
	"strings"
)

// procStat holds the fields of /proc/PID/stat that proc needs.
type procStat struct {
	pid, ppid, pgrp int
	state           byte
	// start is the start time in clock ticks after boot (field 22); with
	// pid it names a process across PID reuse. 0 when the line is short.
	start uint64
}

// dead reports a zombie (exited, not yet reaped) or a process being reaped.
func (s procStat) dead() bool { return s.state == 'Z' || s.state == 'X' }

// parseStat reads a /proc/PID/stat line: "PID (COMM) STATE PPID PGRP ...",
// where COMM may hold spaces and ")". The fields up to PGRP are required.
//
// This is boardbench's only reader of /proc/PID/stat outside
// internal/kernelfile (which is to replace it).
func parseStat(s string) (procStat, bool) {
	var st procStat
	open := strings.IndexByte(s, '(')
	i := strings.LastIndexByte(s, ')')
	if open < 0 || i < open {
		return st, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s[:open]))
	if err != nil {
		return st, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return st, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return st, false
	}
	st = procStat{pid: pid, ppid: ppid, pgrp: pgrp, state: f[0][0]}
	if len(f) > 19 {
		st.start, _ = strconv.ParseUint(f[19], 10, 64)
	}
	return st, true
}
