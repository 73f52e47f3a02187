package result

import "time"

// Power describes the power source of a session (--power, docs/power.md):
// which meter, what it measures, its idle baseline and how many of its
// readings were missing. Per-phase figures are in each phase's evidence
// (power_w, energy_wh) and per-sample in power_w.
type Power struct {
	// Source is the spec as given, or as chosen automatically
	// ("hwmon:ina226"); credentials are never recorded.
	Source string `json:"source"`
	// Kind is hwmon, rpi-pmic, usb-pd, shelly, netio or cmd.
	Kind string `json:"kind"`
	// Measures is "wall", "board", "soc", "component" or "limit" (a
	// USB-PD contract: not a measurement).
	Measures string `json:"measures"`
	// Description names the meter and its channel.
	Description string `json:"description"`
	// Reason says why the source was chosen automatically; "" when given.
	Reason string `json:"reason,omitempty"`
	// EnergyCounter is true when the meter counts energy; phases long
	// enough for its resolution take their power from it.
	EnergyCounter bool `json:"energy_counter"`
	// IntervalS is the time between reads (0: the program's own pace).
	IntervalS float64 `json:"interval_s"`
	// LimitW is the negotiated supply limit of a usb-pd source.
	LimitW *float64 `json:"limit_w,omitempty"`
	// Idle is the baseline measured before the first phase; nil when none
	// was taken.
	Idle *PowerSpan `json:"idle,omitempty"`
	// Readings and Missing count the good and failed reads of the session;
	// Errors are the distinct reasons of the failures.
	Readings int      `json:"readings"`
	Missing  int      `json:"missing"`
	Errors   []string `json:"errors,omitempty"`
	// Notes are caveats of the source.
	Notes []string `json:"notes,omitempty"`
}

// PowerSpan is the power over an interval without a phase of its own, such
// as the idle baseline.
type PowerSpan struct {
	StartedAt time.Time `json:"started_at"`
	DurationS float64   `json:"duration_s"`
	PowerW    *float64  `json:"power_w"`
	EnergyWh  *float64  `json:"energy_wh"`
	// Basis is "energy counter" or "readings" ("" without a figure).
	Basis    string `json:"basis,omitempty"`
	Readings int    `json:"readings"`
	Missing  int    `json:"missing"`
	Note     string `json:"note,omitempty"`
}
