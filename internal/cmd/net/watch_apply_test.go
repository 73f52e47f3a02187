package net

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/kernelfile"
	"boardbench/internal/result"
	"boardbench/internal/testutil/wait"
)

// softirqNetRX reads the NET_RX count per CPU of /proc/softirqs.
func softirqNetRX(t *testing.T) map[int]uint64 {
	t.Helper()
	b, err := os.ReadFile("/proc/softirqs")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := kernelfile.ParseSoftirqs(b)
	if !ok {
		t.Fatal("unreadable /proc/softirqs")
	}
	out := map[int]uint64{}
	for _, c := range s.CPUs {
		out[c] = s.CountOn("NET_RX", c)
	}
	return out
}

// statSoftirqTicks reads each CPU's soft interrupt time of /proc/stat, in
// clock ticks: the kernel's own accounting, read independently of
// boardbench.
func statSoftirqTicks(t *testing.T) map[int]uint64 {
	t.Helper()
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Fatal(err)
	}
	_, per, ok := kernelfile.ParseStat(b)
	if !ok {
		t.Fatal("unreadable /proc/stat")
	}
	out := map[int]uint64{}
	for c, v := range per {
		out[c] = v.SoftIRQ
	}
	return out
}

// A router namespace forwards iperf3 traffic from a client namespace to a
// server namespace while `net --watch` runs in it.
func TestWatchRouterThreeNamespaces(t *testing.T) {
	needNetns(t)
	l := newLab(t, "w")
	client, router, server := l.ns("c"), l.ns("r"), l.ns("s")
	rIn, rOut := l.prefix+"ri", l.prefix+"ro"
	l.link(client, l.prefix+"c", "10.203.1.1/24", router, rIn, "10.203.1.2/24")
	l.link(router, rOut, "10.203.2.1/24", server, l.prefix+"s", "10.203.2.2/24")
	l.sh("ip", "netns", "exec", router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
	l.sh("ip", "-n", client, "route", "add", "default", "via", "10.203.1.2")
	l.sh("ip", "-n", server, "route", "add", "default", "via", "10.203.2.1")
	l.iperfServer(server, "10.203.2.2")

	traffic := exec.Command("ip", "netns", "exec", client, "iperf3", "-c", "10.203.2.2", "-t", "3600", "-b", "300M")
	if err := traffic.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { traffic.Process.Kill(); traffic.Wait() })
	l.waitTraffic(router, rIn, 1<<20)

	rxBefore := l.counter(router, rIn, "rx_packets")
	softBefore, ticksBefore := softirqNetRX(t), statSoftirqTicks(t)
	out, stderr, code := l.boardbench(router, nil, "net", "--watch", rIn+","+rOut, "--duration", "3s", "--json")
	softAfter, ticksAfter := softirqNetRX(t), statSoftirqTicks(t)
	rxAfter := l.counter(router, rIn, "rx_packets")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := decodeResult(t, out)
	_, f := phaseFigures(t, r, result.PhaseNetWatch)
	if r.Summary.NetSummary == nil || len(r.Summary.NetSummary.Interfaces) != 2 {
		t.Fatalf("summary interfaces = %+v", r.Summary.NetSummary)
	}
	var in *result.NetInterfaceRate
	for i := range f.Interfaces {
		if f.Interfaces[i].Name == rIn {
			in = &f.Interfaces[i]
		}
	}
	if in == nil || in.RxPPS <= 0 {
		t.Fatalf("no receive rate for %s: %+v", rIn, f.Interfaces)
	}
	// The PPS agrees with the interface counters: the window's packets
	// are the rate times the window, and at most what the counters
	// showed around the whole command (the traffic ran throughout).
	var ctr result.NetCounters
	for _, c := range f.Counters {
		if c.Interface == rIn {
			ctr = c
		}
	}
	if !within(in.RxPPS*f.Seconds, float64(ctr.RxPackets), 1) {
		t.Errorf("rx_pps %.1f over %.2fs, counters %d packets", in.RxPPS, f.Seconds, ctr.RxPackets)
	}
	// The window lies inside the command: its packets are some, and at
	// most what the interface counted around the command (read
	// independently). Rates are not compared: on a loaded machine
	// iperf3's pace and boardbench's start-up vary.
	total := rxAfter - rxBefore
	if ctr.RxPackets == 0 || ctr.RxPackets > total {
		t.Errorf("watch: %d packets, %.0f/s; the interface around the command: %d packets",
			ctr.RxPackets, in.RxPPS, total)
	}
	// Softirq load shows on the CPUs that /proc/softirqs shows handling
	// NET_RX: the busiest of them has soft interrupt time in the table
	// when the kernel accounted soft interrupt time to it. The kernel
	// samples that time at its clock tick, so on a machine busy with
	// other work a CPU can handle thousands of short soft interrupts
	// without a tick landing in one: then the table must show none
	// rather than an invented share.
	busiest, most := -1, uint64(0)
	for c, v := range softAfter {
		if d := v - softBefore[c]; d > most {
			busiest, most = c, d
		}
	}
	if busiest < 0 {
		t.Fatal("no NET_RX soft interrupt during forwarding")
	}
	i := slices.IndexFunc(f.CPULoad, func(l result.NetCPULoad) bool { return l.CPU == busiest })
	ticks := ticksAfter[busiest] - ticksBefore[busiest]
	switch {
	case i < 0:
		t.Errorf("cpu%d handled %d NET_RX soft interrupts but has no load entry: %+v", busiest, most, f.CPULoad)
	case ticks >= 3 && f.CPULoad[i].Softirq <= 0:
		t.Errorf("cpu%d handled %d NET_RX soft interrupts, /proc/stat accounted %d ticks of softirq time around the command, but its load is %+v",
			busiest, most, ticks, f.CPULoad)
	case ticks == 0 && f.CPULoad[i].Softirq > 0:
		t.Errorf("cpu%d: /proc/stat accounted no softirq time around the command, but the table shows %.1f%%", busiest, f.CPULoad[i].Softirq)
	}
	j := slices.IndexFunc(f.Softirqs, func(s result.NetSoftirq) bool { return s.CPU == busiest })
	if j < 0 || f.Softirqs[j].NetRX == 0 || f.Softirqs[j].NetRX > most {
		t.Errorf("softirqs of cpu%d = %+v, /proc/softirqs around the command %d", busiest, f.Softirqs, most)
	}
}

// --apply writes RPS masks on a veth pair during the run and restores them
// at the end, and on SIGTERM; --keep leaves them.
func TestApplyRestoresOnVeth(t *testing.T) {
	needNetns(t)
	if n, _ := os.ReadFile("/sys/devices/system/cpu/online"); strings.TrimSpace(string(n)) == "0" {
		t.Skip("one CPU: nothing to spread")
	}
	l := newLab(t, "a")
	client, server := l.ns("c"), l.ns("s")
	ifc := l.prefix + "a"
	l.link(client, ifc, "10.204.0.1/24", server, l.prefix+"b", "10.204.0.2/24")
	l.iperfServer(server, "10.204.0.2")
	rps := func() string {
		return strings.TrimSpace(l.sh("ip", "netns", "exec", client, "cat", "/sys/class/net/"+ifc+"/queues/rx-0/rps_cpus"))
	}
	before := rps()
	stateDir := t.TempDir()
	env := []string{"BOARDBENCH_STATE_DIR=" + stateDir}

	out, stderr, code := l.boardbench(client, env, "net", "--peer", "10.204.0.2", "--duration", "1s", "--apply", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := decodeResult(t, out)
	applied := strings.Join(r.Tuning.Changed, "\n")
	if !strings.Contains(applied, "/queues/rx-0/rps_cpus") || strings.Contains(applied, "failed") {
		t.Fatalf("applied = %q", applied)
	}
	if !r.Tuning.Restored {
		t.Errorf("tuning = %+v", r.Tuning)
	}
	// Standard error tells what was changed, then that it was restored.
	if !strings.Contains(stderr, "--apply changes for the run:\n  echo ") || !strings.Contains(stderr, "/queues/rx-0/rps_cpus\n") ||
		!strings.Contains(stderr, "boardbench net: restored the ") {
		t.Errorf("standard error does not tell the changes and their restoring:\n%s", stderr)
	}
	// The mask during the run is in the description after the steps.
	var after result.NetInterfaceFigures
	for _, p := range r.Phases {
		if p.Name == result.PhaseNetInterfacesAfter {
			_ = jsonUnmarshal(p.Figures, &after)
		}
	}
	if len(after.Interfaces) != 1 || len(after.Interfaces[0].Queues) == 0 || after.Interfaces[0].Queues[0].CPUs == before {
		t.Errorf("rps_cpus during the run: %+v (before %s)", after.Interfaces, before)
	}
	if got := rps(); got != before {
		t.Errorf("rps_cpus = %s after the run, want %s restored", got, before)
	}
	if left, _ := os.ReadDir(stateDir); len(left) != 0 {
		t.Errorf("state files left: %v", left)
	}

	// SIGTERM during a step: restored, exit 130.
	cmd := exec.Command("ip", "netns", "exec", client, boardbenchBinary(t), "net", "--peer", "10.204.0.2", "--duration", "20s", "--apply")
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	deadline := time.Now().Add(wait.HangGuard)
	for rps() == before && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if rps() == before {
		t.Fatal("the mask was never applied")
	}
	time.Sleep(500 * time.Millisecond)
	// ip netns exec runs boardbench in place (exec), so the pid is
	// boardbench's.
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("after SIGTERM: %v, want exit 130", err)
	}
	if got := rps(); got != before {
		t.Errorf("rps_cpus = %s after SIGTERM, want %s", got, before)
	}

	// --keep leaves the change.
	_, stderr, code = l.boardbench(client, env, "net", "--peer", "10.204.0.2", "--duration", "1s", "--apply", "--keep")
	if code != 0 {
		t.Fatalf("--keep: exit %d: %s", code, stderr)
	}
	if got := rps(); got == before {
		t.Errorf("--keep: rps_cpus back to %s", got)
	}
	// --keep prints the commands that undo it; they work.
	undo := "echo " + before + " > /sys/class/net/" + ifc + "/queues/rx-0/rps_cpus"
	if !strings.Contains(stderr, "to undo them, as root:\n") || !strings.Contains(stderr, "  "+undo+"\n") {
		t.Fatalf("--keep: standard error lacks %q:\n%s", undo, stderr)
	}
	l.sh("ip", "netns", "exec", client, "sh", "-c", undo)
	if got := rps(); got != before {
		t.Errorf("the undo command left rps_cpus at %s, want %s", got, before)
	}
}
