// Package power reads power meters while boardbench measures: hwmon sensors
// on the board (INA2xx and similar), the Raspberry Pi 5 PMIC, the USB-PD
// contract (a limit, not a measurement), Shelly smart plugs, Netio
// PowerCable/PowerBOX outlets, and any program that prints watts. One file
// per source.
//
// A Meter reads its source in its own goroutine and keeps the timestamped
// readings, so that the monitor's sampler never waits for a meter: it asks
// Latest (the newest reading, if fresh) and, per phase, Span (the mean power
// and energy between two instants, from the meter's energy counter where it
// has a fine enough one, else from the readings). A meter that hangs, answers
// garbage or goes away is recorded as missing readings; the run goes on.
//
// The protocols and the public documents they come from: docs/power.md.
package power

import (
	"context"
	"io"
	"time"
)

// What a source measures (Info.Measures).
const (
	// MeasuresWall is at the socket: the power supply and its cable included.
	MeasuresWall = "wall"
	// MeasuresBoard is the board's supply input, after the power supply.
	MeasuresBoard = "board"
	// MeasuresSoC is the SoC side: regulator rails on the board, not its
	// input, so neither the USB peripherals nor the conversion losses.
	MeasuresSoC = "soc"
	// MeasuresLimit is no measurement at all: the most the supply agreed to
	// give (a USB-PD contract).
	MeasuresLimit = "limit"
	// MeasuresComponent is one component's own sensor (a GPU, a disk, a
	// rail whose place on the board boardbench does not know).
	MeasuresComponent = "component"
)

// Source kinds (Info.Kind), the part of a spec before the colon.
const (
	KindHwmon   = "hwmon"
	KindRPiPMIC = "rpi-pmic"
	KindUSBPD   = "usb-pd"
	KindShelly  = "shelly"
	KindNetio   = "netio"
	KindCmd     = "cmd"
)

// Reading is one answer of a meter. A failed read is a Reading too, with
// Err set and no values: it counts as a missing reading.
type Reading struct {
	// Time is when the reading was taken (when the meter answered).
	Time time.Time
	// W is the power in watts; nil when the source has no power figure.
	W *float64
	// EnergyWh is the meter's cumulative energy counter in watt-hours; nil
	// without one.
	EnergyWh *float64
	// Err says why the read failed; "" for a good reading.
	Err string
}

// OK reports whether r is a good power reading.
func (r Reading) OK() bool { return r.Err == "" && r.W != nil }

// Info describes a source for the result and the report.
type Info struct {
	// Spec is the source as given (credentials removed), or as chosen
	// automatically, e.g. "hwmon:ina226".
	Spec string
	// Kind is one of the Kind constants.
	Kind string
	// Measures is one of the Measures constants.
	Measures string
	// Description names the meter and the channel read, e.g. "Shelly Gen2
	// RPC, switch:0".
	Description string
	// Reason says why the source was chosen automatically; "" when it was
	// given with --power.
	Reason string
	// EnergyCounter is true when the meter has a cumulative energy counter;
	// EnergyResolutionWh is its step.
	EnergyCounter      bool
	EnergyResolutionWh float64
	// Interval is the time between reads of a polled source; 0 for a
	// program that prints at its own pace.
	Interval time.Duration
	// LimitW is the negotiated supply limit of a usb-pd source.
	LimitW *float64
	// Notes are caveats worth reading with the figures.
	Notes []string
}

// Source is one power meter. Run reads it until ctx is done and passes
// every reading, good or failed, to emit; it must stop promptly when ctx is
// done, and bound each read in time itself.
type Source interface {
	Info() Info
	Run(ctx context.Context, emit func(Reading))
}

// Poller reads a meter once; most sources are a Poller run at an interval
// (see Polled).
type Poller interface {
	Read(ctx context.Context) (Reading, error)
}

// DefaultTimeout bounds one read of a networked meter.
const DefaultTimeout = 2 * time.Second

// polled runs a Poller every interval with a timeout per read.
type polled struct {
	info     Info
	p        Poller
	interval time.Duration
	timeout  time.Duration
	clock    Clock
}

// Polled makes a Source of p: one read every info.Interval, each bounded by
// timeout. A failed read is emitted with Err set.
func Polled(info Info, p Poller, timeout time.Duration) Source {
	if info.Interval <= 0 {
		info.Interval = time.Second
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &polled{info: info, p: p, interval: info.Interval, timeout: timeout, clock: systemClock{}}
}

func (s *polled) Info() Info { return s.info }

func (s *polled) setClock(c Clock) { s.clock = c }

// Run reads every interval on the source's clock (a read that overruns
// its turn is followed by the next one at once); a reading without a time
// is stamped when its read returns. A Poller that is also an io.Closer
// (one holding a device open) is closed when Run returns.
func (s *polled) Run(ctx context.Context, emit func(Reading)) {
	if c, ok := s.p.(io.Closer); ok {
		defer c.Close()
	}
	next := s.clock.Now()
	for {
		rctx, cancel := context.WithTimeout(ctx, s.timeout)
		r, err := s.p.Read(rctx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			r = Reading{Time: s.clock.Now(), Err: err.Error()}
		}
		if r.Time.IsZero() {
			r.Time = s.clock.Now()
		}
		emit(r)
		next = next.Add(s.interval)
		wait := next.Sub(s.clock.Now())
		if wait <= 0 {
			next, wait = s.clock.Now(), 0
		}
		select {
		case <-ctx.Done():
			return
		case <-s.clock.After(wait):
		}
	}
}

func ptr(v float64) *float64 { return &v }
