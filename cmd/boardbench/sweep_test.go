package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/need"
	testwait "boardbench/internal/testutil/wait"
)

// sweepRoot is a writable fixture root of a four-core board with three
// OPPs (600, 800, 1000 MHz) and a 7-Zip whose runs are recorded outputs
// (a fixture root replays commands instead of running them) for one to four
// threads, whatever number of CPUs the test machine lets the sweep use.
func sweepRoot(t *testing.T) string {
	var cpuinfo strings.Builder
	for c := 0; c < 4; c++ {
		fmt.Fprintf(&cpuinfo, "processor\t: %d\nBogoMIPS\t: 38.40\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd03\nCPU revision\t: 4\n\n", c)
	}
	const cpuDir = "/sys/devices/system/cpu/"
	root := fixture.Root(t, map[string]string{
		"/proc/cpuinfo":     cpuinfo.String(),
		"/proc/loadavg":     "0.01 0.02 0.00 1/80 999\n",
		"/proc/meminfo":     "MemTotal:         500000 kB\nMemAvailable:     400000 kB\n",
		cpuDir + "possible": "0-3\n", cpuDir + "present": "0-3\n", cpuDir + "online": "0-3\n",
		"/sys/class/thermal/thermal_zone0/type": "cpu-thermal\n",
		"/sys/class/thermal/thermal_zone0/temp": "45000\n",
	})
	fixture.CPUFreq(t, root, fixture.Policy{ID: 0, CPUs: []int{0, 1, 2, 3}, Attrs: map[string]string{
		"scaling_governor":              "ondemand\n",
		"scaling_available_governors":   "ondemand userspace powersave performance schedutil\n",
		"scaling_min_freq":              "600000\n",
		"scaling_max_freq":              "1000000\n",
		"scaling_cur_freq":              "1000000\n",
		"cpuinfo_min_freq":              "600000\n",
		"cpuinfo_max_freq":              "1000000\n",
		"related_cpus":                  "0 1 2 3\n",
		"affected_cpus":                 "0 1 2 3\n",
		"scaling_driver":                "cpufreq-dt\n",
		"scaling_available_frequencies": "600000 800000 1000000\n",
	}})
	out := func(mips int) string {
		return fmt.Sprintf("\n7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21\n\n"+
			"RAM size:     427 MB,  # CPU hardware threads:   4\n\n"+
			"Dict     Speed Usage    R/U Rating  |      Speed Usage    R/U Rating\n"+
			"         KiB/s     %%   MIPS   MIPS  |      KiB/s     %%   MIPS   MIPS\n\n"+
			"22:       1000   100   %[1]d   %[1]d  |      20000   100   %[1]d   %[1]d\n"+
			"----------------------------------  | ------------------------------\n"+
			"Avr:             100   %[1]d   %[1]d  |              100   %[1]d   %[1]d\n"+
			"Tot:             100   %[1]d   %[1]d\n", mips)
	}
	cmds := map[string]string{host.CommandKey("7z"): out(0)}
	for n := 1; n <= 4; n++ {
		cmds[host.CommandKey("7z", "b", fmt.Sprintf("-mmt%d", n))] = out(800 * n)
	}
	fixture.Commands(t, root, cmds)
	return root
}

// cpufreqFiles keeps the cpufreq files of a snapshot.
func cpufreqFiles(snap map[string]string) map[string]string {
	out := map[string]string{}
	for p, v := range snap {
		if strings.Contains(p, "/cpufreq/") {
			out[p] = v
		}
	}
	return out
}

// TestSweepSIGTERM sends SIGTERM to `boardbench sweep` once the first
// measurement is saved: exit 130, every cpufreq file byte-identical to
// before, no state file left, and the result interrupted with the rows
// measured so far.
func TestSweepSIGTERM(t *testing.T) {
	if os.Geteuid() != 0 {
		need.Missing(t, "sweep sets clocks only as root")
	}
	root, state, dir := sweepRoot(t), t.TempDir(), t.TempDir()
	before := cpufreqFiles(fixture.Snapshot(t, root))
	if len(before) < 10 {
		t.Fatalf("fixture has %d cpufreq files", len(before))
	}
	cmd, stdout, stderr := start(dir, "sweep", "--root", root, "--force", "--settle", "1s", "-o", "s.json")
	cmd.Env = append(os.Environ(), "BOARDBENCH_STATE_DIR="+state)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	type doc struct {
		Status  string `json:"status"`
		Summary struct {
			Sweep []struct {
				RequestedMHz *float64 `json:"requested_mhz"`
				Threads      int      `json:"threads"`
				MIPS         *float64 `json:"mips"`
			} `json:"sweep"`
		} `json:"summary"`
	}
	read := func() (doc, bool) {
		var d doc
		data, err := os.ReadFile(filepath.Join(dir, "s.json"))
		return d, err == nil && json.Unmarshal(data, &d) == nil
	}
	deadline := time.Now().Add(testwait.HangGuard)
	for {
		if d, ok := read(); ok && len(d.Summary.Sweep) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			r := wait(t, cmd, stdout, stderr)
			t.Fatalf("hung: no measurement saved within %v; status %d stderr %q", testwait.HangGuard, r.code, r.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if during := cpufreqFiles(fixture.Snapshot(t, root)); reflect.DeepEqual(during, before) {
		t.Error("no cpufreq file changed during the sweep: the clock was not pinned")
	}
	if left, _ := filepath.Glob(filepath.Join(state, "*")); len(left) == 0 {
		t.Error("no state file during the sweep")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := wait(t, cmd, stdout, stderr)
	if r.code != 130 {
		t.Errorf("exit %d after SIGTERM, want 130; stderr %q", r.code, r.stderr)
	}
	if after := cpufreqFiles(fixture.Snapshot(t, root)); !reflect.DeepEqual(after, before) {
		for p, v := range after {
			if before[p] != v {
				t.Errorf("%s = %q after SIGTERM, was %q", p, v, before[p])
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(state, "*")); len(left) != 0 {
		t.Errorf("state files left: %v", left)
	}
	d, ok := read()
	if !ok {
		t.Fatal("result file unreadable after SIGTERM")
	}
	rows := d.Summary.Sweep
	if d.Status != "interrupted" || len(rows) < 1 || len(rows) >= 6 {
		t.Fatalf("result status %q with %d rows, want interrupted with 1 to 5", d.Status, len(rows))
	}
	if rows[0].RequestedMHz == nil || *rows[0].RequestedMHz != 1000 || rows[0].Threads != 1 || rows[0].MIPS == nil || *rows[0].MIPS != 800 {
		t.Errorf("first row %+v, want 1000 MHz, 1 thread, 800 MIPS", rows[0])
	}
}

// TestReplayThatMeasuresNothing: a sweep of a board's recorded root whose
// 7-Zip cannot run there measures nothing: it ends "not measured" (exit 1,
// status failed), never "valid", and stores nothing.
func TestReplayThatMeasuresNothing(t *testing.T) {
	if os.Geteuid() != 0 {
		need.Missing(t, "sweep sets clocks only as root")
	}
	fx, err := filepath.Abs("../../testdata/boards/rpi-zero2w")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	storePath := filepath.Join(dir, "store", "results.db")
	cmd, stdout, stderr := start(dir, "--store", storePath, "sweep", "--root", fx, "--force", "--no-install", "-o", "s.json")
	cmd.Env = append(os.Environ(), "BOARDBENCH_STATE_DIR="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := wait(t, cmd, stdout, stderr)
	if r.code != 1 || !strings.Contains(r.stdout, "not measured: nothing was measured: every step was skipped") || strings.Contains(r.stdout, "verdict:    valid") {
		t.Errorf("exit %d, want 1 and the verdict 'not measured'\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(storePath); !os.IsNotExist(err) {
		t.Errorf("a replay that measured nothing was stored: %v", err)
	}
	var d struct {
		Status  string `json:"status"`
		Summary struct {
			Valid bool `json:"valid"`
		} `json:"summary"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil || json.Unmarshal(data, &d) != nil || d.Status != "failed" || d.Summary.Valid {
		t.Errorf("result file (%v): status %q valid %v", err, d.Status, d.Summary.Valid)
	}
}
