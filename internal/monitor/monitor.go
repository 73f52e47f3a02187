// Package monitor samples the conditions of a machine while something runs:
// clocks per cluster, load, CPU time split, temperature, voltage, power and
// swap, from cheap file reads (no process per sample; the Raspberry Pi
// firmware is asked through its mailbox, or through vcgencmd where that
// cannot be opened). Samples are attributed to the phase
// running; each phase also gets the difference of cpufreq time_in_state, of
// swap-in/out counters and of the kernel log, and the firmware's throttling
// flags before and after.
package monitor

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/kernelfile"
	"boardbench/internal/power"
)

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
	// Quantity is "voltage", "current", "power" or "energy" (see sensors.ReadValue).
	Quantity string `json:"quantity"`
	Unit     string `json:"unit"`
}

// Firmware is the Raspberry Pi firmware's view, asked through its mailbox
// or vcgencmd (see ConfigFor). A Firmware that is also an io.Closer holds
// a device open: Monitor.Run closes it when sampling stops.
type Firmware interface {
	// ClockMHz returns the ARM clock the firmware measures.
	ClockMHz(ctx context.Context) (float64, error)
	// Throttled returns the get_throttled bit field.
	Throttled(ctx context.Context) (uint32, error)
	// CoreVolts returns the core voltage.
	CoreVolts(ctx context.Context) (float64, error)
}

// Config says what to sample.
type Config struct {
	Policies []Policy
	// TempPath is the SoC temperature file (milli-°C), "" when none.
	TempPath string
	// TempLabel names the temperature source for headers.
	TempLabel string
	// Temps lists every temperature sensor to sample besides TempPath:
	// thermal zones and hwmon temperatures (Quantity "temperature", Unit
	// "°C"), at most MaxTemps.
	Temps []Sensor
	// Power lists power, energy, voltage and current sensors to sample.
	Power []Sensor
	// Firmware is nil except on a Raspberry Pi whose firmware answers
	// through its mailbox or vcgencmd.
	Firmware Firmware
	// MemClockPath is the memory controller's devfreq cur_freq file (Hz),
	// "" when the machine has none; MemClockLabel names the device
	// ("dmc").
	MemClockPath  string
	MemClockLabel string
	// Meter is the power source read in the background (see package
	// power); nil without one. Samples take its latest reading, windows
	// its mean power and energy.
	Meter *power.Meter
	// Interval between samples; 0 means 2 s.
	Interval time.Duration
	// ReadKernelLog enables the per-phase kernel log difference.
	ReadKernelLog bool
	// Steal shows the steal-time column in sample lines: on a virtual
	// machine, or when the kernel reported steal time when the
	// configuration was made. Steal is sampled either way.
	Steal bool
}

// Sample is one reading of the machine. Percentages cover the time since
// the previous sample. Nil means not available.
type Sample struct {
	Time time.Time `json:"time"`
	// ClockMHz has one entry per Config.Policies (scaling_cur_freq).
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
	// (see Monitor.Started and Monitor.WatchSelf): the programs a step
	// started and boardbench itself. CPUPct − StealPct − WorkPct is what
	// the rest of the machine used. Nil when nothing was watched.
	WorkPct *float64 `json:"work_pct,omitempty"`
	// PerCPUBusyPct is the busy share of each CPU, keyed by CPU id.
	PerCPUBusyPct map[int]float64 `json:"per_cpu_busy_pct,omitempty"`
	TempC         *float64        `json:"temp_c"`
	// Temps has one reading per Config.Temps sensor in °C (nil when the
	// read failed).
	Temps     []*float64 `json:"temps,omitempty"`
	CoreVolts *float64   `json:"core_volts,omitempty"`
	// Throttled is the Raspberry Pi firmware's get_throttled word at this
	// sample (schema 1.3); nil without the firmware or when unreadable.
	Throttled *uint32 `json:"throttled,omitempty"`
	// MemClockMHz is the memory controller's clock (Config.MemClockPath);
	// nil without one or when unreadable.
	MemClockMHz *float64 `json:"mem_clock_mhz,omitempty"`
	// Power has one reading per Config.Power sensor, in its unit.
	Power []*float64 `json:"power,omitempty"`
	// PowerW is the power in watts from the chosen power source (see
	// docs/power.md), nil without one or when the reading was missing.
	PowerW *float64 `json:"power_w,omitempty"`
	// PowerAt is when the meter took the PowerW reading (a meter is read
	// at its own pace, in the background).
	PowerAt       *time.Time `json:"power_at,omitempty"`
	SwapUsedBytes *int64     `json:"swap_used_bytes"`
}

// Monitor samples a machine in the background.
type Monitor struct {
	h   *host.Host
	cfg Config

	mu       sync.Mutex
	interval time.Duration
	window   *Window
	prevAll  kernelfile.CPUTimes
	prevPer  map[int]kernelfile.CPUTimes
	havePrev bool
	last     *Sample
	kick     chan struct{}
	work     workAccount
}

// New returns a Monitor; call Run to start sampling.
func New(h *host.Host, cfg Config) *Monitor {
	if cfg.Interval <= 0 {
		cfg.Interval = 2 * time.Second
	}
	return &Monitor{h: h, cfg: cfg, interval: cfg.Interval, kick: make(chan struct{}, 1)}
}

// Config returns the monitor's configuration.
func (m *Monitor) Config() Config { return m.cfg }

// SetInterval changes the sampling interval from the next sample on.
func (m *Monitor) SetInterval(d time.Duration) {
	if d <= 0 {
		return
	}
	m.mu.Lock()
	m.interval = d
	m.mu.Unlock()
	select {
	case m.kick <- struct{}{}:
	default:
	}
}

// IntervalFor returns a sampling interval giving several samples for a phase
// expected to last d: a tenth of it, between 1 and 10 seconds.
func IntervalFor(d time.Duration) time.Duration {
	iv := d / 10
	if iv < time.Second {
		iv = time.Second
	}
	if iv > 10*time.Second {
		iv = 10 * time.Second
	}
	return iv
}

// Run samples until ctx is done. Each sample is added to the open window.
// When it returns, the firmware's device (if any) is closed.
func (m *Monitor) Run(ctx context.Context, each func(Sample)) {
	defer m.closeFirmware()
	m.baseline()
	for {
		m.mu.Lock()
		iv := m.interval
		m.mu.Unlock()
		t := time.NewTimer(iv)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-m.kick:
			t.Stop()
			continue
		case <-t.C:
		}
		s := m.SampleNow(ctx)
		if each != nil {
			each(s)
		}
	}
}

// closeFirmware closes the device the firmware holds open (the mailbox);
// a question asked later opens it again.
func (m *Monitor) closeFirmware() {
	if c, ok := m.cfg.Firmware.(io.Closer); ok {
		c.Close()
	}
}

// baseline reads /proc/stat and the watched processes' CPU time, so that
// the next sample's percentages cover the time from now on only.
func (m *Monitor) baseline() {
	data, err := m.h.ReadFile("/proc/stat")
	m.mu.Lock()
	defer m.mu.Unlock()
	m.havePrev = false
	if err == nil {
		if all, per, ok := kernelfile.ParseStat(data); ok {
			m.prevAll, m.prevPer, m.havePrev = all, per, true
		}
	}
	m.work.update(m.h)
	m.work.rebase()
}

// Last returns the most recent sample, or nil before the first.
func (m *Monitor) Last() *Sample {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

// SampleNow takes one sample, adds it to the open window and returns it.
// Its percentages cover the time since the previous sample (or since the
// open window began).
func (m *Monitor) SampleNow(ctx context.Context) Sample {
	return m.sample(ctx, true)
}

// sample takes one sample; without shares it records the conditions only
// (clocks, load, temperature...), not the CPU time split, as at the start
// of a window, where no time has passed since the baseline.
func (m *Monitor) sample(ctx context.Context, shares bool) Sample {
	s := Sample{Time: time.Now().UTC()}
	for _, p := range m.cfg.Policies {
		s.ClockMHz = append(s.ClockMHz, m.readKHzAsMHz(fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/scaling_cur_freq", p.ID)))
	}
	if data, err := m.h.ReadFile("/proc/loadavg"); err == nil {
		if v, ok := kernelfile.ParseLoadavg(data); ok {
			s.Load1 = &v
		}
	}
	if data, err := m.h.ReadFile("/proc/stat"); err == nil && shares {
		if all, per, ok := kernelfile.ParseStat(data); ok {
			m.mu.Lock()
			m.work.update(m.h)
			if m.havePrev {
				if sh, ok := all.SharesSince(m.prevAll); ok {
					s.CPUPct, s.SysPct, s.UsrPct = ptr(sh.Busy), ptr(sh.System), ptr(sh.User)
					s.NicePct, s.IowaitPct, s.IRQPct = ptr(sh.Nice), ptr(sh.Iowait), ptr(sh.IRQ)
					ticks := float64(all.Total() - m.prevAll.Total())
					if all.Steal >= m.prevAll.Steal {
						s.StealPct = ptr(100 * float64(all.Steal-m.prevAll.Steal) / ticks)
					}
					if w, ok := m.work.since(); ok {
						s.WorkPct = ptr(min(100, 100*float64(w)/ticks))
					}
				}
				s.PerCPUBusyPct = map[int]float64{}
				for id, t := range per {
					if prev, ok := m.prevPer[id]; ok {
						if sh, ok := t.SharesSince(prev); ok {
							s.PerCPUBusyPct[id] = round1(sh.Busy)
						}
					}
				}
			}
			m.prevAll, m.prevPer, m.havePrev = all, per, true
			m.work.rebase()
			m.mu.Unlock()
		}
	}
	if m.cfg.MemClockPath != "" {
		if v, err := m.h.ReadInt(m.cfg.MemClockPath); err == nil && v > 0 && v < 1e12 {
			mhz := float64(v) / 1e6
			s.MemClockMHz = &mhz
		}
	}
	if m.cfg.TempPath != "" {
		if c, err := sensors.ReadCelsius(m.h, m.cfg.TempPath); err == nil {
			s.TempC = &c
		}
	}
	if len(m.cfg.Temps) > 0 {
		s.Temps = make([]*float64, len(m.cfg.Temps))
		for i, ts := range m.cfg.Temps {
			if c, err := sensors.ReadCelsius(m.h, ts.Path); err == nil {
				c = math.Round(c*10) / 10
				s.Temps[i] = &c
			}
		}
	}
	for _, ps := range m.cfg.Power {
		if v, err := sensors.ReadValue(m.h, ps.Quantity, ps.Path); err == nil {
			s.Power = append(s.Power, &v)
		} else {
			s.Power = append(s.Power, nil)
		}
	}
	if mt := m.cfg.Meter; mt != nil {
		// A reading's age is measured on the meter's own clock.
		if r, ok := mt.Latest(mt.Now()); ok {
			w, at := math.Round(*r.W*1000)/1000, r.Time.UTC()
			s.PowerW, s.PowerAt = &w, &at
		}
	}
	if data, err := m.h.ReadFile("/proc/meminfo"); err == nil {
		mi := kernelfile.ParseMeminfo(data)
		if tot, ok := mi["SwapTotal"]; ok {
			used := tot - mi["SwapFree"]
			s.SwapUsedBytes = &used
		}
	}
	if fw := m.cfg.Firmware; fw != nil {
		if v, err := fw.ClockMHz(ctx); err == nil {
			s.FirmwareMHz = &v
		}
		if v, err := fw.CoreVolts(ctx); err == nil {
			s.CoreVolts = &v
		}
		if v, err := fw.Throttled(ctx); err == nil {
			s.Throttled = &v
		}
	}
	m.mu.Lock()
	m.last = &s
	if m.window != nil {
		m.window.samples = append(m.window.samples, s)
	}
	m.mu.Unlock()
	return s
}

func (m *Monitor) readKHzAsMHz(p string) *float64 {
	v, err := m.h.ReadInt(p)
	if err != nil || v <= 0 {
		return nil
	}
	mhz := float64(v) / 1000
	return &mhz
}

func ptr(v float64) *float64 { r := round1(v); return &r }

func round1(v float64) float64 { return float64(int64(v*10+0.5)) / 10 }

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

// Evidence is what a phase leaves behind besides its figures.
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

// Window collects the evidence of one phase.
type Window struct {
	m        *Monitor
	name     string
	samples  []Sample
	tis      map[int]map[int64]float64
	vm       map[string]uint64
	log      string
	logErr   error
	thrB     *uint32
	began    time.Time // on the meter's clock (the window's power span)
	finished bool
}

// Begin opens the window of a phase, closing any open one, and takes a first
// sample so that even a short phase has its conditions recorded. The window
// is measured from its own start: the CPU time split is taken afresh here,
// so that the first sample with percentages covers the window only, never
// the tail of what ran before. The first sample has no percentages.
func (m *Monitor) Begin(ctx context.Context, name string) *Window {
	w := &Window{m: m, name: name, tis: map[int]map[int64]float64{}, began: time.Now()}
	if mt := m.cfg.Meter; mt != nil {
		w.began = mt.Now()
	}
	for _, p := range m.cfg.Policies {
		if data, err := m.h.ReadFile(fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/stats/time_in_state", p.ID)); err == nil {
			w.tis[p.ID], _ = secondsByKHz(data)
		}
	}
	if data, err := m.h.ReadFile("/proc/vmstat"); err == nil {
		w.vm = kernelfile.ParseVMStat(data, "pswpin", "pswpout")
	}
	if m.cfg.ReadKernelLog {
		out, err := m.h.Run(ctx, "dmesg")
		w.log, w.logErr = string(out), err
	}
	if fw := m.cfg.Firmware; fw != nil {
		if v, err := fw.Throttled(ctx); err == nil {
			w.thrB = &v
		}
	}
	m.baseline()
	m.mu.Lock()
	m.window = w
	m.mu.Unlock()
	m.sample(ctx, false)
	return w
}

// End closes the window with a last sample and returns the phase's evidence.
func (w *Window) End(ctx context.Context) Evidence {
	m := w.m
	m.SampleNow(ctx)
	m.mu.Lock()
	if m.window == w {
		m.window = nil
	}
	ev := Evidence{Samples: append([]Sample(nil), w.samples...), ThrottledBefore: w.thrB}
	m.mu.Unlock()
	for _, p := range m.cfg.Policies {
		before, ok := w.tis[p.ID]
		if !ok {
			continue
		}
		data, err := m.h.ReadFile(fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/stats/time_in_state", p.ID))
		if err != nil {
			continue
		}
		after, dropped := secondsByKHz(data)
		if dropped > 0 {
			ev.Notes = append(ev.Notes, fmt.Sprintf("policy%d time_in_state lists %d more frequencies than the %d kept (a damaged file?): their time is left out",
				p.ID, dropped, kernelfile.MaxTimeInStates))
		}
		ev.TimeInState = append(ev.TimeInState, diffTimeInState(p.ID, before, after))
	}
	if len(m.cfg.Policies) > 0 && len(ev.TimeInState) == 0 {
		ev.Notes = append(ev.Notes, "cpufreq time_in_state not exposed: throttling can only be seen in sampled clocks")
	}
	if w.vm != nil {
		if data, err := m.h.ReadFile("/proc/vmstat"); err == nil {
			after := kernelfile.ParseVMStat(data, "pswpin", "pswpout")
			if a, ok := after["pswpin"]; ok && a >= w.vm["pswpin"] {
				d := a - w.vm["pswpin"]
				ev.SwapIn = &d
			}
			if a, ok := after["pswpout"]; ok && a >= w.vm["pswpout"] {
				d := a - w.vm["pswpout"]
				ev.SwapOut = &d
			}
		}
	}
	if m.cfg.ReadKernelLog {
		out, err := m.h.Run(ctx, "dmesg")
		switch {
		case w.logErr != nil || err != nil:
			ev.Notes = append(ev.Notes, "kernel log not readable (needs root on most systems): under-voltage, OOM and CPU-offline events may go unseen")
		default:
			// An empty list, not null: the log was read and nothing happened.
			ev.Events = append([]Event{}, Events(NewLogLines(w.log, string(out)))...)
		}
	}
	if fw := m.cfg.Firmware; fw != nil {
		if v, err := fw.Throttled(ctx); err == nil {
			ev.ThrottledAfter = &v
		}
	}
	if mt := m.cfg.Meter; mt != nil {
		PowerEvidence(&ev, mt.Span(w.began, mt.Now()))
	}
	w.finished = true
	return ev
}

func diffTimeInState(policy int, before, after map[int64]float64) PolicyTime {
	pt := PolicyTime{Policy: policy, ByMHz: map[string]float64{}}
	var top int64
	for khz := range after {
		if khz > top {
			top = khz
		}
	}
	pt.TopMHz = float64(top) / 1000
	keys := make([]int64, 0, len(after))
	for k := range after {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] > keys[j] })
	for _, khz := range keys {
		d := after[khz] - before[khz]
		if d <= 0 {
			continue
		}
		d = float64(int64(d*100+0.5)) / 100
		pt.TotalS += d
		if khz < top {
			pt.BelowTopS += d
		}
		pt.ByMHz[strings.TrimSuffix(fmt.Sprintf("%.1f", float64(khz)/1000), ".0")] = d
	}
	pt.TotalS = float64(int64(pt.TotalS*100+0.5)) / 100
	pt.BelowTopS = float64(int64(pt.BelowTopS*100+0.5)) / 100
	return pt
}

// PowerEvidence puts a meter's span into a phase's evidence: mean power,
// energy, its basis and a note on missing readings.
func PowerEvidence(ev *Evidence, sp power.Span) {
	if sp.PowerW != nil {
		w := math.Round(*sp.PowerW*1000) / 1000
		ev.PowerW = &w
		ev.PowerBasis = sp.Basis
	}
	if sp.EnergyWh != nil {
		e := math.Round(*sp.EnergyWh*1e6) / 1e6
		ev.EnergyWh = &e
	}
	if n := sp.Note(); n != "" {
		ev.Notes = append(ev.Notes, n)
	}
}
