package kernelfile

import (
	"strconv"
	"strings"
)

// PIDStat is what boardbench reads of /proc/PID/stat: the process's
// identity, state, group, flags and CPU time.
type PIDStat struct {
	// PID is the process id.
	PID int
	// Comm is the command name as the kernel keeps it (at most 15 bytes);
	// it may hold spaces and parentheses.
	Comm string
	// State is the one-letter state: 'R' running, 'S' sleeping, 'D' disk
	// sleep, 'Z' zombie, 'T' stopped, 't' traced, 'X' dead, 'I' idle.
	State byte
	// PPID and PGRP are the parent's id and the process group.
	PPID, PGRP int
	// Flags are the kernel's PF_* flags.
	Flags uint64
	// UTime and STime are the CPU time spent in user and kernel mode, in
	// clock ticks (USER_HZ).
	UTime, STime uint64
	// CUTime and CSTime are the CPU time of the children it has waited
	// for, in clock ticks; 0 when the line ends before them.
	CUTime, CSTime uint64
	// StartTime is when the process started, in clock ticks after boot
	// (field 22); with PID it names a process across PID reuse. 0 when the
	// line ends before it.
	StartTime uint64
}

// pfKthread is the PF_KTHREAD flag of a kernel thread.
const pfKthread = 0x00200000

// KernelThread reports whether the process is a kernel thread.
func (s PIDStat) KernelThread() bool { return s.Flags&pfKthread != 0 }

// Dead reports a zombie (exited, not yet reaped) or a process being reaped.
func (s PIDStat) Dead() bool { return s.State == 'Z' || s.State == 'X' }

// ParsePIDStat parses the content of /proc/PID/stat:
// "PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS ... UTIME STIME ...".
// The command name runs from the first "(" to the last ")", since it may
// hold either. ok is false unless every field up to stime is there and
// well-formed.
func ParsePIDStat(s string) (PIDStat, bool) {
	open := strings.IndexByte(s, '(')
	closing := strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return PIDStat{}, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s[:open]))
	if err != nil || pid < 0 {
		return PIDStat{}, false
	}
	// After the name: state(0) ppid(1) pgrp(2) session(3) tty_nr(4)
	// tpgid(5) flags(6) minflt(7) cminflt(8) majflt(9) cmajflt(10)
	// utime(11) stime(12).
	f := strings.Fields(s[closing+1:])
	if len(f) < 13 || len(f[0]) != 1 {
		return PIDStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	flags, err3 := strconv.ParseUint(f[6], 10, 64)
	ut, err4 := strconv.ParseUint(f[11], 10, 64)
	st, err5 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || err5 != nil {
		return PIDStat{}, false
	}
	out := PIDStat{PID: pid, Comm: s[open+1 : closing], State: f[0][0], PPID: ppid, PGRP: pgrp, Flags: flags, UTime: ut, STime: st}
	if len(f) >= 15 {
		// cutime(13) and cstime(14) are signed in the kernel's format.
		cu, err1 := strconv.ParseInt(f[13], 10, 64)
		cs, err2 := strconv.ParseInt(f[14], 10, 64)
		if err1 == nil && err2 == nil && cu >= 0 && cs >= 0 {
			out.CUTime, out.CSTime = uint64(cu), uint64(cs)
		}
	}
	if len(f) >= 20 {
		out.StartTime, _ = strconv.ParseUint(f[19], 10, 64)
	}
	return out, true
}

// ReadPIDStat reads and parses /proc/PID/stat (Self for /proc/self/stat).
func ReadPIDStat(r Reader, pid int) (PIDStat, error) {
	p := procPath(pid, "stat")
	data, err := r.ReadFile(p)
	if err != nil {
		return PIDStat{}, err
	}
	st, ok := ParsePIDStat(string(data))
	if !ok {
		return PIDStat{}, malformed(p)
	}
	return st, nil
}
