package mem

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"boardbench/internal/benchrun"
	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/iostreams"
	"boardbench/internal/memmeasure"
	"boardbench/internal/probe/membw"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

func execute(t *testing.T, args ...string) (stdout, stderr *bytes.Buffer, err error) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	cmd := NewCmd(f, nil)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	// As the root command does: the error is the caller's to print.
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err = cmd.Execute()
	return out, errOut, err
}

// TestNewCmdOptions: the flags reach the run function as Options, without
// measuring anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args []string
		want Options
	}{
		{nil, Options{Root: "/", Load: 5 * time.Minute}},
		{[]string{"--quick", "--cpu", "0,4", "--max-size", "32M", "-o", "m.json", "--json"},
			Options{Root: "/", Quick: true, CPUList: "0,4", MaxSize: "32M", Output: "m.json", JSON: true, Load: 5 * time.Minute}},
		{[]string{"--throttle-test", "--load", "15m"}, Options{Root: "/", ThrottleTest: true, Load: 15 * time.Minute, LoadSet: true}},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		o := *got
		o.Factory, o.Ctx = nil, nil
		if o != tt.want {
			t.Errorf("%q: options %+v, want %+v", tt.args, o, tt.want)
		}
	}
}

func TestFixtureRootRefused(t *testing.T) {
	_, _, err := execute(t, "--root", t.TempDir())
	if !errors.Is(err, errNotLive) {
		t.Fatalf("err = %v, want the not-live error", err)
	}
	if cmdutil.ExitCode(err) != 2 || strings.Contains(err.Error(), "\n") {
		t.Errorf("want one line and exit status 2, got %q (%d)", err, cmdutil.ExitCode(err))
	}
}

func TestInterrupted(t *testing.T) {
	ios, _, _ := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
	cmd.SetArgs([]string{"--quick", "--cpu", "0", "--max-size", "1M"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := cmd.ExecuteContext(ctx)
	if cmdutil.ExitCode(err) != 130 {
		t.Fatalf("err = %v (exit %d), want an interruption", err, cmdutil.ExitCode(err))
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--load", "1m"}, {"--throttle-test", "--load", "0s"}, {"--throttle-test", "--load", "-5s"}, {"--throttle-test", "--cpu", "0"},
		{"--cpu", "x"}, {"--cpu", "3-1"}, {"--max-size", "lots"}, {"--max-size", "4K"}, {"--cpu", "100000"}, {"--cpu", "99"}, {"--cpu", "0,,1"},
	} {
		_, _, err := execute(t, args...)
		var ue *cmdutil.UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
}

func TestParseCPUList(t *testing.T) {
	tests := map[string][]int{"0": {0}, "0,4-5": {0, 4, 5}, "6, 2-3,2": {2, 3, 6}}
	for in, want := range tests {
		got, err := cpu.ParseSelection(in, []int{0, 1, 2, 3, 4, 5, 6, 7})
		if err != nil || len(got) != len(want) {
			t.Errorf("%q: %v %v", in, got, err)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%q: %v, want %v", in, got, want)
			}
		}
	}
	for _, bad := range []string{"", ",", "a", "-1", "5-2", "0-99999"} {
		if _, err := cpu.ParseSelection(bad, []int{0, 1, 2, 3, 4, 5, 6, 7}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := cpu.FormatCPUList([]int{0, 1, 2, 3, 6, 8, 9}); got != "0-3,6,8-9" {
		t.Errorf("FormatCPUList = %q", got)
	}
}

func TestParseSize(t *testing.T) {
	tests := map[string]int64{"64M": 64 << 20, "64MiB": 64 << 20, "1G": 1 << 30, "512k": 512 << 10, "4096": 4096, "32MB": 32 << 20}
	for in, want := range tests {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%q: %d %v, want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "M", "-1M", "x", "0"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func f64(v float64) *float64 { return &v }

// TestSameCPUsAsRun shows that `mem` and the memory phase of `run` pick
// the same CPUs on every board fixture: one per core type, with clusters of
// one core at different maximum clocks kept apart.
func TestSameCPUsAsRun(t *testing.T) {
	const boards = "../../../testdata/boards"
	entries, err := os.ReadDir(boards)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		board := e.Name()
		if !e.IsDir() || strings.HasPrefix(board, "_") {
			continue
		}
		t.Run(board, func(t *testing.T) {
			h := fixture.Open(t, filepath.Join(boards, board))
			info := cpu.Collect(h)
			var usable []int
			for _, c := range info.CPUs {
				usable = append(usable, c.ID)
			}
			if len(usable) == 0 {
				return // a board tree of buses only: no CPU to choose
			}
			memCPUs := memmeasure.CPUs(info, usable)
			var runCPUs []int
			for _, tg := range benchrun.Targets(info, usable) {
				runCPUs = append(runCPUs, tg.Candidates[0])
				if len(info.Clusters) == 0 {
					break
				}
			}
			if !slices.Equal(memCPUs, runCPUs) {
				t.Errorf("mem measures cpu%v, run's memory phase cpu%v", memCPUs, runCPUs)
			}
			if len(memCPUs) == 0 {
				t.Error("no CPU chosen")
			}
		})
	}
}

func sampleReport() Report {
	lvl := 1
	sz := int64(64 << 10)
	r := result.MemFigures{CPU: 4, Core: "Cortex-A76", BufferBytes: 32 << 20, LineBytes: 64, CacheLevelsFrom: "ns_hugepage",
		SysfsCaches: []result.SysfsCache{{Level: 1, Type: "Data", SizeBytes: 64 << 10}, {Level: 3, Type: "Unified", SizeBytes: 3 << 20}},
		CacheLevels: []result.CacheLevel{{DetectedBytes: 64 << 10, LatencyNS: 1.75, SysfsLevel: &lvl, SysfsBytes: &sz}},
		Latency: []result.LatencyRow{
			{SizeBytes: 1024, NS: f64(1.75), NSDual: f64(1.76), NSHugePage: f64(1.74), NSDualHugePage: f64(1.75)},
			{SizeBytes: 64 << 20, NS: f64(124.8), NSDual: f64(126.1)},
		},
		Notes:           []string{"memcpy (C library): built without the C library"},
		BandwidthDetail: result.BandwidthDetail{Samples: map[string]result.BandwidthSamples{"read_mb_s": {MBs: []float64{7342, 7340, 7345}}}},
	}
	r.ReadMBs, r.ReadStdDevPct = f64(7342), f64(0.05)
	r.WriteMBs, r.WriteStdDevPct = f64(12613.1), f64(2.5)
	return Report{SchemaVersion: "1.0", Results: []result.MemFigures{r}}
}

func TestRenderText(t *testing.T) {
	var b bytes.Buffer
	render(&b, sampleReport(), false)
	out := b.String()
	for _, want := range []string{
		"Memory from cpu4 (Cortex-A76)", "32 MiB buffers",
		"memcpy (C library)", "n/a", "7342.0 MB/s", "12613.1 MB/s   ±2.5%", "How to compare", "the median of the samples", "absolute ns per access",
		"copy (Go runtime)", "1.8 ns", "125 ns", "single huge",
		"64 KiB", "L1 64 KiB", "L3 3 MiB",
		"cpu4 memcpy (C library): built without the C library",
		"Memory clock during the measurement: unknown (no memory-controller clock sampled)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "±0.1%") || strings.Contains(out, "±0.0%") {
		t.Errorf("stddev at or below 0.1%% shown:\n%s", out)
	}
}

// TestRenderMemClock: the memory clock of each measurement is printed
// after its bandwidth table.
func TestRenderMemClock(t *testing.T) {
	rep := sampleReport()
	rep.MemClock = []*result.MemClock{{Device: "dmc", MedianMHz: 2112, MinMHz: 528, MaxMHz: 2112, Samples: 9}}
	var b bytes.Buffer
	render(&b, rep, false)
	out := b.String()
	want := "Memory clock during the measurement: 2112 MHz (dmc, 528–2112 MHz over 9 samples)"
	if i, j := strings.Index(out, "7342.0 MB/s"), strings.Index(out, want); j < 0 || j < i {
		t.Errorf("text lacks %q after the bandwidth:\n%s", want, out)
	}
}

func TestJSONFields(t *testing.T) {
	data, err := json.Marshal(sampleReport())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	r := doc["results"].([]any)[0].(map[string]any)
	if v, ok := r["memcpy_mb_s"]; !ok || v != nil {
		t.Errorf("memcpy_mb_s = %v (present %v), want null", v, ok)
	}
	if r["read_mb_s"] != 7342.0 || r["write_stddev_pct"] != 2.5 || r["cpu"] != 4.0 {
		t.Errorf("figures: %v %v %v", r["read_mb_s"], r["write_stddev_pct"], r["cpu"])
	}
	for _, key := range []string{"memset_mb_s", "copy_go_mb_s", "nt_write_mb_s", "latency", "cache_levels", "samples", "sysfs_caches"} {
		if _, ok := r[key]; !ok {
			t.Errorf("results[0] lacks %q", key)
		}
	}
	lat := r["latency"].([]any)[1].(map[string]any)
	if _, ok := lat["ns_hugepage"]; !ok || lat["ns_hugepage"] != nil {
		t.Errorf("latency entry without huge pages: %v", lat)
	}
	if _, ok := doc["total"]; !ok {
		t.Error("total key missing (null when not measured)")
	}
}

func TestLiveQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the machine for a few seconds")
	}
	out, _, runErr := execute(t, "--quick", "--json", "--max-size", "4M", "--cpu", "0")
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v (mem: %v)", err, runErr)
	}
	// The exit status follows the verdict (3: not valid, on a busy machine).
	if want := map[bool]int{true: 0, false: 3}[rep.Valid]; cmdutil.ExitCode(runErr) != want || rep.Verdict == "" {
		t.Errorf("mem: %v (exit %d), want %d for verdict %q", runErr, cmdutil.ExitCode(runErr), want, rep.Verdict)
	}
	if len(rep.Results) != 1 || rep.Results[0].CPU != 0 || rep.Results[0].BufferBytes != 4<<20 {
		t.Fatalf("results %+v", rep.Results)
	}
	r := rep.Results[0]
	if r.ReadMBs == nil || !(*r.ReadMBs > 0) || len(r.Latency) != 13 {
		t.Errorf("read %v, %d latency points (want 13: 1 KiB..4 MiB)", r.ReadMBs, len(r.Latency))
	}
	if (r.MemcpyMBs == nil) != (membw.Memcpy.Unavailable() != "") {
		t.Errorf("memcpy figure %v does not match the C library's availability", r.MemcpyMBs)
	}
}

// TestLiveThrottleQuick runs the throttling test for real with a one-second
// load: the three phases are measured and reported; no figure is compared
// with a speed.
func TestLiveThrottleQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the machine for a few seconds")
	}
	out, _, runErr := execute(t, "--throttle-test", "--load", "1s", "--quick", "--json", "--max-size", "4M")
	var rep ThrottleReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v (mem: %v)", err, runErr)
	}
	if want := map[bool]int{true: 0, false: 3}[rep.Valid]; cmdutil.ExitCode(runErr) != want || rep.Verdict == "" {
		t.Errorf("mem: %v (exit %d), want %d for verdict %q", runErr, cmdutil.ExitCode(runErr), want, rep.Verdict)
	}
	if rep.Before == nil || rep.After == nil || rep.Load == nil {
		t.Fatalf("report %+v", rep)
	}
	if rep.Before.ReadMBs == nil || !(*rep.Before.ReadMBs > 0) || len(rep.Changes) == 0 {
		t.Errorf("before %+v, changes %+v", rep.Before, rep.Changes)
	}
	if rep.Load.RequestedS != 1 || len(rep.Load.Series) == 0 || rep.Load.DurationS < 1 {
		t.Errorf("load %+v", rep.Load)
	}
}

func TestRenderThrottle(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	rep := ThrottleReport{}
	rep.Changes = []result.MemKernelChange{{Kernel: "memcpy", BeforeMBs: 10005, AfterMBs: 8505, ChangePct: -15, BeforeSpreadPct: 0.12, AfterSpreadPct: 0.1, Separated: true}}
	rep.Load = &result.MemLoadFigures{CPUs: []int{0, 1, 2, 3}, Kernel: "memcpy", RequestedS: 300, DurationS: 300.4, FirstMBs: v(9800), LastMBs: v(8600)}
	rep.MemClockBefore = &result.MemClock{Device: "dmc", MedianMHz: 2112, MinMHz: 2112, MaxMHz: 2112, Samples: 3}
	var b bytes.Buffer
	renderThrottle(&b, rep, false)
	for _, want := range []string{"memcpy", "10005.0", "8505.0", "-15.0%", "0.12%",
		"load: memcpy on 4 CPUs for 5m0s of 5m0s; 9800.0 MB/s in its first fifth, 8600.0 MB/s in its last",
		"memory clock before: 2112 MHz", "memory clock under load: unknown"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}
