package mem

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/iostreams"
	"boardbench/internal/note"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/stats"
	"boardbench/internal/testutil/fixture"
)

func execute(t *testing.T, args ...string) (stdout, stderr *bytes.Buffer, err error) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	cmd := NewCmd(f)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	err = cmd.Execute()
	return out, errOut, err
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
	cmd := NewCmd(cmdutil.NewFactory(ios))
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
		{"--cpu", "x"}, {"--cpu", "3-1"}, {"--max-size", "lots"}, {"--max-size", "4K"}, {"--cpu", "100000"},
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
		got, err := cpu.ParseCPUSelection(in)
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
		if _, err := cpu.ParseCPUSelection(bad); err == nil {
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

func TestChooseTargets(t *testing.T) {
	rk3588 := cpu.Info{Clusters: []cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", MaxMHz: f64(1800)},
		{ID: 1, CPUs: []int{4, 5}, Core: "Cortex-A76", MaxMHz: f64(2256)},
		{ID: 2, CPUs: []int{6, 7}, Core: "Cortex-A76", MaxMHz: f64(2304)},
	}}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	tests := []struct {
		name     string
		info     cpu.Info
		usable   []int
		explicit []int
		want     []target
	}{
		{"one per core type, fastest cluster", rk3588, all, nil, []target{{0, "Cortex-A55"}, {6, "Cortex-A76"}}},
		{"unusable CPUs skipped", rk3588, []int{1, 4, 5}, nil, []target{{1, "Cortex-A55"}, {4, "Cortex-A76"}}},
		{"explicit list", rk3588, all, []int{5, 2}, []target{{5, "Cortex-A76"}, {2, "Cortex-A55"}}},
		{"no clusters", cpu.Info{}, []int{2, 3}, nil, []target{{2, ""}}},
	}
	for _, tt := range tests {
		got := chooseTargets(tt.info, tt.usable, tt.explicit)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
			}
		}
	}
}

func TestMakePlan(t *testing.T) {
	const M = memlat.MiB
	tests := []struct {
		name      string
		m         machine
		quick     bool
		limit     int64
		latMax    int64
		huge      bool
		noteParts []string
	}{
		{"512 MB board", machine{memAvailableBytes: 350 * M, thpMode: "madvise"}, false, 0, 64 * M, true, nil},
		{"big machine", machine{memAvailableBytes: 8 << 30, thpMode: "always"}, false, 0, 256 * M, true, nil},
		{"quick", machine{memAvailableBytes: 8 << 30, thpMode: "madvise"}, true, 0, 64 * M, true, nil},
		{"256 MB board, THP off", machine{memAvailableBytes: 180 * M, thpMode: "never"}, false, 0, 32 * M, false,
			[]string{"available memory", "disabled (never)"}},
		{"limit", machine{memAvailableBytes: 8 << 30}, false, 48 * M, 32 * M, false, []string{"--max-size", "not exposed"}},
		{"unknown memory", machine{thpMode: "madvise"}, false, 0, 64 * M, true, []string{"MemAvailable unknown"}},
		{"64K-page kernel", machine{memAvailableBytes: 8 << 30, thpMode: "madvise", hugePageBytes: 512 * M}, false, 0, 256 * M, false, []string{"too large"}},
	}
	for _, tt := range tests {
		p, notes := makePlan(tt.m, tt.quick, tt.limit, nil)
		if p.lat.MaxBytes != tt.latMax || p.lat.HugePages != tt.huge {
			t.Errorf("%s: latency max %d MiB huge %v, want %d MiB %v", tt.name, p.lat.MaxBytes>>20, p.lat.HugePages, tt.latMax>>20, tt.huge)
		}
		all := joinNotes(notes)
		for _, part := range tt.noteParts {
			if !strings.Contains(all, part) {
				t.Errorf("%s: notes %q lack %q", tt.name, all, part)
			}
		}
		if len(tt.noteParts) == 0 && len(notes) > 0 {
			t.Errorf("%s: unexpected notes %q", tt.name, all)
		}
	}
}

func joinNotes(l note.List) string {
	var parts []string
	for _, n := range l {
		parts = append(parts, n.Item+": "+n.Reason)
	}
	return strings.Join(parts, "; ")
}

func TestMachineParsing(t *testing.T) {
	meminfo := []byte("MemTotal:  1000 kB\nMemAvailable:    512 kB\nAnonHugePages:  2048 kB\nHugepagesize: 2048 kB\n")
	if v, ok := memory.MeminfoField(meminfo, "MemAvailable"); !ok || v != 512*1024 {
		t.Errorf("MemAvailable = %d %v", v, ok)
	}
	if _, ok := memory.MeminfoField(meminfo, "MemFree"); ok {
		t.Error("missing field found")
	}
	if _, ok := memory.MeminfoField([]byte("MemAvailable: lots kB\n"), "MemAvailable"); ok {
		t.Error("malformed field accepted")
	}
	for in, want := range map[string]string{"always [madvise] never": "madvise", "[never]": "never", "always madvise": "", "": ""} {
		if got := selectedMode(in); got != want {
			t.Errorf("selectedMode(%q) = %q, want %q", in, got, want)
		}
	}
	h := fixture.Host(t, nil)
	m, notes := readMachine(h)
	if m.memAvailableBytes != 0 || m.thpMode != "" || len(notes) == 0 {
		t.Errorf("empty root: %+v notes %v", m, notes)
	}
}

func sampleReport() Report {
	lvl := 1
	sz := int64(64 << 10)
	r := CPUResult{CPU: 4, Core: "Cortex-A76", BufferBytes: 32 << 20, LineBytes: 64, CacheLevelsFrom: "ns_hugepage",
		SysfsCaches: []memlat.SysfsCache{{Level: 1, Type: "Data", SizeBytes: 64 << 10}, {Level: 3, Type: "Unified", SizeBytes: 3 << 20}},
		CacheLevels: []memlat.CacheLevel{{DetectedBytes: 64 << 10, LatencyNS: 1.75, SysfsLevel: &lvl, SysfsBytes: &sz}},
		Latency: []memlat.Point{
			{SizeBytes: 1024, NS: f64(1.75), NSDual: f64(1.76), NSHugePage: f64(1.74), NSDualHugePage: f64(1.75)},
			{SizeBytes: 64 << 20, NS: f64(124.8), NSDual: f64(126.1)},
		}}
	var notes note.List
	figs := []membw.Figure{
		{Kernel: membw.Memcpy, Note: "built without the C library"},
		{Kernel: membw.Read, MBs: f64(7342), Summary: stats.Summary{N: 3, RelStdDevPct: 0.05}},
		{Kernel: membw.Write, MBs: f64(12613.1), Summary: stats.Summary{N: 3, RelStdDevPct: 2.5}},
	}
	r.Bandwidth.fill(figs, "cpu4", &notes)
	return Report{SchemaVersion: "1.0", Results: []CPUResult{r}, Notes: notes}
}

func TestRenderText(t *testing.T) {
	var b bytes.Buffer
	render(&b, sampleReport(), false)
	out := b.String()
	for _, want := range []string{
		"Memory from cpu4 (Cortex-A76)", "32 MiB buffers",
		"memcpy (C library)", "n/a", "7342.0 MB/s", "12613.1 MB/s  (2.5%)",
		"copy (Go runtime)", "1.8 ns", "125 ns", "single huge",
		"64 KiB", "L1 64 KiB", "L3 3 MiB",
		"cpu4 memcpy (C library): built without the C library",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(0.1%)") || strings.Contains(out, "(0.0%)") {
		t.Errorf("stddev at or below 0.1%% shown:\n%s", out)
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
	out, _, err := execute(t, "--quick", "--json", "--max-size", "4M", "--cpu", "0")
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
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
