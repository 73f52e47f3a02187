package power

// MIPSPerWatt returns a 7-Zip rating divided by the power it was measured
// at, as published tables compute it: the whole power the meter saw (idle
// included), not the difference to idle. ok is false without a positive
// power.
func MIPSPerWatt(mips, watts float64) (v float64, ok bool) {
	if watts <= 0 || mips < 0 {
		return 0, false
	}
	return mips / watts, true
}
