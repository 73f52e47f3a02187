package net

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"boardbench/internal/result"
)

// TestWatchHeadroomApply watches a veth while iperf3 sends through it,
// with --headroom and --apply: the load is calibrated, then the watch runs
// in two halves, before and after applying, each with the load's rate on
// every CPU and its share of the calibration; the RPS mask is restored.
func TestWatchHeadroomApply(t *testing.T) {
	needNetns(t)
	if n, _ := os.ReadFile("/sys/devices/system/cpu/online"); strings.TrimSpace(string(n)) == "0" {
		t.Skip("one CPU: nothing to spread")
	}
	l := newLab(t, "h")
	client, server := l.ns("c"), l.ns("s")
	ifc := l.prefix + "a"
	l.link(client, ifc, "10.207.0.1/24", server, l.prefix+"b", "10.207.0.2/24")
	l.iperfServer(server, "10.207.0.2")
	rps := func() string {
		return strings.TrimSpace(l.sh("ip", "netns", "exec", client, "cat", "/sys/class/net/"+ifc+"/queues/rx-0/rps_cpus"))
	}
	before := rps()
	// Traffic for longer than the command: stopped at the end of the test.
	gen := exec.Command("ip", "netns", "exec", client, "iperf3", "-c", "10.207.0.2", "-t", "600", "-b", "20M")
	if err := gen.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gen.Process.Kill(); gen.Wait() })
	l.waitTraffic(server, l.prefix+"b", 1e5)

	env := []string{"BOARDBENCH_STATE_DIR=" + t.TempDir()}
	out, stderr, code := l.boardbench(client, env, "net", "--watch", ifc, "--duration", "4s", "--headroom", "--apply", "--json")
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := decodeResult(t, out)
	if code == 3 {
		// Not valid: only a calibration disturbed by other tasks (this
		// machine is shared) may make it so; it is judged as a figure.
		for _, p := range r.Phases {
			if p.Judgement != nil && p.Judgement.Disturbed && p.Name != result.PhaseNetHeadroomIdle {
				t.Errorf("phase %s disturbed: %+v", p.Name, p.Judgement)
			}
		}
		if p, _ := phaseFigures(t, r, result.PhaseNetHeadroomIdle); p.Judgement == nil || !p.Judgement.Disturbed {
			t.Fatalf("exit 3 without a disturbed calibration: %s", stderr)
		}
	}
	var names []string
	for _, p := range r.Phases {
		names = append(names, p.Name)
	}
	want := []string{result.PhaseNetInterfacesBefore, result.PhaseNetHeadroomIdle, result.PhaseNetWatch, result.PhaseNetWatchApplied, result.PhaseNetInterfacesAfter}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("phases %v, want %v", names, want)
	}
	_, cal := phaseFigures(t, r, result.PhaseNetHeadroomIdle)
	if len(cal.Headroom) == 0 {
		t.Fatalf("no calibration: %+v", cal)
	}
	for _, name := range []string{result.PhaseNetWatch, result.PhaseNetWatchApplied} {
		_, f := phaseFigures(t, r, name)
		if len(f.Headroom) != len(cal.Headroom) {
			t.Fatalf("%s: headroom %+v, calibration %+v", name, f.Headroom, cal.Headroom)
		}
		for i, h := range f.Headroom {
			if h.UnitsPerS == nil || *h.UnitsPerS <= 0 || h.Share == nil || *h.Share <= 0 || *h.Share > 1 ||
				h.IdleUnitsPerS == nil || *h.IdleUnitsPerS != *cal.Headroom[i].UnitsPerS {
				t.Errorf("%s cpu%d: %+v", name, h.CPU, h)
			}
		}
		if len(f.Interfaces) != 1 || f.Interfaces[0].Name != ifc {
			t.Errorf("%s interfaces = %+v", name, f.Interfaces)
		}
	}
	s := r.Summary.NetSummary
	if s == nil || len(s.Headroom) == 0 || len(s.HeadroomApplied) == 0 {
		t.Errorf("summary = %+v", s)
	}
	if !strings.Contains(strings.Join(r.Tuning.Changed, "\n"), "rps_cpus") || !r.Tuning.Restored {
		t.Errorf("tuning = %+v", r.Tuning)
	}
	if got := rps(); got != before {
		t.Errorf("rps_cpus = %s after the run, want %s restored", got, before)
	}
}
