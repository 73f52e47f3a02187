package result

// Phase names of `boardbench thermal`: a sustained all-core load until the
// SoC reaches a temperature (or a time limit), then idle until it cools.
const (
	PhaseThermalHeat = "thermal-heat"
	PhaseThermalCool = "thermal-cool"
)

// ThermalLoadRun is one benchmark run of the heating phase.
type ThermalLoadRun struct {
	// StartS is the run's start in seconds from the phase's start.
	StartS    float64 `json:"start_s"`
	DurationS float64 `json:"duration_s"`
	// MIPS is 7-Zip's total rating; nil for a run stopped early (the target
	// temperature was reached) or a load without a score.
	MIPS  *float64 `json:"mips"`
	Error string   `json:"error,omitempty"`
}

// ThermalHeatFigures describe the heating phase.
type ThermalHeatFigures struct {
	// Load names the load ("7-Zip b -mmt4", "stress-ng --cpu 4").
	Load string `json:"load"`
	CPUs []int  `json:"cpus"`
	// TargetC is --heat-to; LimitS the time limit.
	TargetC *float64 `json:"target_c"`
	LimitS  float64  `json:"limit_s"`
	// Stop says why the phase ended: "target reached", "time limit",
	// "no temperature sensor".
	Stop string           `json:"stop"`
	Runs []ThermalLoadRun `json:"runs"`
	// Scored is false for a load that gives no score (stress-ng): the hot
	// against cold comparison is then not measured.
	Scored bool `json:"scored"`
}

// Thermal loads (--load).
const (
	ThermalLoadSevenZip = "7zip"
	ThermalLoadStressNG = "stress-ng"
)

// ThermalCoolFigures describe the cooling phase.
type ThermalCoolFigures struct {
	TargetC *float64 `json:"target_c"`
	LimitS  float64  `json:"limit_s"`
	Stop    string   `json:"stop"`
}

// ThermalSummary holds the figures of `boardbench thermal`; embedded in
// Summary, its JSON gains "thermal" only for a thermal test.
type ThermalSummary struct {
	Thermal *ThermalResult `json:"thermal"`
}

// ThermalResult is what a thermal test found; nil fields are unknown, and
// Notes say why.
type ThermalResult struct {
	StartTempC *float64 `json:"start_temp_c"`
	PeakTempC  *float64 `json:"peak_temp_c"`
	// TimeToThrottleS is the time from the start of the load to the first
	// sign of throttling (ThrottleEvidence says which); nil when it did not
	// throttle or could not be told.
	TimeToThrottleS  *float64 `json:"time_to_throttle_s"`
	ThrottleEvidence string   `json:"throttle_evidence,omitempty"`
	// ColdClockMHz and SustainedClockMHz are per monitored cluster (the
	// monitor's policies, in order): the clock at the start of the load and
	// the mean over the last quarter of the heating phase.
	ColdClockMHz      []*float64 `json:"cold_clock_mhz"`
	SustainedClockMHz []*float64 `json:"sustained_clock_mhz"`
	// ColdMIPS is the first 7-Zip run, HotMIPS the last complete one;
	// HotVsColdPct the change in percent.
	ColdMIPS     *float64 `json:"cold_mips"`
	HotMIPS      *float64 `json:"hot_mips"`
	HotVsColdPct *float64 `json:"hot_vs_cold_pct"`
	// SettleTempC is where the temperature levelled off under load (the
	// mean of the last minute when it rose less than SettleSlopeCPerMin).
	SettleTempC *float64 `json:"settle_temp_c"`
	// CoolingTimeConstantS is τ of T(t) = ambient + ΔT·e^(−t/τ) fitted to
	// the cooling phase; CoolingAsymptoteC its ambient, CoolingFitRMSC the
	// fit's root-mean-square error.
	CoolingTimeConstantS *float64 `json:"cooling_time_constant_s"`
	CoolingAsymptoteC    *float64 `json:"cooling_asymptote_c"`
	CoolingFitRMSC       *float64 `json:"cooling_fit_rms_c"`
	// HeatPowerW and CoolPowerW are the phases' mean power.
	HeatPowerW *float64 `json:"heat_power_w"`
	CoolPowerW *float64 `json:"cool_power_w"`
	// ColdFirmwareMHz and SustainedFirmwareMHz are the Raspberry Pi
	// firmware's ARM clock (measure_clock arm) at the start of the load
	// and over its last quarter (schema 1.3); nil where it was not
	// sampled.
	ColdFirmwareMHz      *float64 `json:"cold_firmware_mhz,omitempty"`
	SustainedFirmwareMHz *float64 `json:"sustained_firmware_mhz,omitempty"`
	// ThrottleSpans are the stretches of the heating phase in which a
	// sample showed throttling (schema 1.3); empty when none did.
	ThrottleSpans []ThrottleSpan `json:"throttle_spans"`
	Notes         []string       `json:"notes"`
}

// ThrottleSpan is one stretch of throttled samples of the heating phase.
type ThrottleSpan struct {
	// StartS is the first throttled sample's time from the start of the
	// load; EndS the first sample after it that was not throttled, nil
	// when the throttling lasted to the end of the load.
	StartS float64  `json:"start_s"`
	EndS   *float64 `json:"end_s"`
	// Signals name what showed it: "cpufreq clock", "firmware clock",
	// "get_throttled".
	Signals []string `json:"signals"`
	// LowestFirmwareMHz and LowestClockMHz are the lowest firmware and
	// cpufreq clocks in the span; nil when not sampled.
	LowestFirmwareMHz *float64 `json:"lowest_firmware_mhz"`
	LowestClockMHz    *float64 `json:"lowest_clock_mhz"`
}

// SettleSlopeCPerMin is the largest rise per minute over the last minute
// of the heating phase at which the temperature counts as settled.
const SettleSlopeCPerMin = 0.5
