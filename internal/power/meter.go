package power

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// MaxHistory bounds the readings a Meter keeps (18 hours at one a second);
// the oldest quarter is dropped when it is reached.
const MaxHistory = 1 << 16

// FirstReadingTimeout bounds the wait for a meter's first answer at start.
const FirstReadingTimeout = 10 * time.Second

// Meter reads a Source in the background and keeps its readings.
type Meter struct {
	src   Source
	info  Info
	clock Clock

	mu       sync.Mutex
	hist     []Reading
	readings int
	missing  int
	errs     []string
	first    chan struct{}
	gotFirst bool
	done     chan struct{}
	cancel   context.CancelFunc
}

// NewMeter returns a Meter for src on the system's clock; Start starts
// reading it.
func NewMeter(src Source) *Meter { return NewMeterClock(src, nil) }

// NewMeterClock returns a Meter for src whose times come from clock (nil:
// the system's clock); a polled source (see Polled) takes its readings on
// the same clock.
func NewMeterClock(src Source, clock Clock) *Meter {
	clock = orSystem(clock)
	if c, ok := src.(clocked); ok {
		c.setClock(clock)
	}
	return &Meter{src: src, info: src.Info(), clock: clock, first: make(chan struct{}), done: make(chan struct{})}
}

// Now is the meter's time: a window of readings (Span) and a reading's age
// (Latest) are measured on it.
func (m *Meter) Now() time.Time { return m.clock.Now() }

// Info describes the meter's source.
func (m *Meter) Info() Info { return m.info }

// Start reads the source until ctx is done or Stop is called; Done is
// closed then.
func (m *Meter) Start(ctx context.Context) {
	ctx, m.cancel = context.WithCancel(ctx)
	go func() {
		defer close(m.done)
		m.src.Run(ctx, m.add)
	}()
}

// Stop stops reading and waits until the source has stopped.
func (m *Meter) Stop() {
	if m.cancel != nil {
		m.cancel()
		<-m.done
	}
}

// Done is closed when the meter has stopped reading.
func (m *Meter) Done() <-chan struct{} { return m.done }

// add records one reading; readings must come in time order.
func (m *Meter) add(r Reading) {
	r = guard(m.info.Kind, r)
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.Err == "" {
		m.readings++
	} else {
		m.missing++
		if len(m.errs) < MaxErrors && !slices.Contains(m.errs, r.Err) {
			m.errs = append(m.errs, r.Err)
		}
	}
	if n := len(m.hist); n > 0 && r.Time.Before(m.hist[n-1].Time) {
		r.Time = m.hist[n-1].Time
	}
	if len(m.hist) >= MaxHistory {
		m.hist = append(m.hist[:0], m.hist[MaxHistory/4:]...)
	}
	m.hist = append(m.hist, r)
	if !m.gotFirst {
		m.gotFirst = true
		close(m.first)
	}
}

// MaxErrors bounds the distinct error messages a meter keeps.
const MaxErrors = 5

// WaitFirst waits up to timeout for the first reading and returns an error
// when it failed or did not come. The timeout is the system's time (it
// bounds the wait for a device, whatever the meter's clock).
func (m *Meter) WaitFirst(ctx context.Context, timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-m.first:
	case <-m.done:
		select {
		case <-m.first:
		default:
			return errors.New("the meter stopped before its first reading")
		}
	case <-t.C:
		return fmt.Errorf("no reading within %s", timeout)
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.hist[0]; r.Err != "" {
		return errors.New(r.Err)
	}
	return nil
}

// MaxGap is how long a reading stands for the meter: a reading older than
// this at a sample is stale, and readings further apart are not joined.
func (m *Meter) MaxGap() time.Duration {
	g := 3 * m.info.Interval
	if m.info.Interval <= 0 {
		g = 10 * time.Second
	}
	return max(g, 3*time.Second)
}

// Latest returns the newest reading when it is a good one no older than
// MaxGap at now; ok is false when the meter is missing (its last read
// failed, or it has not answered for a while).
func (m *Meter) Latest(now time.Time) (r Reading, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.hist) == 0 {
		return Reading{}, false
	}
	r = m.hist[len(m.hist)-1]
	if !r.OK() || now.Sub(r.Time) > m.MaxGap() {
		return r, false
	}
	return r, true
}

// Stats counts a meter's good and missing readings.
type Stats struct {
	Readings, Missing int
	// Errors are the distinct reasons of missing readings (at most
	// MaxErrors).
	Errors []string
}

// Stats returns the counts so far.
func (m *Meter) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Stats{Readings: m.readings, Missing: m.missing, Errors: slices.Clone(m.errs)}
}

// Baseline waits d (or until ctx is done) and returns the Span of that
// time: the idle power before the first phase. Without a good reading
// taken during it, the span has no power figure (its Note says why).
func (m *Meter) Baseline(ctx context.Context, d time.Duration) Span {
	from := m.clock.Now()
	select {
	case <-m.clock.After(d):
	case <-ctx.Done():
	}
	sp := m.Span(from, m.clock.Now())
	if sp.Readings == 0 {
		// Nothing was read during the baseline: a reading from before it
		// does not make an idle figure.
		sp.PowerW, sp.EnergyWh, sp.Basis, sp.Around = nil, nil, "", false
	}
	return sp
}

// history returns a copy of the readings from just before from (the last
// good one) to to.
func (m *Meter) history(from, to time.Time) []Reading {
	m.mu.Lock()
	defer m.mu.Unlock()
	i, _ := slices.BinarySearchFunc(m.hist, from, func(r Reading, t time.Time) int { return r.Time.Compare(t) })
	// Step back to the last readings before from: they join the window's
	// first reading (or stand for its start).
	for back := 0; i > 0 && back < 8; back++ {
		i--
		if m.hist[i].OK() {
			break
		}
	}
	j, _ := slices.BinarySearchFunc(m.hist, to, func(r Reading, t time.Time) int {
		if r.Time.After(t) {
			return 1
		}
		return -1
	})
	if i > j {
		i = j
	}
	return slices.Clone(m.hist[i:j])
}
