package mdrow

import (
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

func f64(v float64) *float64 { return &v }

func clusters(max ...float64) []cpu.Cluster {
	var out []cpu.Cluster
	for i, m := range max {
		c := cpu.Cluster{ID: i, CPUs: []int{2 * i, 2*i + 1}}
		if m > 0 {
			c.MaxMHz = f64(m)
		}
		out = append(out, c)
	}
	return out
}

func infoWith(cl []cpu.Cluster) *inventory.Info {
	in := &inventory.Info{}
	in.CPU.Clusters = cl
	return in
}

func TestClockspeed(t *testing.T) {
	cases := []struct {
		name      string
		in        *inventory.Info
		measured  []result.Value
		throttled bool
		want      string
	}{
		{"big.LITTLE within 2%", infoWith(clusters(1800, 2400, 2400)), []result.Value{{CPU: 0, Value: 1830}, {CPU: 2, Value: 2380}, {CPU: 4, Value: 2370}}, false, "2400/1800 MHz"},
		{"one cluster", infoWith(clusters(1800)), []result.Value{{CPU: 0, Value: 1799}}, false, "1800 MHz"},
		{"throttled", infoWith(clusters(1800)), []result.Value{{CPU: 0, Value: 1799}}, true, "1800 MHz (throttled)"},
		// 2290/2400 = 95.4%: the measured clock replaces the maxima
		{"measured far below", infoWith(clusters(1800, 2400)), []result.Value{{CPU: 0, Value: 1790}, {CPU: 2, Value: 2291.4}}, false, "~2290"},
		{"measured far above", infoWith(clusters(1800)), []result.Value{{CPU: 0, Value: 1893}}, true, "~1890 (throttled)"},
		// 2350/2400 = 97.9% truncates to 97: outside the tolerance
		{"just outside", infoWith(clusters(2400)), []result.Value{{CPU: 0, Value: 2350.4}}, false, "~2350"},
		{"fastest cluster unmeasured", infoWith(clusters(1800, 2400)), []result.Value{{CPU: 0, Value: 1500}}, false, "2400/1800 MHz"},
		{"no cpufreq, measured", infoWith(clusters(0)), []result.Value{{CPU: 0, Value: 2980}}, false, "~2980 MHz"},
		{"no cpufreq, measured rounds up", infoWith(clusters(0)), []result.Value{{CPU: 0, Value: 2981.2}}, false, "~2990 MHz"},
		{"no cpufreq, nothing measured", infoWith(clusters(0)), nil, false, "no cpufreq support"},
		{"no machine description", nil, nil, false, "-"},
		{"fractional maxima are truncated", infoWith(clusters(2553.6, 1804.8)), []result.Value{{CPU: 2, Value: 1800}, {CPU: 0, Value: 2550}}, false, "2553/1804 MHz"},
	}
	for _, c := range cases {
		if got := Clockspeed(c.in, c.measured, c.throttled); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestKernel(t *testing.T) {
	cases := map[string]string{
		"6.1.0-rpi7-rpi-v8":      "6.1",
		"5.10.160-legacy-rk35xx": "5.10",
		"6.14-rc6-0-qcom-x1e":    "6.14-rc6-0-qcom-x1e",
		"4.9":                    "4.9",
		"":                       "-",
	}
	for rel, want := range cases {
		in := &inventory.Info{}
		in.OS.Kernel.Release = rel
		if got := Kernel(in); got != want {
			t.Errorf("%q: got %q, want %q", rel, got, want)
		}
	}
}

func TestDistro(t *testing.T) {
	type osCase struct {
		pretty, id   string
		like         []string
		codename     string
		machine, usr string
		want         string
	}
	cases := []osCase{
		{"Debian GNU/Linux 12 (bookworm)", "debian", nil, "bookworm", "aarch64", "arm64", "Debian GNU/Linux 12 (bookworm) arm64"},
		{"Ubuntu 20.04.6 LTS", "ubuntu", []string{"debian"}, "focal", "aarch64", "arm64", "Ubuntu 20.04.6 LTS (focal) arm64"},
		{"Pop!_OS 22.04 LTS", "pop", []string{"ubuntu", "debian"}, "jammy", "x86_64", "amd64", "Pop!_OS 22.04 LTS (jammy) x86_64/amd64"},
		{"Raspbian GNU/Linux 11 (bullseye)", "raspbian", []string{"debian"}, "bullseye", "aarch64", "armhf", "Raspbian GNU/Linux 11 (bullseye) arm64/armhf"},
		{"Raspbian GNU/Linux 11 (bullseye)", "raspbian", []string{"debian"}, "bullseye", "armv7l", "armhf", "Raspbian GNU/Linux 11 (bullseye) armhf"},
		{"Raspbian GNU/Linux 11 (bullseye)", "raspbian", []string{"debian"}, "bullseye", "armv6l", "armhf", "Raspbian GNU/Linux 11 (bullseye) armv6l/armhf"},
		{"", "", nil, "", "aarch64", "arm64", "arm64"},
		{"Arch Linux ARM", "archarm", nil, "", "aarch64", "", "Arch Linux ARM arm64"},
		{"", "", nil, "", "", "", "-"},
	}
	for _, c := range cases {
		in := &inventory.Info{}
		in.OS.Distro.PrettyName, in.OS.Distro.ID, in.OS.Distro.IDLike, in.OS.Distro.Codename = c.pretty, c.id, c.like, c.codename
		in.OS.Kernel.Machine, in.OS.Userland.Arch = c.machine, c.usr
		if got := Distro(in); got != c.want {
			t.Errorf("%+v: got %q, want %q", c, got, c.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	if got := SevenZipMulti([]float64{15931, 15930, 15983}, nil); got != "15950" {
		t.Errorf("multi: got %s, want 15950 (mean 15948)", got)
	}
	if got := SevenZipMulti(nil, f64(16324)); got != "16320" {
		t.Errorf("multi from mean: got %s", got)
	}
	if got := SevenZipMulti(nil, nil); got != "-" {
		t.Errorf("multi unknown: got %s", got)
	}
	vs := []result.Value{{CPU: 0, Value: 1284074.15}, {CPU: 4, Value: 1276843.35}, {CPU: 6, Value: 847364.1}}
	if got := maxCell(vs, truncatedTens); got != "1284070" {
		t.Errorf("AES: got %s", got)
	}
	// memcpy rounds the value itself: 13625.9 → 13630 (and 13624.9 → 13620)
	if got := maxCell([]result.Value{{Value: 13583.6}, {Value: 13625.9}}, tens); got != "13630" {
		t.Errorf("memcpy: got %s", got)
	}
	if got := maxCell([]result.Value{{Value: 13624.9}}, tens); got != "13620" {
		t.Errorf("memcpy: got %s", got)
	}
	if got := maxCell([]result.Value{{Value: 1605}, {Value: 2989}, {Value: 2981}}, asInteger); got != "2989" {
		t.Errorf("7-zip single: got %s", got)
	}
	if got := maxCell(nil, tens); got != "-" {
		t.Errorf("empty: got %s", got)
	}
}

// TestRow checks a whole row of an RK3588 board with three clusters.
func TestRow(t *testing.T) {
	in := infoWith([]cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1, 2, 3}, MaxMHz: f64(1800)},
		{ID: 1, CPUs: []int{4, 5}, MaxMHz: f64(2400)},
		{ID: 2, CPUs: []int{6, 7}, MaxMHz: f64(2400)},
	})
	in.Board.Model = "Radxa ROCK 5B"
	in.OS.Distro.PrettyName, in.OS.Distro.ID, in.OS.Distro.Codename = "Ubuntu 22.04.3 LTS", "ubuntu", "jammy"
	in.OS.Kernel.Release, in.OS.Kernel.Machine, in.OS.Userland.Arch = "5.10.160-legacy-rk35xx", "aarch64", "arm64"
	r := &result.Result{Info: in, Status: result.StatusComplete}
	r.Summary = result.Summary{
		ClockMHz:           []result.Value{{CPU: 0, Value: 1830}, {CPU: 4, Value: 2380}, {CPU: 6, Value: 2370}},
		SevenZipMultiMIPS:  f64(16320),
		SevenZipMultiRuns:  []float64{16310, 16330, 16320},
		SevenZipSingleMIPS: []result.Value{{CPU: 0, Value: 1605}, {CPU: 4, Value: 3140}},
		AES256At16K:        []result.Value{{CPU: 0, Value: 847364.1}, {CPU: 4, Value: 1321910.4}},
		MemcpyMBs:          []result.Value{{CPU: 0, Value: 6730.4}, {CPU: 4, Value: 11290.2}},
		MemsetMBs:          []result.Value{{CPU: 0, Value: 22001.1}, {CPU: 4, Value: 29430.3}},
	}
	want := "| Radxa ROCK 5B | 2400/1800 MHz | 5.10 | Ubuntu 22.04.3 LTS (jammy) arm64 | 16320 | 3140 | 1321910 | 11290 | 29430 | - |"
	if got := Row(r); got != want {
		t.Errorf("row:\n got %s\nwant %s", got, want)
	}

	r.Findings = []finding.Finding{{ID: ThrottlingFindingID, Severity: finding.Warning}}
	r.Summary.AES256At16K = nil
	in.Board.Model = "Odd | Board"
	want = "| Odd / Board | 2400/1800 MHz (throttled) | 5.10 | Ubuntu 22.04.3 LTS (jammy) arm64 | 16320 | 3140 | - | 11290 | 29430 | - |"
	if got := Row(r); got != want {
		t.Errorf("row:\n got %s\nwant %s", got, want)
	}
}

func TestRowOfNothing(t *testing.T) {
	want := "| - | - | - | - | - | - | - | - | - | - |"
	if got := Row(nil); got != want {
		t.Errorf("nil result: got %s", got)
	}
	if got := Row(&result.Result{}); got != want {
		t.Errorf("empty result: got %s", got)
	}
}

func TestSingleCPUMachineUsesSingleScore(t *testing.T) {
	in := infoWith(clusters(1000))
	in.CPU.CPUs = []cpu.CPU{{ID: 0}}
	r := &result.Result{Info: in}
	r.Summary.SevenZipSingleMIPS = []result.Value{{CPU: 0, Value: 478}}
	if got := Compute(r).SevenZipMult; got != "480" {
		t.Errorf("got %s, want 480", got)
	}
}

func TestHeadlineRunsSkipDisturbed(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name string
		s    result.Summary
		want string
	}{
		{"all runs", result.Summary{SevenZipMultiRuns: []float64{7692, 10432, 10206}, SevenZipMultiMIPS: f(9443), SevenZipMultiBasis: result.BasisAllRuns}, "9440"},
		{"undisturbed runs", result.Summary{SevenZipMultiRuns: []float64{7692, 10432, 10206}, SevenZipMultiMIPS: f(9443),
			SevenZipMultiDisturbedRuns: []int{1}, SevenZipMultiMIPSUndisturbed: f(10319), SevenZipMultiBasis: result.BasisUndisturbedRuns}, "10320"},
	}
	for _, tt := range tests {
		if got := SevenZipMulti(headlineRuns(tt.s), tt.s.SevenZipMultiHeadline()); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}
