package thermal

import (
	"fmt"
	"math"
	"strings"
	"time"

	"boardbench/internal/inventory/rpi"
	"boardbench/internal/result"
)

// throttleFlags are the get_throttled bits that mean the ARM clock is held
// down now: frequency capped (1), throttled (2), soft temperature limit
// active (3).
const throttleFlags = 0xE

// sampleThrottle is what one sample of the heating phase says about
// throttling.
type sampleThrottle struct {
	t                     float64
	cpufreq, fwLow, flags bool
	fw, lowestClock       *float64
	kernelMHz             *float64 // the highest cpufreq clock of the sample
	word                  uint32
}

// throttleState judges every sample against the cold clocks: cold holds
// each cluster's cold cpufreq clock (nil where unknown), coldFW the
// firmware's.
func throttleState(s []result.Sample, start time.Time, cold []*float64, coldFW *float64) []sampleThrottle {
	out := make([]sampleThrottle, 0, len(s))
	for _, x := range s {
		st := sampleThrottle{t: x.Time.Sub(start).Seconds(), fw: x.FirmwareMHz}
		for c, v := range x.ClockMHz {
			if v == nil {
				continue
			}
			if st.kernelMHz == nil || *v > *st.kernelMHz {
				st.kernelMHz = v
			}
			if c < len(cold) && cold[c] != nil && *v < *cold[c]*(1-ThrottleDropPct/100) {
				st.cpufreq = true
				if st.lowestClock == nil || *v < *st.lowestClock {
					st.lowestClock = v
				}
			}
		}
		if coldFW != nil && x.FirmwareMHz != nil && *x.FirmwareMHz < *coldFW*(1-ThrottleDropPct/100) {
			st.fwLow = true
		}
		if x.Throttled != nil && *x.Throttled&throttleFlags != 0 {
			st.flags, st.word = true, *x.Throttled
		}
		out = append(out, st)
	}
	return out
}

func (st sampleThrottle) throttled() bool { return st.cpufreq || st.fwLow || st.flags }

// spans groups the throttled samples into stretches.
func spans(states []sampleThrottle) []result.ThrottleSpan {
	out := []result.ThrottleSpan{}
	var cur *result.ThrottleSpan
	for _, st := range states {
		if !st.throttled() {
			if cur != nil {
				end := st.t
				cur.EndS = &end
				out = append(out, *cur)
				cur = nil
			}
			continue
		}
		if cur == nil {
			cur = &result.ThrottleSpan{StartS: math.Round(st.t), Signals: []string{}}
		}
		addSignal(cur, st.cpufreq, "cpufreq clock")
		addSignal(cur, st.fwLow, "firmware clock")
		addSignal(cur, st.flags, "get_throttled")
		if st.fw != nil && (cur.LowestFirmwareMHz == nil || *st.fw < *cur.LowestFirmwareMHz) {
			v := math.Round(*st.fw)
			cur.LowestFirmwareMHz = &v
		}
		if st.lowestClock != nil && (cur.LowestClockMHz == nil || *st.lowestClock < *cur.LowestClockMHz) {
			v := math.Round(*st.lowestClock)
			cur.LowestClockMHz = &v
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	for i := range out {
		if out[i].EndS != nil {
			v := math.Round(*out[i].EndS)
			out[i].EndS = &v
		}
	}
	return out
}

func addSignal(sp *result.ThrottleSpan, on bool, name string) {
	if !on {
		return
	}
	for _, s := range sp.Signals {
		if s == name {
			return
		}
	}
	sp.Signals = append(sp.Signals, name)
}

// firmwareOnset returns the time and the words of the first sample whose
// firmware signals (clock below its cold clock, get_throttled flags) show
// throttling; nil when none does.
func firmwareOnset(states []sampleThrottle, coldFW *float64) (*float64, string) {
	for _, st := range states {
		switch {
		case st.fwLow:
			t := st.t
			ev := fmt.Sprintf("the firmware clock fell from %.0f to %.0f MHz", *coldFW, *st.fw)
			if st.kernelMHz != nil && *st.fw < *st.kernelMHz*(1-ThrottleDropPct/100) {
				ev += fmt.Sprintf(" while cpufreq reported %.0f MHz (hidden throttling)", *st.kernelMHz)
			}
			if st.flags {
				ev += fmt.Sprintf("; get_throttled 0x%x", st.word)
			}
			return &t, ev
		case st.flags:
			t := st.t
			return &t, fmt.Sprintf("get_throttled 0x%x: %s", st.word, strings.Join(rpi.DecodeThrottled(st.word&0xF), ", "))
		}
	}
	return nil, ""
}

// firmwareClocks returns the firmware's ARM clock at the start (the
// highest of the first three samples) and its mean over the last quarter
// of the phase; nil when it was not sampled.
func firmwareClocks(s []result.Sample, start time.Time) (cold, sustained *float64) {
	var ts, vs []float64
	for _, x := range s {
		if x.FirmwareMHz != nil {
			ts = append(ts, x.Time.Sub(start).Seconds())
			vs = append(vs, *x.FirmwareMHz)
		}
	}
	if len(vs) == 0 {
		return nil, nil
	}
	c, m := coldAndSustained(ts, vs)
	return round(c, 0), round(m, 0)
}

// coldAndSustained returns a clock's value at the start of a phase (the
// highest of its first three samples) and its mean over the last quarter
// of the phase, from the samples' times ts (seconds) and values vs (at
// least one).
func coldAndSustained(ts, vs []float64) (cold, sustained float64) {
	cold = vs[0]
	for _, v := range vs[:min(3, len(vs))] {
		cold = math.Max(cold, v)
	}
	q := ts[len(ts)-1] - (ts[len(ts)-1]-ts[0])/4
	var sum float64
	var k int
	for i, t := range ts {
		if t >= q {
			sum += vs[i]
			k++
		}
	}
	return cold, sum / float64(k)
}
