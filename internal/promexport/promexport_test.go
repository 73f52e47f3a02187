package promexport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/kernelfile"
	"boardbench/internal/monitor"
	"boardbench/internal/testutil/need"
	"boardbench/internal/testutil/wait"
)

// fakeSource counts how often the exporter asks for a sample.
type fakeSource struct {
	mu    sync.Mutex
	s     *monitor.Sample
	calls int
}

func (f *fakeSource) Last() *monitor.Sample {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.s
}

func fp(v float64) *float64 { return &v }

func testConfig() (monitor.Config, *inventory.Info) {
	cfg := monitor.Config{
		Policies:  []monitor.Policy{{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}}, {Label: "cpu4-7", ID: 4, CPUs: []int{4, 5, 6, 7}}},
		TempLabel: "soc_thermal",
		Power:     []monitor.Sensor{{Label: "in0", Quantity: "voltage", Unit: "V"}},
	}
	p0, p4 := 0, 4
	in := &inventory.Info{}
	in.Board.Model = `Radxa ROCK 5B "test"`
	in.SoC.Guess = "Rockchip RK3588"
	in.CPU.Clusters = []cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1, 2, 3}, CoreName: "Cortex-A55", Policy: &p0, Policies: []int{0}},
		{ID: 1, CPUs: []int{4, 5, 6, 7}, CoreName: "Cortex-A76", Policy: &p4, Policies: []int{4}},
	}
	return cfg, in
}

func fullSample() *monitor.Sample {
	swap := int64(1 << 20)
	return &monitor.Sample{
		Time:     time.Unix(1700000000, 0),
		ClockMHz: []*float64{fp(1800), nil},
		Load1:    fp(1.5), CPUPct: fp(50), UsrPct: fp(40), SysPct: fp(10), NicePct: fp(0), IowaitPct: fp(0), IRQPct: fp(0),
		PerCPUBusyPct: map[int]float64{0: 100, 1: 0},
		TempC:         fp(45.5), PowerW: fp(6.25), Power: []*float64{fp(5.1)}, SwapUsedBytes: &swap,
	}
}

func TestCollectExportsTheSampleWithUnitsAndLabels(t *testing.T) {
	cfg, in := testConfig()
	src := &fakeSource{s: fullSample()}
	e := New(src, cfg, in, nil)
	want := `
# HELP boardbench_cpu_clock_hertz Current clock of a cluster's cpufreq policy (scaling_cur_freq).
# TYPE boardbench_cpu_clock_hertz gauge
boardbench_cpu_clock_hertz{board="Radxa ROCK 5B \"test\"",cluster="cpu0-3",core_type="Cortex-A55",soc="Rockchip RK3588"} 1.8e+09
# HELP boardbench_temperature_celsius SoC temperature.
# TYPE boardbench_temperature_celsius gauge
boardbench_temperature_celsius{board="Radxa ROCK 5B \"test\"",sensor="soc_thermal",soc="Rockchip RK3588"} 45.5
# HELP boardbench_power_watts Power from the chosen power source.
# TYPE boardbench_power_watts gauge
boardbench_power_watts{board="Radxa ROCK 5B \"test\"",soc="Rockchip RK3588"} 6.25
# HELP boardbench_cpu_mode_ratio Share of all CPUs' time spent in a mode since the previous sample (0-1).
# TYPE boardbench_cpu_mode_ratio gauge
boardbench_cpu_mode_ratio{board="Radxa ROCK 5B \"test\"",mode="iowait",soc="Rockchip RK3588"} 0
boardbench_cpu_mode_ratio{board="Radxa ROCK 5B \"test\"",mode="irq",soc="Rockchip RK3588"} 0
boardbench_cpu_mode_ratio{board="Radxa ROCK 5B \"test\"",mode="nice",soc="Rockchip RK3588"} 0
boardbench_cpu_mode_ratio{board="Radxa ROCK 5B \"test\"",mode="system",soc="Rockchip RK3588"} 0.1
boardbench_cpu_mode_ratio{board="Radxa ROCK 5B \"test\"",mode="user",soc="Rockchip RK3588"} 0.4
# HELP boardbench_swap_used_bytes Swap space in use.
# TYPE boardbench_swap_used_bytes gauge
boardbench_swap_used_bytes{board="Radxa ROCK 5B \"test\"",soc="Rockchip RK3588"} 1.048576e+06
# HELP boardbench_power_sensor_value Reading of a sampled hwmon power, current or voltage sensor, in its unit.
# TYPE boardbench_power_sensor_value gauge
boardbench_power_sensor_value{board="Radxa ROCK 5B \"test\"",quantity="voltage",sensor="in0",soc="Rockchip RK3588",unit="V"} 5.1
`
	names := []string{"boardbench_cpu_clock_hertz", "boardbench_temperature_celsius", "boardbench_power_watts",
		"boardbench_cpu_mode_ratio", "boardbench_swap_used_bytes", "boardbench_power_sensor_value"}
	if err := collectAndCompare(e, want, names...); err != nil {
		t.Error(err)
	}
	// The second cluster's clock was missing: left out, not exported as 0.
	if n := collectAndCount(e, "boardbench_cpu_clock_hertz"); n != 1 {
		t.Errorf("clock series = %d, want 1 (a missing reading is left out)", n)
	}
	if n := collectAndCount(e, "boardbench_cpu_core_busy_ratio"); n != 2 {
		t.Errorf("per-CPU series = %d, want 2", n)
	}
	if err := collectAndCompare(e, "", "boardbench_core_voltage_volts", "boardbench_firmware_clock_hertz"); err != nil {
		t.Errorf("values the sample lacks must be absent: %v", err)
	}
}

func TestCollectBeforeTheFirstSampleIsEmpty(t *testing.T) {
	cfg, in := testConfig()
	e := New(&fakeSource{}, cfg, in, nil)
	if n := collectAndCount(e); n != 0 {
		t.Errorf("metrics before the first sample = %d, want 0", n)
	}
}

type fakeFirmware struct{ bits uint32 }

func (f fakeFirmware) ClockMHz(context.Context) (float64, error)  { return 0, fmt.Errorf("no") }
func (f fakeFirmware) Throttled(context.Context) (uint32, error)  { return f.bits, nil }
func (f fakeFirmware) CoreVolts(context.Context) (float64, error) { return 0, fmt.Errorf("no") }

func TestCountersFromFixtureFiles(t *testing.T) {
	root := t.TempDir()
	write := func(p, text string) {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sys/devices/system/cpu/cpufreq/policy0/stats/time_in_state", "408000 1500\n1800000 250\n")
	write("proc/vmstat", "nr_free_pages 1\npswpin 12\npswpout 34\n")
	h := newFixtureHost(t, root)
	cfg, in := testConfig()
	cfg.Firmware = fakeFirmware{bits: 1<<16 | 1<<2}
	c := NewCounters(h, cfg)
	c.Update(context.Background())
	e := New(&fakeSource{}, cfg, in, c)
	want := `
# HELP boardbench_cpu_clock_time_seconds_total Time a cluster's cpufreq policy has spent at a clock since boot (time_in_state).
# TYPE boardbench_cpu_clock_time_seconds_total counter
boardbench_cpu_clock_time_seconds_total{board="Radxa ROCK 5B \"test\"",clock_hertz="1800000000",cluster="cpu0-3",core_type="Cortex-A55",soc="Rockchip RK3588"} 2.5
boardbench_cpu_clock_time_seconds_total{board="Radxa ROCK 5B \"test\"",clock_hertz="408000000",cluster="cpu0-3",core_type="Cortex-A55",soc="Rockchip RK3588"} 15
# HELP boardbench_swap_in_pages_total Pages swapped in since boot (pswpin).
# TYPE boardbench_swap_in_pages_total counter
boardbench_swap_in_pages_total{board="Radxa ROCK 5B \"test\"",soc="Rockchip RK3588"} 12
# HELP boardbench_swap_out_pages_total Pages swapped out since boot (pswpout).
# TYPE boardbench_swap_out_pages_total counter
boardbench_swap_out_pages_total{board="Radxa ROCK 5B \"test\"",soc="Rockchip RK3588"} 34
# HELP boardbench_throttled_bits Raspberry Pi firmware get_throttled bit field.
# TYPE boardbench_throttled_bits gauge
boardbench_throttled_bits{board="Radxa ROCK 5B \"test\"",soc="Rockchip RK3588"} 65540
`
	if err := collectAndCompare(e, want, "boardbench_cpu_clock_time_seconds_total",
		"boardbench_swap_in_pages_total", "boardbench_swap_out_pages_total", "boardbench_throttled_bits"); err != nil {
		t.Error(err)
	}
	body := scrape(t, e)
	for _, line := range []string{
		`boardbench_throttled{board="Radxa ROCK 5B \"test\"",flag="throttled_now",soc="Rockchip RK3588"} 1`,
		`boardbench_throttled{board="Radxa ROCK 5B \"test\"",flag="under_voltage_occurred",soc="Rockchip RK3588"} 1`,
		`boardbench_throttled{board="Radxa ROCK 5B \"test\"",flag="under_voltage_now",soc="Rockchip RK3588"} 0`,
	} {
		if !strings.Contains(body, line+"\n") {
			t.Errorf("scrape lacks %s", line)
		}
	}
}

// TestScrapeReadsOnlyTheLatestSample: a scrape asks the source once and
// reads nothing else; the counters are read by Update only.
func TestScrapeReadsOnlyTheLatestSample(t *testing.T) {
	cfg, in := testConfig()
	src := &fakeSource{s: fullSample()}
	e := New(src, cfg, in, nil)
	for range 3 {
		scrape(t, e)
	}
	if src.calls != 3 {
		t.Errorf("source asked %d times for 3 scrapes, want 3", src.calls)
	}
}

func scrape(t testing.TB, e *Exporter) string {
	t.Helper()
	a := Answer(e)
	if a.Status != 0 || a.ContentType != ContentType {
		t.Fatalf("status %d, content type %q: %s", a.Status, a.ContentType, a.Body)
	}
	return string(a.Body)
}

// TestPromtoolAcceptsTheOutput runs `promtool check metrics` (the linter
// of the Prometheus project) on a scrape.
func TestPromtoolAcceptsTheOutput(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		need.Missing(t, "promtool not installed (Debian package prometheus)")
		return
	}
	cfg, in := testConfig()
	e := New(withTimes(fullSample()), cfg, in, nil)
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(scrape(t, e))
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// TestRealPrometheusScrapes starts Prometheus with its own configuration
// and data directory, scraping the exporter every second, and asks its
// HTTP API for the metrics after two scrapes.
func TestRealPrometheusScrapes(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		need.Missing(t, "prometheus not installed (Debian package prometheus)")
		return
	}
	cfg, in := testConfig()
	e := New(withTimes(fullSample()), cfg, in, nil)
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, e) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()

	dir := t.TempDir()
	promPort := freePort(t)
	conf := fmt.Sprintf("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: boardbench\n    static_configs:\n      - targets: ['%s']\n", ln.Addr())
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+promPort)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus output:\n%s", logs.String())
		}
	}()

	api := "http://" + promPort + "/api/v1/"
	deadline := time.Now().Add(wait.HangGuard)
	var scrapes float64
	for time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		// Two scrapes done: the target's scrape_samples_scraped series has two points.
		v, ok := queryValue(api, `count_over_time(scrape_samples_scraped{job="boardbench"}[1m])`)
		if ok && v >= 2 {
			scrapes = v
			break
		}
	}
	if scrapes < 2 {
		t.Fatalf("hung: Prometheus did not scrape the exporter twice within %v", wait.HangGuard)
	}
	for _, q := range []struct {
		query string
		want  float64
	}{
		{`boardbench_cpu_clock_hertz{cluster="cpu0-3",core_type="Cortex-A55",soc="Rockchip RK3588"}`, 1.8e9},
		{`boardbench_temperature_celsius`, 45.5},
		{`boardbench_power_watts`, 6.25},
		{`boardbench_cpu_busy_ratio`, 0.5},
		{`boardbench_cpu_seconds_total{cpu="1",mode="user"}`, 12.5},
		{`up{job="boardbench"}`, 1},
	} {
		v, ok := queryValue(api, q.query)
		if !ok || v != q.want {
			t.Errorf("%s = %v (found %v), want %v", q.query, v, ok, q.want)
		}
	}
}

// queryValue runs an instant query and returns its single value.
func queryValue(api, query string) (float64, bool) {
	resp, err := http.Get(api + "query?query=" + url.QueryEscape(query))
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var r struct {
		Status string
		Data   struct {
			Result []struct {
				Value [2]any
			}
		}
	}
	if json.Unmarshal(body, &r) != nil || r.Status != "success" || len(r.Data.Result) != 1 {
		return 0, false
	}
	s, _ := r.Data.Result[0].Value[1].(string)
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		return 0, false
	}
	return v, true
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestIsLoopback(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
	}{{"127.0.0.1:9101", true}, {"localhost:1", true}, {"[::1]:80", true}, {"0.0.0.0:9101", false}, {":9101", false}, {"192.168.1.2:1", false}, {"junk", false}} {
		if got := IsLoopback(c.addr); got != c.want {
			t.Errorf("IsLoopback(%q) = %v, want %v", c.addr, got, c.want)
		}
	}
}

// BenchmarkScrape measures one /metrics request over a full sample.
func BenchmarkScrape(b *testing.B) {
	cfg, in := testConfig()
	e := New(withTimes(fullSample()), cfg, in, nil)
	b.ReportAllocs()
	for b.Loop() {
		_ = Answer(e)
	}
}

func newFixtureHost(t *testing.T, root string) *host.Host {
	t.Helper()
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestHugeTimeInStateBounded: a time_in_state of 250,000 lines (a damaged
// or hostile file) gives at most kernelfile.MaxTimeInStates series per
// cluster, and a metric saying how many were dropped. Before, every line
// was a series: 40 MB per scrape.
func TestHugeTimeInStateBounded(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for k := range 250_000 {
		fmt.Fprintf(&b, "%d %d\n", 100000+k, k%1000)
	}
	p := filepath.Join(root, "sys/devices/system/cpu/cpufreq/policy0/stats/time_in_state")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newFixtureHost(t, root)
	cfg, in := testConfig()
	c := NewCounters(h, cfg)
	c.Update(context.Background())
	e := New(&fakeSource{}, cfg, in, c)
	body := scrape(t, e)
	series := strings.Count(body, "\nboardbench_cpu_clock_time_seconds_total{")
	if series != kernelfile.MaxTimeInStates {
		t.Errorf("%d time_in_state series, want %d", series, kernelfile.MaxTimeInStates)
	}
	want := fmt.Sprintf(`boardbench_cpu_clock_states_dropped{board="Radxa ROCK 5B \"test\"",cluster="cpu0-3",core_type="Cortex-A55",soc="Rockchip RK3588"} %d`, 250_000-kernelfile.MaxTimeInStates)
	if !strings.Contains(body, want+"\n") {
		t.Errorf("scrape lacks %s", want)
	}
	if len(body) > 200_000 {
		t.Errorf("one scrape is %d bytes, want at most 200 kB", len(body))
	}
}
