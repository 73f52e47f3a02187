package monitor

import "boardbench/internal/kernelfile"

// secondsByKHz reads cpufreq stats/time_in_state into seconds spent at each
// frequency (kHz); lines it cannot read are left out, so that one damaged
// line does not hide the rest of a phase's clocks. At most
// kernelfile.MaxTimeInStates frequencies are kept; dropped counts the
// others.
func secondsByKHz(data []byte) (out map[int64]float64, dropped int) {
	states, _, dropped := kernelfile.ParseTimeInStateBounded(data, kernelfile.MaxTimeInStates)
	out = make(map[int64]float64, len(states))
	for _, st := range states {
		out[st.KHz] = float64(st.Ticks) / 100
	}
	return out, dropped
}
