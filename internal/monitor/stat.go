package monitor

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// CPUTimes are the cumulative jiffies of one line of /proc/stat.
type CPUTimes struct {
	User, Nice, System, Idle, Iowait, IRQ, SoftIRQ, Steal uint64
}

// Total returns the sum of all counted fields.
func (t CPUTimes) Total() uint64 {
	return t.User + t.Nice + t.System + t.Idle + t.Iowait + t.IRQ + t.SoftIRQ + t.Steal
}

// ParseStat reads the aggregate "cpu" line and the per-CPU "cpuN" lines of
// /proc/stat. Malformed lines are skipped; ok is false when no aggregate line
// was found.
func ParseStat(data []byte) (total CPUTimes, perCPU map[int]CPUTimes, ok bool) {
	perCPU = map[int]CPUTimes{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || !strings.HasPrefix(fields[0], "cpu") {
			continue
		}
		var vals [8]uint64
		bad := false
		for i := 0; i < 8 && i+1 < len(fields); i++ {
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
		t := CPUTimes{vals[0], vals[1], vals[2], vals[3], vals[4], vals[5], vals[6], vals[7]}
		if fields[0] == "cpu" {
			total, ok = t, true
			continue
		}
		if n, err := strconv.Atoi(fields[0][3:]); err == nil && n >= 0 {
			perCPU[n] = t
		}
	}
	return total, perCPU, ok
}

// Shares are the percentages of CPU time between two /proc/stat readings.
type Shares struct {
	// Busy is everything but idle and iowait.
	Busy, User, Nice, System, Iowait, IRQ float64
}

// Delta returns the shares of time spent between a and b (b later), or false
// when no time passed or the counters went backwards.
func Delta(a, b CPUTimes) (Shares, bool) {
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

// ParseLoadavg returns the 1-minute load average of /proc/loadavg.
func ParseLoadavg(data []byte) (float64, bool) {
	f := strings.Fields(string(data))
	if len(f) < 1 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil && v >= 0
}

// ParseMeminfoKB returns the named fields of /proc/meminfo in kB.
func ParseMeminfoKB(data []byte, names ...string) map[string]int64 {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]int64{}
	for _, line := range strings.Split(string(data), "\n") {
		k, rest, ok := strings.Cut(line, ":")
		if !ok || !want[k] {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			out[k] = v
		}
	}
	return out
}

// ParseVMStat returns the named counters of /proc/vmstat.
func ParseVMStat(data []byte, names ...string) map[string]uint64 {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]uint64{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || !want[f[0]] {
			continue
		}
		if v, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			out[f[0]] = v
		}
	}
	return out
}

// ParseTimeInState reads cpufreq stats/time_in_state: "<kHz> <10 ms units>"
// per line. It returns kHz → seconds.
func ParseTimeInState(data []byte) map[int64]float64 {
	out := map[int64]float64{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		khz, err1 := strconv.ParseInt(f[0], 10, 64)
		t, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil || khz <= 0 {
			continue
		}
		out[khz] = float64(t) / 100
	}
	return out
}
