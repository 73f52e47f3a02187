package monitor

import "boardbench/internal/result"

// The conversions between the monitor's types and the result schema's
// (internal/result owns the JSON of a result; these types are the
// sampler's). Each is a struct conversion, so a field added to one side
// only does not compile until the schema is changed on purpose. A nil
// slice stays nil and an empty one empty: the JSON tells null from [].

// convert maps in through f, keeping nil and empty apart.
func convert[From, To any](in []From, f func(From) To) []To {
	if in == nil {
		return nil
	}
	out := make([]To, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// ToResult returns the evidence as the result schema keeps it.
func (e Evidence) ToResult() result.Evidence {
	return result.Evidence{
		Samples:         convert(e.Samples, func(s Sample) result.Sample { return result.Sample(s) }),
		TimeInState:     convert(e.TimeInState, func(t PolicyTime) result.PolicyTime { return result.PolicyTime(t) }),
		SwapIn:          e.SwapIn,
		SwapOut:         e.SwapOut,
		Events:          ResultEvents(e.Events),
		ThrottledBefore: e.ThrottledBefore,
		ThrottledAfter:  e.ThrottledAfter,
		PowerW:          e.PowerW,
		EnergyWh:        e.EnergyWh,
		PowerBasis:      e.PowerBasis,
		Notes:           e.Notes,
	}
}

// ResultPolicies returns the sampled policies as the result schema keeps
// them (result.MonitorInfo.Policies).
func ResultPolicies(ps []Policy) []result.Policy {
	return convert(ps, func(p Policy) result.Policy { return result.Policy(p) })
}

// ResultSensors returns the sampled power sensors as the result schema
// keeps them (result.MonitorInfo.Power).
func ResultSensors(ss []Sensor) []result.Sensor {
	return convert(ss, func(s Sensor) result.Sensor { return result.Sensor(s) })
}

// ColumnsOf returns the sample columns a result records (its
// MonitorInfo), for printing its samples with Header and Line; powerW
// adds the power source's column.
func ColumnsOf(mi result.MonitorInfo, powerW bool) Columns {
	return Columns{
		Policies: convert(mi.Policies, func(p result.Policy) Policy { return Policy(p) }),
		Power:    convert(mi.Power, func(s result.Sensor) Sensor { return Sensor(s) }),
		Firmware: mi.Firmware,
		Steal:    mi.Steal,
		PowerW:   powerW,
	}
}

// SampleOf returns a stored sample as the monitor's, for Line.
func SampleOf(s result.Sample) Sample { return Sample(s) }

// ResultEvents returns kernel events as the result schema keeps them.
func ResultEvents(evs []Event) []result.Event {
	return convert(evs, func(ev Event) result.Event { return result.Event(ev) })
}
