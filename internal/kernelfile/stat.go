package kernelfile

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// CPUTimes are the cumulative times of one "cpu" line of /proc/stat, in
// clock ticks (USER_HZ), in the kernel's order. Guest and GuestNice are
// already counted in User and Nice.
type CPUTimes struct {
	User, Nice, System, Idle, Iowait, IRQ, SoftIRQ, Steal, Guest, GuestNice uint64
}

// Total returns the sum of the distinct times: every field but Guest and
// GuestNice, which User and Nice include.
func (t CPUTimes) Total() uint64 {
	return t.User + t.Nice + t.System + t.Idle + t.Iowait + t.IRQ + t.SoftIRQ + t.Steal
}

// ParseStat reads the aggregate "cpu" line and the per-CPU "cpuN" lines of
// /proc/stat. A line needs at least four times (older kernels print fewer
// than ten); the times it lacks are zero. Malformed lines are skipped; ok is
// false when no aggregate line was found.
func ParseStat(data []byte) (total CPUTimes, perCPU map[int]CPUTimes, ok bool) {
	perCPU = map[int]CPUTimes{}
	for line := range bytes.Lines(data) {
		// Only "cpu" lines are split: the "intr" line can be long.
		if !bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("cpu")) {
			continue
		}
		fields := strings.Fields(string(line))
		if len(fields) < 5 {
			continue
		}
		var vals [10]uint64
		bad := false
		for i := 0; i < len(vals) && i+1 < len(fields); i++ {
			v, err := strconv.ParseUint(fields[i+1], 10, 64)
			if err != nil {
				bad = true
				break
			}
			vals[i] = v
		}
		if bad {
			continue
		}
		t := CPUTimes{vals[0], vals[1], vals[2], vals[3], vals[4], vals[5], vals[6], vals[7], vals[8], vals[9]}
		if fields[0] == "cpu" {
			total, ok = t, true
			continue
		}
		if n, valid := CPUNumber(fields[0][3:]); valid {
			perCPU[n] = t
		}
	}
	return total, perCPU, ok
}

// Shares are the percentages of CPU time between two /proc/stat readings.
type Shares struct {
	// Busy is everything but idle and iowait (steal included: time the
	// hypervisor gave to others is time this machine could not idle).
	Busy, User, Nice, System, Iowait, IRQ float64
}

// SharesSince returns the shares of the time spent between an earlier
// reading a and t, or false when no time passed or the counters went
// backwards. A single counter that went backwards counts as zero.
func (t CPUTimes) SharesSince(a CPUTimes) (Shares, bool) {
	b := t
	if b.Total() <= a.Total() {
		return Shares{}, false
	}
	d := func(x, y uint64) float64 {
		if y < x {
			return 0
		}
		return float64(y - x)
	}
	tot := float64(b.Total() - a.Total())
	pct := func(v float64) float64 { return 100 * v / tot }
	user, nice, sys := d(a.User, b.User), d(a.Nice, b.Nice), d(a.System, b.System)
	irq := d(a.IRQ, b.IRQ) + d(a.SoftIRQ, b.SoftIRQ)
	steal := d(a.Steal, b.Steal)
	return Shares{
		Busy:   pct(user + nice + sys + irq + steal),
		User:   pct(user),
		Nice:   pct(nice),
		System: pct(sys),
		Iowait: pct(d(a.Iowait, b.Iowait)),
		IRQ:    pct(irq),
	}, true
}

// ParseBootTime returns the "btime" line of /proc/stat: when the system
// booted, in seconds since the Unix epoch; ok is false when the line is
// missing or not a number.
func ParseBootTime(data []byte) (int64, bool) {
	for line := range bytes.Lines(data) {
		v, found := bytes.CutPrefix(line, []byte("btime "))
		if !found {
			continue
		}
		s, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		return s, err == nil
	}
	return 0, false
}

// ReadBootTime reads when the system booted from /proc/stat's btime.
func ReadBootTime(r Reader) (time.Time, error) {
	data, err := r.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, err
	}
	s, ok := ParseBootTime(data)
	if !ok {
		return time.Time{}, malformed("/proc/stat btime")
	}
	return time.Unix(s, 0), nil
}
