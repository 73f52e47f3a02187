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
		k := Judge(Input{Release: tc.release, Now: at})
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
	k := Judge(Input{Release: "5.4.290", Now: later})
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
		k := Judge(Input{Release: tc.release, Build: tc.build, Now: at})
		if k.MonthsBehind == nil || *k.MonthsBehind != tc.want {
			t.Errorf("%s built %q: months behind %v, want %d", tc.release, tc.build, deref(k.MonthsBehind), tc.want)
		}
	}
	if k := Judge(Input{Release: "6.1.63", Build: "#1 SMP", Now: at}); k.MonthsBehind != nil {
		t.Errorf("no build date: months behind %d, want unknown", *k.MonthsBehind)
	}
}

func TestVendorConfig(t *testing.T) {
	k := Judge(Input{Release: "5.10.110", Now: at, Config: kernelfile.ParseConfig([]byte("CONFIG_ARCH_ROCKCHIP=y\nCONFIG_CPU_RK3588=y\n# CONFIG_FOO is not set\n"))})
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
			k := Judge(Input{Release: m[1], Now: at})
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
			if k := Judge(Input{Release: m[1], Now: at}); k.Series == "" || k.Status == "" {
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
		k := Judge(Input{Release: tc.release, Build: tc.build, ProcVersion: tc.procVersion, Now: at})
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
			"35 months behind the newest release of its series, as of the table's date (" + TableDate.Format("2006-01-02") + ")"},
		{"4.4.154-rk3399", "#1 SMP Mon Jan 7 10:00:00 UTC 2019",
			"36 months behind the last release of its series (end of life February 2022)"},
		{"6.1.0", "", ""},
	}
	for _, tc := range tests {
		k := Judge(Input{Release: tc.release, Build: tc.build, Now: at})
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
