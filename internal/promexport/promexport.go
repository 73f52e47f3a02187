// Package promexport exposes the monitor's live samples to Prometheus on
// /metrics in the text exposition format (written by text.go). A scrape reads the
// sampler's latest sample (monitor.Monitor.Last), its latest /proc/stat
// times (monitor.Monitor.LastCPUTimes) and the counters taken with it; it never reads /proc or /sys itself, so scraping costs no more
// machine reads however often Prometheus asks. docs/prometheus.md lists
// every metric.
package promexport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strings"
	"time"

	"boardbench/internal/httplite"
	"boardbench/internal/inventory"
	"boardbench/internal/kernelfile"
	"boardbench/internal/monitor"
)

// Namespace prefixes every metric name.
const Namespace = "boardbench"

// Source gives the latest sample; *monitor.Monitor is one.
type Source interface {
	// Last returns the most recent sample, or nil before the first.
	Last() *monitor.Sample
}

// Cluster is one sampled cpufreq policy with the labels its metrics carry.
type Cluster struct {
	// Label is the monitor's column name, e.g. "cpu0-3".
	Label string
	// Policy is the cpufreq policy number.
	Policy int
	// CoreType is the core name, e.g. "Cortex-A76"; "" when unknown.
	CoreType string
}

// Exporter writes a monitor's latest sample and the counters read with it
// (see Counters) as Prometheus metrics.
type Exporter struct {
	src      Source
	clusters []Cluster
	sensors  []monitor.Sensor
	temp     string
	counters *Counters

	constLabels [][2]string // board and soc, on every series
}

// families are the metric families of one scrape, empty.
type families struct {
	clock, fwClock, temp, load, busy, mode, cpuBusy, volts, power, sensor, swapUsed, stamp *family
	tis, tisDropped, swapIn, swapOut, throttled, throttledBits, cpuSeconds                 *family
}

// newFamilies returns every metric family the exporter sends, without samples.
func newFamilies() families {
	d := func(name, help string, labels ...string) *family {
		return &family{name: Namespace + "_" + name, help: help, typ: gaugeType, labels: labels}
	}
	c := func(name, help string, labels ...string) *family {
		f := d(name, help, labels...)
		f.typ = counterType
		return f
	}
	return families{
		clock:         d("cpu_clock_hertz", "Current clock of a cluster's cpufreq policy (scaling_cur_freq).", "cluster", "core_type"),
		fwClock:       d("firmware_clock_hertz", "ARM clock the Raspberry Pi firmware measures."),
		temp:          d("temperature_celsius", "SoC temperature.", "sensor"),
		load:          d("load1", "One-minute load average."),
		busy:          d("cpu_busy_ratio", "Share of all CPUs' time that was busy since the previous sample (0-1)."),
		mode:          d("cpu_mode_ratio", "Share of all CPUs' time spent in a mode since the previous sample (0-1).", "mode"),
		cpuBusy:       d("cpu_core_busy_ratio", "Busy share of one CPU since the previous sample (0-1).", "cpu"),
		volts:         d("core_voltage_volts", "Core voltage the Raspberry Pi firmware reports."),
		power:         d("power_watts", "Power from the chosen power source."),
		sensor:        d("power_sensor_value", "Reading of a sampled hwmon power, current or voltage sensor, in its unit.", "sensor", "quantity", "unit"),
		swapUsed:      d("swap_used_bytes", "Swap space in use."),
		stamp:         d("sample_timestamp_seconds", "Unix time of the latest sample."),
		tis:           c("cpu_clock_time_seconds_total", "Time a cluster's cpufreq policy has spent at a clock since boot (time_in_state).", "cluster", "core_type", "clock_hertz"),
		tisDropped:    d("cpu_clock_states_dropped", "Frequencies of a cluster's time_in_state beyond the 256 exported (a damaged file); present only when some were.", "cluster", "core_type"),
		swapIn:        c("swap_in_pages_total", "Pages swapped in since boot (pswpin)."),
		swapOut:       c("swap_out_pages_total", "Pages swapped out since boot (pswpout)."),
		throttled:     d("throttled", "Raspberry Pi firmware throttling flag (get_throttled): 1 set, 0 clear.", "flag"),
		throttledBits: d("throttled_bits", "Raspberry Pi firmware get_throttled bit field."),
		cpuSeconds:    c("cpu_seconds_total", "Time a CPU has spent in a mode since boot (/proc/stat, as the sampler last read it).", "cpu", "mode"),
	}
}

// list returns the families in one slice.
func (d families) list() []*family {
	return []*family{d.clock, d.fwClock, d.temp, d.load, d.busy, d.mode, d.cpuBusy, d.volts,
		d.power, d.sensor, d.swapUsed, d.stamp, d.tis, d.tisDropped, d.swapIn, d.swapOut, d.throttled, d.throttledBits, d.cpuSeconds}
}

// New returns an exporter of src's samples, taken with configuration cfg
// on the machine in (its board, SoC and core types label the metrics).
// counters may be nil: time-in-state, swap activity and throttling flags
// are then left out.
func New(src Source, cfg monitor.Config, in *inventory.Info, counters *Counters) *Exporter {
	board, soc := BoardLabel(in), Unknown
	if in != nil && in.SoC.Guess != "" {
		soc = in.SoC.Guess
	}
	e := &Exporter{src: src, sensors: cfg.Power, temp: cfg.TempLabel, counters: counters,
		constLabels: [][2]string{{"board", board}, {"soc", soc}}}
	e.clusters = Clusters(cfg, in)
	return e
}

// Clusters returns the sampled policies of cfg with the core type each
// has in in (the cluster whose policies include it).
func Clusters(cfg monitor.Config, in *inventory.Info) []Cluster {
	out := make([]Cluster, 0, len(cfg.Policies))
	for _, p := range cfg.Policies {
		c := Cluster{Label: p.Label, Policy: p.ID}
		if in != nil {
			for _, cl := range in.CPU.Clusters {
				if slices.Contains(cl.Policies, p.ID) || cl.Policy != nil && *cl.Policy == p.ID {
					c.CoreType = cl.CoreName
					if c.CoreType == "" {
						c.CoreType = cl.Core
					}
					break
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// WriteText writes the latest sample's values in the text exposition
// format; nothing is read from the machine. A value the sample lacks is
// left out, never sent as 0.
func (e *Exporter) WriteText(w io.Writer) error {
	return writeText(w, e.collect().list(), e.constLabels)
}

// collect returns the families with the latest sample's values.
func (e *Exporter) collect() families {
	d := newFamilies()
	gauge := func(f *family, v float64, labels ...string) { f.add(v, labels...) }
	if s := e.src.Last(); s != nil {
		for i, c := range e.clusters {
			if i < len(s.ClockMHz) && s.ClockMHz[i] != nil {
				gauge(d.clock, *s.ClockMHz[i]*1e6, c.Label, c.CoreType)
			}
		}
		if s.FirmwareMHz != nil {
			gauge(d.fwClock, *s.FirmwareMHz*1e6)
		}
		if s.TempC != nil {
			gauge(d.temp, *s.TempC, e.temp)
		}
		if s.Load1 != nil {
			gauge(d.load, *s.Load1)
		}
		if s.CPUPct != nil {
			gauge(d.busy, *s.CPUPct/100)
		}
		for _, m := range []struct {
			name string
			v    *float64
		}{{"user", s.UsrPct}, {"nice", s.NicePct}, {"system", s.SysPct}, {"iowait", s.IowaitPct}, {"irq", s.IRQPct}, {"steal", s.StealPct}} {
			if m.v != nil {
				gauge(d.mode, *m.v/100, m.name)
			}
		}
		for _, cpu := range slices.Sorted(maps.Keys(s.PerCPUBusyPct)) {
			gauge(d.cpuBusy, s.PerCPUBusyPct[cpu]/100, fmt.Sprint(cpu))
		}
		if s.CoreVolts != nil {
			gauge(d.volts, *s.CoreVolts)
		}
		if s.PowerW != nil {
			gauge(d.power, *s.PowerW)
		}
		for i, ps := range e.sensors {
			if i < len(s.Power) && s.Power[i] != nil {
				gauge(d.sensor, *s.Power[i], ps.Label, ps.Quantity, ps.Unit)
			}
		}
		if s.SwapUsedBytes != nil {
			gauge(d.swapUsed, float64(*s.SwapUsedBytes))
		}
		gauge(d.stamp, float64(s.Time.UnixNano())/1e9)
	}
	if ts, ok := e.src.(CPUTimesSource); ok {
		if per, ok := ts.LastCPUTimes(); ok {
			for _, cpu := range slices.Sorted(maps.Keys(per)) {
				t := per[cpu]
				for _, m := range []struct {
					mode  string
					ticks uint64
				}{{"user", t.User}, {"nice", t.Nice}, {"system", t.System}, {"idle", t.Idle}, {"iowait", t.Iowait},
					{"irq", t.IRQ}, {"softirq", t.SoftIRQ}, {"steal", t.Steal}} {
					d.cpuSeconds.add(float64(m.ticks)/UserHZ, fmt.Sprint(cpu), m.mode)
				}
			}
		}
	}
	if e.counters != nil {
		e.collectCounters(d)
	}
	return d
}

// UserHZ is the unit of /proc/stat's CPU times: ticks per second, 100 on
// every Linux architecture.
const UserHZ = 100

// CPUTimesSource is a Source that also keeps the per-CPU times of its
// latest /proc/stat reading (*monitor.Monitor is one): they become the
// boardbench_cpu_seconds_total counters without any read per scrape.
type CPUTimesSource interface {
	LastCPUTimes() (perCPU map[int]kernelfile.CPUTimes, ok bool)
}

// The monitor keeps its latest /proc/stat times for the exporter.
var _ CPUTimesSource = (*monitor.Monitor)(nil)

// Unknown is the board or soc label's value when the inventory does not
// name it (an empty label value would be the same as no label).
const Unknown = "unknown"

// BoardLabel returns the board label's value: the inventory's board model
// (device tree, DMI product, /proc/cpuinfo Model or the Raspberry Pi
// revision), else the DMI vendor and product, else /proc/cpuinfo's
// Hardware line, else Unknown. It never uses the host name, which the
// inventory redacts and Prometheus's own instance label already gives.
func BoardLabel(in *inventory.Info) string {
	if in == nil {
		return Unknown
	}
	b := in.Board
	if m := strings.TrimSpace(b.Model); m != "" {
		return m
	}
	if b.DMI != nil {
		if v := strings.TrimSpace(strings.TrimSpace(b.DMI.SysVendor) + " " + strings.TrimSpace(b.DMI.ProductName)); v != "" {
			return v
		}
	}
	if hw := strings.TrimSpace(b.CPUInfoHardware); hw != "" {
		return hw
	}
	return Unknown
}

func (e *Exporter) collectCounters(d families) {
	snap := e.counters.snapshot()
	for _, c := range e.clusters {
		states := snap.timeInState[c.Policy]
		for _, khz := range slices.Sorted(maps.Keys(states)) {
			d.tis.add(states[khz], c.Label, c.CoreType, fmt.Sprint(khz*1000))
		}
		if n := snap.statesDropped[c.Policy]; n > 0 {
			d.tisDropped.add(float64(n), c.Label, c.CoreType)
		}
	}
	if snap.swapIn != nil {
		d.swapIn.add(float64(*snap.swapIn))
	}
	if snap.swapOut != nil {
		d.swapOut.add(float64(*snap.swapOut))
	}
	if t := snap.throttled; t != nil {
		d.throttledBits.add(float64(*t))
		for _, f := range ThrottledFlags {
			v := 0.0
			if *t&(1<<f.Bit) != 0 {
				v = 1
			}
			d.throttled.add(v, f.Name)
		}
	}
}

// ThrottledFlag names one bit of the Raspberry Pi firmware's get_throttled.
type ThrottledFlag struct {
	Bit  uint
	Name string
}

// ThrottledFlags are the get_throttled bits exported as the flag label.
var ThrottledFlags = []ThrottledFlag{
	{0, "under_voltage_now"}, {1, "frequency_capped_now"}, {2, "throttled_now"}, {3, "soft_temp_limit_now"},
	{16, "under_voltage_occurred"}, {17, "frequency_capped_occurred"}, {18, "throttled_occurred"}, {19, "soft_temp_limit_occurred"},
}

// Answer is e's answer to a scrape of /metrics: the text format, or a
// 500 naming the error.
func Answer(e *Exporter) httplite.Answer {
	var buf bytes.Buffer
	if err := e.WriteText(&buf); err != nil {
		return httplite.Answer{Status: 500, ContentType: "text/plain; charset=utf-8",
			Body: []byte("boardbench exporter: " + err.Error() + "\n")}
	}
	return httplite.Answer{ContentType: ContentType, Body: buf.Bytes()}
}

// Listen opens addr for Serve; a port already in use is reported here, before anything runs.
func Listen(addr string) (net.Listener, error) {
	return net.Listen("tcp", addr)
}

// Serve answers /metrics (and / with a line pointing there) on ln until
// ctx is done, with httplite's responder: one request per connection,
// request headers read within 10 s, answers written within 15 s.
func Serve(ctx context.Context, ln net.Listener, e *Exporter) error {
	srv := &httplite.Server{Routes: []httplite.Route{
		{Path: "/metrics", Answer: func() httplite.Answer { return Answer(e) }},
		{Path: "/", Answer: func() httplite.Answer {
			return httplite.Answer{ContentType: "text/plain; charset=utf-8", Body: []byte("boardbench exporter: metrics on /metrics\n")}
		}},
	}}
	return srv.Serve(ctx, ln, 2*time.Second)
}

// IsLoopback reports whether addr (host:port) listens on a loopback address only.
func IsLoopback(addr string) bool {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
