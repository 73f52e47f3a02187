package result

import "time"

// The evidence of a phase and the monitor's columns, as the result schema
// keeps them. internal/monitor samples the machine with its own types and
// converts them (monitor.ToResult and friends); an edit there changes
// this JSON only through a change here, which TestSchemaGolden checks.

// Policy is one cpufreq policy (cluster) whose clock is sampled.
type Policy struct {
	// Label names the cluster in sample lines, e.g. "cpu0-3".
	Label string `json:"label"`
	// ID is the cpufreq policy number.
	ID   int   `json:"id"`
	CPUs []int `json:"cpus"`
}

// Sensor is a hwmon power-related file sampled in its unit.
type Sensor struct {
	Label string `json:"label"`
	Path  string `json:"path"`
	// Quantity is "voltage", "current", "power" or "energy".
	Quantity string `json:"quantity"`
	Unit     string `json:"unit"`
}

// Sample is one reading of the machine (monitor.Sample). Percentages
// cover the time since the previous sample. Nil means not available.
type Sample struct {
	Time time.Time `json:"time"`
	// ClockMHz has one entry per MonitorInfo.Policies (scaling_cur_freq).
	ClockMHz    []*float64 `json:"clock_mhz"`
	FirmwareMHz *float64   `json:"firmware_mhz,omitempty"`
	Load1       *float64   `json:"load1"`
	CPUPct      *float64   `json:"cpu_pct"`
	SysPct      *float64   `json:"sys_pct"`
	UsrPct      *float64   `json:"usr_pct"`
	NicePct     *float64   `json:"nice_pct"`
	IowaitPct   *float64   `json:"iowait_pct"`
	IRQPct      *float64   `json:"irq_pct"`
	// StealPct is the share of the time the hypervisor gave the CPUs to
	// other guests while this one wanted them (0 on bare metal).
	StealPct *float64 `json:"steal_pct,omitempty"`
	// WorkPct is the share of all CPUs' time used by the watched processes
	// (monitor.Monitor.Started and WatchSelf): the programs a step
	// started and boardbench itself. CPUPct − StealPct − WorkPct is what
	// the rest of the machine used. Nil when nothing was watched.
	WorkPct *float64 `json:"work_pct,omitempty"`
	// PerCPUBusyPct is the busy share of each CPU, keyed by CPU id.
	PerCPUBusyPct map[int]float64 `json:"per_cpu_busy_pct,omitempty"`
	TempC         *float64        `json:"temp_c"`
	// Temps has one reading per MonitorInfo.Temps sensor in °C (nil when
	// the read failed).
	Temps     []*float64 `json:"temps,omitempty"`
	CoreVolts *float64   `json:"core_volts,omitempty"`
	// Throttled is the Raspberry Pi firmware's get_throttled word at this
	// sample (schema 1.3); nil without the firmware or when unreadable.
	Throttled *uint32 `json:"throttled,omitempty"`
	// MemClockMHz is the memory controller's devfreq clock
	// (MonitorInfo.MemClock; schema 1.2); nil without one or when
	// unreadable.
	MemClockMHz *float64 `json:"mem_clock_mhz,omitempty"`
	// Power has one reading per MonitorInfo.Power sensor, in its unit.
	Power []*float64 `json:"power,omitempty"`
	// PowerW is the power in watts from the chosen power source (see
	// docs/power.md), nil without one or when the reading was missing.
	PowerW *float64 `json:"power_w,omitempty"`
	// PowerAt is when the meter took the PowerW reading (a meter is read
	// at its own pace, in the background).
	PowerAt       *time.Time `json:"power_at,omitempty"`
	SwapUsedBytes *int64     `json:"swap_used_bytes"`
}

// PolicyTime is how long one cpufreq policy spent at each clock in a phase.
type PolicyTime struct {
	Policy int `json:"policy"`
	// TopMHz is the highest clock in the policy's table.
	TopMHz float64 `json:"top_mhz"`
	// TotalS is the time accounted in the phase, BelowTopS the part of it
	// spent below TopMHz.
	TotalS    float64 `json:"total_s"`
	BelowTopS float64 `json:"below_top_s"`
	// ByMHz is the time per clock, for clocks with time in the phase.
	ByMHz map[string]float64 `json:"by_mhz"`
}

// Evidence is what a phase leaves behind besides its figures
// (monitor.Evidence).
type Evidence struct {
	Samples     []Sample     `json:"samples"`
	TimeInState []PolicyTime `json:"time_in_state,omitempty"`
	// SwapIn and SwapOut are pages swapped during the phase (/proc/vmstat).
	SwapIn  *uint64 `json:"swap_in_pages"`
	SwapOut *uint64 `json:"swap_out_pages"`
	Events  []Event `json:"events"`
	// ThrottledBefore/After are the Raspberry Pi get_throttled bits.
	ThrottledBefore *uint32 `json:"throttled_before,omitempty"`
	ThrottledAfter  *uint32 `json:"throttled_after,omitempty"`
	// PowerW is the mean power in watts over the window from the chosen
	// power source; EnergyWh the energy the window used, from the meter's
	// cumulative counter where it has one, else integrated from samples.
	// Nil without a power source.
	PowerW   *float64 `json:"power_w,omitempty"`
	EnergyWh *float64 `json:"energy_wh,omitempty"`
	// PowerBasis says where PowerW comes from: "energy counter" or
	// "readings" (see power.Span).
	PowerBasis string `json:"power_basis,omitempty"`
	// Notes says which evidence could not be gathered and why.
	Notes []string `json:"notes,omitempty"`
}

// Event is a kernel log line that matters for the validity of a benchmark.
type Event struct {
	// Kind is one of monitor's Event* kinds (under_voltage, thermal,
	// cpu_offline, oom_kill, hardware_error, io_error).
	Kind string `json:"kind"`
	Line string `json:"line"`
}
