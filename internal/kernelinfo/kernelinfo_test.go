package kernelinfo

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"maps"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"boardbench/internal/kernelfile"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/shareddata"
)

var at = time.Date(2025, time.August, 1, 0, 0, 0, 0, time.UTC)

// july2025 is kernel.org's longterm table as of July 2025, in the format of
// --kernel-table: the tests judge by it, so that refreshing the built-in
// table does not change what they expect.
const july2025 = `# kernel.org longterm series as of 2025-07-01
date 2025-07-01
mainline 6.15
longterm 6.12 2024-11-17 2026-12
longterm 6.6  2023-10-29 2026-12
longterm 6.1  2022-12-11 2027-12
longterm 5.15 2021-10-31 2026-12
longterm 5.10 2020-12-13 2026-12
longterm 5.4  2019-11-24 2025-12
longterm 4.19 2018-10-22 2024-12 4.19.325
longterm 4.14 2017-11-12 2024-01 4.14.336
longterm 4.9  2016-12-11 2023-01 4.9.337
longterm 4.4  2016-01-10 2022-02 4.4.302
`

// judge is Judge by the July 2025 table.
func judge(in Input) Info {
	tbl, err := ParseTable([]byte(july2025), "july2025")
	if err != nil {
		panic(err)
	}
	in.Table = &tbl
	return Judge(in)
}

// Release strings from the sbc-bench logs and cpuinfo file names of the
// reference data, with what boardbench must say about each.
func TestJudgeKnownReleases(t *testing.T) {
	tests := []struct {
		release    string
		kind       string
		maintained *bool
		farBehind  bool
	}{
		{"5.10.160-rockchip", KindVendor, ptr(true), true},
		{"4.9.140-tegra", KindVendor, ptr(false), true},
		{"4.4.138-rk3328", KindVendor, ptr(false), true},
		{"4.4.132-1075-rockchip-ayufan-ga83beded8524", KindVendor, ptr(false), true},
		{"6.6.20+rpt-rpi-2712", KindRaspberryPi, ptr(true), false},
		{"4.14.34-v7+", KindRaspberryPi, ptr(false), false},
		{"6.1.63-current-rockchip64", KindMainline, ptr(true), false},
		{"4.15.0-48-generic", KindDistribution, ptr(false), false},
		{"4.17.0-rc6-firefly", KindUnknown, ptr(false), false},
		{"6.1.0", KindMainline, ptr(true), false},
		{"5.16.13-sunxi64", KindUnknown, ptr(false), false},
		{"6.6.10-cix-build-generic", KindVendor, ptr(true), false},
		{"5.4.0", KindMainline, ptr(true), false},
		{"6.15.2", KindMainline, ptr(true), false},
		{"6.16.0", KindMainline, nil, false},
	}
	for _, tc := range tests {
		k := judge(Input{Release: tc.release, Now: at})
		if k.Kind != tc.kind {
			t.Errorf("%s: kind %s, want %s (%v)", tc.release, k.Kind, tc.kind, k.KindEvidence)
		}
		if (k.Maintained == nil) != (tc.maintained == nil) || k.Maintained != nil && *k.Maintained != *tc.maintained {
			t.Errorf("%s: maintained %v, want %v (%s)", tc.release, deref(k.Maintained), deref(tc.maintained), k.Status)
		}
		if k.FarBehind != tc.farBehind {
			t.Errorf("%s: far behind %v, want %v", tc.release, k.FarBehind, tc.farBehind)
		}
		if k.Status == "" {
			t.Errorf("%s: no status", tc.release)
		}
	}
}

func TestMaintenanceFollowsNow(t *testing.T) {
	later := time.Date(2026, time.March, 1, 0, 0, 0, 0, time.UTC)
	k := judge(Input{Release: "5.4.290", Now: later})
	if k.Maintained == nil || *k.Maintained || !strings.Contains(k.Status, "has passed") {
		t.Errorf("5.4 in March 2026: maintained %v, status %q", deref(k.Maintained), k.Status)
	}
}

func TestMonthsBehind(t *testing.T) {
	tests := []struct {
		release, build string
		want           int
	}{
		{"6.1.63-current-rockchip64", "#1 SMP PREEMPT Tue Nov 28 12:26:26 UTC 2023", 19},
		{"6.1.0-rpi7-rpi-v8", "#1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)", 19},
		{"4.19.100", "#1 SMP Mon Jan 6 10:00:00 CET 2020", 58},
	}
	for _, tc := range tests {
		k := judge(Input{Release: tc.release, Build: tc.build, Now: at})
		if k.MonthsBehind == nil || *k.MonthsBehind != tc.want {
			t.Errorf("%s built %q: months behind %v, want %d", tc.release, tc.build, deref(k.MonthsBehind), tc.want)
		}
	}
	if k := judge(Input{Release: "6.1.63", Build: "#1 SMP", Now: at}); k.MonthsBehind != nil {
		t.Errorf("no build date: months behind %d, want unknown", *k.MonthsBehind)
	}
}

func TestVendorConfig(t *testing.T) {
	k := judge(Input{Release: "5.10.110", Now: at, Config: kernelfile.ParseConfig([]byte("CONFIG_ARCH_ROCKCHIP=y\nCONFIG_CPU_RK3588=y\n# CONFIG_FOO is not set\n"))})
	if k.Kind != KindVendor || k.Tree != "Rockchip BSP" {
		t.Errorf("kind %s tree %s, want Rockchip BSP", k.Kind, k.Tree)
	}
}

// TestReferenceReleases judges every kernel release in the reference data:
// each gets a series and a status, and none panics.
func TestReferenceReleases(t *testing.T) {
	re := regexp.MustCompile(`(?m)^Linux ([0-9]+\.[0-9]+[^ ]*) \(`)
	seen := 0
	for _, l := range shareddata.Logs(t) {
		for _, m := range re.FindAllStringSubmatch(l.Text, 1) {
			k := judge(Input{Release: m[1], Now: at})
			if k.Series == "" || k.Status == "" || k.Kind == "" {
				t.Errorf("%s: series %q status %q kind %q", m[1], k.Series, k.Status, k.Kind)
			}
			seen++
		}
	}
	entries, err := os.ReadDir(shareddata.Dir(t, "cpuinfo"))
	if err != nil {
		t.Fatal(err)
	}
	fileRE := regexp.MustCompile(`-([0-9]+\.[0-9]+(?:\.[0-9]+)?[^.]*)\.cpuinfo$`)
	for _, e := range entries {
		if m := fileRE.FindStringSubmatch(e.Name()); m != nil {
			if k := judge(Input{Release: m[1], Now: at}); k.Series == "" || k.Status == "" {
				t.Errorf("%s: series %q status %q", m[1], k.Series, k.Status)
			}
			seen++
		}
	}
	if seen < 50 {
		t.Errorf("only %d releases found in the reference data", seen)
	}
}

func ptr(b bool) *bool { return &b }

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestDistributionMaintains: a distribution kernel is attributed to its
// distribution from its strings, and on a series kernel.org no longer
// maintains (not longterm) the status says the distribution maintains it.
// Other kinds name no distribution.
func TestDistributionMaintains(t *testing.T) {
	tests := []struct {
		release, build, procVersion string
		want                        string
	}{
		{"6.8.0-45-generic", "#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024", "", "Ubuntu"},
		{"6.1.0-18-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)", "", "Debian"},
		{"6.8.5-301.fc40.x86_64", "#1 SMP PREEMPT_DYNAMIC Thu Apr 11 20:00:10 UTC 2024", "", "Fedora"},
		{"5.14.0-427.13.1.el9_4.x86_64", "#1 SMP PREEMPT_DYNAMIC Wed Apr 10 10:29:16 EDT 2024", "", "Red Hat Enterprise Linux (or a rebuild of it)"},
		{"6.9.7-arch1-1", "#1 SMP PREEMPT_DYNAMIC Fri, 28 Jun 2024 04:32:50 +0000", "", "Arch Linux"},
		{"5.10.66-11-rockchip-geee2b32138fd", "#rockchip SMP Mon Jul 4 02:04:48 UTC 2022",
			"Linux version 5.10.66 (root@runner) (aarch64-linux-gnu-gcc (Ubuntu 9.4.0-1ubuntu1~20.04.1) 9.4.0)", ""},
	}
	for _, tc := range tests {
		k := judge(Input{Release: tc.release, Build: tc.build, ProcVersion: tc.procVersion, Now: at})
		if k.Distribution != tc.want {
			t.Errorf("%s: distribution %q, want %q (kind %s)", tc.release, k.Distribution, tc.want, k.Kind)
		}
		maintainedByDistro := strings.Contains(k.Status, "maintains this kernel itself")
		if want := tc.want != "" && !k.Longterm; maintainedByDistro != want {
			t.Errorf("%s: status %q; distribution maintenance said %v, want %v", tc.release, k.Status, maintainedByDistro, want)
		}
	}
}

// TestAgeSaysAgainstWhat: the age names what it is measured against: the
// table's date for a series maintained then, the end of life for one that
// had ended.
func TestAgeSaysAgainstWhat(t *testing.T) {
	tests := []struct {
		release, build, want string
	}{
		{"5.10.66-11-rockchip-geee2b32138fd", "#rockchip SMP Mon Jul 4 02:04:48 UTC 2022",
			"35 months behind the newest release of its series, as of the table's date (2025-07-01)"},
		{"4.4.154-rk3399", "#1 SMP Mon Jan 7 10:00:00 UTC 2019",
			"36 months behind the last release of its series (end of life February 2022)"},
		{"6.1.0", "", ""},
	}
	for _, tc := range tests {
		k := judge(Input{Release: tc.release, Build: tc.build, Now: at})
		if got := k.Age(); got != tc.want {
			t.Errorf("%s: Age() = %q, want %q", tc.release, got, tc.want)
		}
		if tc.want != "" && !strings.Contains(k.Summary(), tc.want) {
			t.Errorf("%s: summary %q lacks %q", tc.release, k.Summary(), tc.want)
		}
	}
}

// TestParseConfigGz: a compressed config is read line by line; a filter
// keeps only the symbols asked for (Collect keeps the vendor trees'
// symbols); data that is not gzip, or is cut off, is an error.
func TestParseConfigGz(t *testing.T) {
	text := "#\n# Automatically generated file\n#\nCONFIG_ARCH_ROCKCHIP=y\nCONFIG_CPU_RK3588=y\n# CONFIG_SUNXI_FOO is not set\nCONFIG_HZ=250\nCONFIG_CMDLINE=\"console=ttyS2\"\nnot a line of a config\n"
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(text))
	zw.Close()
	gz := buf.Bytes()
	tests := []struct {
		name    string
		data    []byte
		keep    func([]byte) bool
		want    map[string]string
		wantErr string
	}{
		{"all", gz, nil, map[string]string{"CONFIG_ARCH_ROCKCHIP": "y", "CONFIG_CPU_RK3588": "y", "CONFIG_SUNXI_FOO": "n", "CONFIG_HZ": "250", "CONFIG_CMDLINE": `"console=ttyS2"`}, ""},
		{"vendor symbols", gz, vendorSymbol, map[string]string{"CONFIG_CPU_RK3588": "y", "CONFIG_SUNXI_FOO": "n"}, ""},
		{"not gzip", []byte(text), nil, nil, "not gzip data"},
		{"cut off", gz[:len(gz)-12], nil, nil, "corrupt gzip data"},
	}
	for _, tt := range tests {
		got, err := kernelfile.ParseConfigGz(tt.data, tt.keep)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("%s: %v %v, want %v", tt.name, got, err, tt.want)
		}
	}
	if k := Judge(Input{Release: "5.10.110", Now: time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC), Config: func() map[string]string { m, _ := kernelfile.ParseConfigGz(gz, vendorSymbol); return m }()}); k.Kind != KindVendor || k.Tree != "Rockchip BSP" {
		t.Errorf("judged from the kept symbols: %s %s", k.Kind, k.Tree)
	}
}

// TestCollectKeepsLittleOfTheConfig: a whole distribution config (8,000
// symbols, 200 KB) costs Collect little memory, because only the symbols
// the judgement reads are kept (a map of every symbol took about 1 MB in
// `info`). Allocated bytes are counted, not timed.
func TestCollectKeepsLittleOfTheConfig(t *testing.T) {
	var text strings.Builder
	for i := range 8000 {
		fmt.Fprintf(&text, "CONFIG_SYMBOL_NUMBER_%d=y\n# CONFIG_OTHER_%d is not set\n", i, i)
	}
	text.WriteString("CONFIG_CPU_RK3588=y\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text.String()))
	zw.Close()
	h := fixture.Host(t, map[string]string{ConfigPath: gz.String(), "/proc/sys/kernel/osrelease": "5.10.110\n",
		"/proc/version": "Linux version 5.10.110 (builder@host) #1 SMP\n"})
	at := time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)
	Collect(h, at) // first use: lazily compiled expressions
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	info := Collect(h, at)
	runtime.ReadMemStats(&after)
	if info.Kind != KindVendor || info.Tree != "Rockchip BSP" {
		t.Errorf("judged %s %s, want the Rockchip BSP from its config symbol", info.Kind, info.Tree)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("Collect allocated %d KiB for a %d KiB config, want at most 256 KiB", n>>10, text.Len()>>10)
	}
}

// TestParseTable: a table file gives the table it says, newest series
// first; each malformed line is one error naming the file and the line.
func TestParseTable(t *testing.T) {
	tbl, err := ParseTable([]byte("date 2026-08-22 # facts as of\nmainline 7.2\nlongterm 5.4 2019-11-24 2025-12 5.4.302\n\nlongterm 6.18 2025-11-30 2028-12\n"), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Date != date(2026, time.August, 22) || tbl.NewestMainline != "7.2" || len(tbl.Longterm) != 2 ||
		tbl.Longterm[0].Version != "6.18" || tbl.Longterm[1].Final != "5.4.302" || tbl.Longterm[0].EOL != date(2028, time.December, 1) || tbl.Source != "t.txt" {
		t.Errorf("table %+v", tbl)
	}
	for _, tc := range []struct{ in, want string }{
		{"date 2026-13-01\n", "t.txt:1: date"},
		{"date 2026-08-22\nmainline seven\n", "t.txt:2: mainline"},
		{"date 2026-08-22\nmainline 7.2\nlongterm 6.18 2025-11-30\n", "t.txt:3: longterm takes"},
		{"date 2026-08-22\nmainline 7.2\nlongterm 6.18 2025-11-30 2028-12\nlongterm 6.18 2025-11-30 2028-12\n", "t.txt:4: series 6.18 listed twice"},
		{"date 2026-08-22\nmainline 7.2\nlongterm 6.18 2025-11-30 2024-12\n", "ends before its release"},
		{"date 2026-08-22\nmainline 7.2\nlongterm 5.4 2019-11-24 2025-12 5.10.1\n", "not of series 5.4"},
		{"date 2026-08-22\nstable 7.1\n", "t.txt:2: unknown statement"},
		{"mainline 7.2\nlongterm 6.18 2025-11-30 2028-12\n", "no date line"},
		{"date 2026-08-22\nmainline 7.2\n", "no longterm line"},
		{"", "no date line"},
		{strings.Repeat("\n", 2000), "more than 1000 lines"},
	} {
		if _, err := ParseTable([]byte(tc.in), "t.txt"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseTable(%q) = %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

// TestTableFileRefreshes: a series newer than the table has unknown
// maintenance, and the status says how old the table is and how to give
// a newer one; by a newer table it is judged.
func TestTableFileRefreshes(t *testing.T) {
	now := time.Date(2026, time.November, 26, 0, 0, 0, 0, time.UTC)
	k := judge(Input{Release: "6.18.5", Now: now})
	if k.Maintained != nil || !strings.Contains(k.Status, "--kernel-table FILE") || !strings.Contains(k.Status, "16 months old") {
		t.Errorf("6.18 by the July 2025 table: maintained %v, status %q", deref(k.Maintained), k.Status)
	}
	newer, err := ParseTable([]byte("date 2026-08-22\nmainline 7.2\nlongterm 6.18 2025-11-30 2028-12\n"), "new.txt")
	if err != nil {
		t.Fatal(err)
	}
	k = Judge(Input{Release: "6.18.5", Now: now, Table: &newer})
	if k.Maintained == nil || !*k.Maintained || !k.Longterm || k.TableSource != "new.txt" {
		t.Errorf("6.18 by the newer table: maintained %v, longterm %v, source %q, status %q", deref(k.Maintained), k.Longterm, k.TableSource, k.Status)
	}
	// The built-in table knows 6.18.
	if k := Judge(Input{Release: "6.18.5", Now: now}); k.Maintained == nil || !k.Longterm || k.TableSource != SourceBuiltin {
		t.Errorf("6.18 by the built-in table: %+v", k)
	}
}

func TestTableAge(t *testing.T) {
	tbl := Table{Date: date(2025, time.July, 1)}
	for _, tc := range []struct {
		now  time.Time
		want string
	}{
		{date(2025, time.July, 20), "less than a month old"},
		{date(2025, time.August, 1), "1 month old"},
		{date(2026, time.November, 26), "16 months old"},
		{date(2024, time.January, 1), "less than a month old"},
	} {
		if got := tbl.Age(tc.now); got != tc.want {
			t.Errorf("Age(%s) = %q, want %q", tc.now.Format("2006-01-02"), got, tc.want)
		}
	}
}

// TestBuiltinTable: the static table converts to the Series it stands for,
// and each call returns a fresh copy.
func TestBuiltinTable(t *testing.T) {
	tbl := Builtin()
	if tbl.Date != date(2026, time.August, 22) || tbl.Source != SourceBuiltin || tbl.NewestMainline != NewestMainline || len(tbl.Longterm) != len(longterm) {
		t.Fatalf("Builtin() = %+v", tbl)
	}
	for _, c := range []struct {
		series Series
	}{
		{Series{Version: "6.18", Released: date(2025, time.November, 30), EOL: date(2028, time.December, 1)}},
		{Series{Version: "5.4", Released: date(2019, time.November, 24), EOL: date(2025, time.December, 1), Final: "5.4.302"}},
		{Series{Version: "3.2", Released: date(2012, time.January, 4), EOL: date(2018, time.May, 1)}},
	} {
		got := tbl.Find(c.series.Version)
		if got == nil || *got != c.series {
			t.Errorf("Builtin().Find(%q) = %+v, want %+v", c.series.Version, got, c.series)
		}
	}
	for i := 1; i < len(tbl.Longterm); i++ {
		if compareSeries(tbl.Longterm[i-1].Version, tbl.Longterm[i].Version) <= 0 {
			t.Errorf("built-in series not newest first: %s before %s", tbl.Longterm[i-1].Version, tbl.Longterm[i].Version)
		}
	}
	tbl.Longterm[0].Version = "changed"
	if Builtin().Longterm[0].Version != "6.18" {
		t.Error("Builtin() shares its series with an earlier caller")
	}
}
