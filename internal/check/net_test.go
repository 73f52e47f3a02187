package check

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory/netif"
	"boardbench/internal/inventory/network"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

// netRoot lays a testdata/net overlay over a fixture board.
func netRoot(t *testing.T, board, overlay string) *host.Host {
	t.Helper()
	root := t.TempDir()
	netDir := filepath.Join(filepath.Dir(fixture.BoardPath(t, board)), "..", "net", overlay)
	for _, src := range []string{fixture.BoardPath(t, board), netDir} {
		if out, err := exec.Command("cp", "-a", src+"/.", root).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v\n%s", src, err, out)
		}
	}
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// netStep is a recorded step: the load per CPU as (usr, sys, irq,
// softirq) and the interface's interrupts.
func netStep(t *testing.T, name string, load [][4]float64, ints []result.NetInterrupt) result.Phase {
	t.Helper()
	f := result.NetFigures{Interrupts: ints}
	for cpu, l := range load {
		f.CPULoad = append(f.CPULoad, result.NetCPULoad{CPU: cpu, Usr: l[0], Sys: l[1], IRQ: l[2], Softirq: l[3]})
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return result.Phase{Name: name, Status: result.PhaseOK, Figures: b}
}

func findingByID(fs []finding.Finding, id string) *finding.Finding {
	for i := range fs {
		if fs[i].ID == id {
			return &fs[i]
		}
	}
	return nil
}

func netIDs(fs []finding.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

// The CM4 router seed: every eth0 interrupt on CPU0, which is saturated
// (outbound 932 Mbit/s, CPU0 100 %, the others 0) while three CPUs idle.
func TestNetCM4AllInterruptsOnCPU0(t *testing.T) {
	h := netRoot(t, "rpi4b", "cm4-all-irqs-cpu0")
	d := netif.Describe(h, "eth0", nil)
	if got := []string{d.IRQs[0].IRQ, d.IRQs[1].IRQ}; len(d.IRQs) != 2 || !slices.Equal(got, []string{"39", "40"}) {
		t.Fatalf("eth0 interrupts = %+v", d.IRQs)
	}
	if d.IRQs[0].Affinity != "0-3" || d.IRQs[0].Effective != "0" || d.Driver == "" {
		t.Errorf("eth0 = driver %q, irq %+v", d.Driver, d.IRQs[0])
	}
	facts := NetFacts{Interfaces: []netif.Details{d}, CPUs: []int{0, 1, 2, 3},
		Clusters: []NetCluster{{CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A72"}}}
	phases := []result.Phase{
		netStep(t, result.PhaseNetTCPForward, [][4]float64{{0, 4, 21, 75}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},
			[]result.NetInterrupt{{IRQ: "39", Name: "eth0", CPU: 0, Count: 80500}, {IRQ: "40", Name: "eth0", CPU: 0, Count: 41000}}),
		netStep(t, result.PhaseNetTCPReverse, [][4]float64{{1, 4, 10, 40}, {0, 0, 0, 0}, {0, 1, 0, 1}, {0, 0, 0, 0}}, nil),
	}
	fs := NetFindings(facts, phases)
	f := findingByID(fs, IDNetOneCPU)
	if f == nil {
		t.Fatalf("no %s finding in %v", IDNetOneCPU, netIDs(fs))
	}
	if !strings.Contains(f.Title, "cpu0") || !slices.Equal(f.Phases, []string{result.PhaseNetTCPForward, result.PhaseNetTCPReverse}) {
		t.Errorf("finding = %+v", f)
	}
	for _, cmd := range []string{
		"echo 2 > /proc/irq/39/smp_affinity",
		"echo 4 > /proc/irq/40/smp_affinity",
		"echo 9 > /sys/class/net/eth0/queues/rx-0/rps_cpus",
		"echo 9 > /sys/class/net/eth0/queues/rx-4/rps_cpus",
	} {
		if !strings.Contains(f.Advice, cmd) {
			t.Errorf("advice lacks %q:\n%s", cmd, f.Advice)
		}
	}
	if !strings.Contains(strings.Join(f.Evidence, "\n"), "irq 39 (eth0) on cpu0: 80500") {
		t.Errorf("evidence = %q", f.Evidence)
	}

	balanced := []result.Phase{netStep(t, result.PhaseNetTCPBidir, [][4]float64{{5, 10, 10, 30}, {5, 10, 5, 35}, {5, 10, 0, 30}, {5, 5, 0, 20}}, nil)}
	if fs := NetFindings(facts, balanced); findingByID(fs, IDNetOneCPU) != nil {
		t.Errorf("balanced load flagged: %+v", fs)
	}
}

// The Zero 2 W seed: an RTL8153 USB NIC on the USB 2 port, CPU0 at 55-60%
// receiving 338 Mbit/s.
func TestNetZero2WUSBNIC(t *testing.T) {
	h := netRoot(t, "rpi-zero2w", "zero2w-usb-nic")
	d := netif.Describe(h, "eth0", nil)
	if d.Bus != "USB" || d.USB == nil || d.USB.SpeedMbps == nil || *d.USB.SpeedMbps != 480 {
		t.Fatalf("eth0 bus %q usb %+v", d.Bus, d.USB)
	}
	if len(d.IRQs) != 1 || d.IRQs[0].IRQ != "56" || !strings.Contains(d.IRQs[0].Name, "dwc_otg_hcd:usb1") {
		t.Errorf("eth0 interrupts = %+v, want the USB controller's 56", d.IRQs)
	}
	facts := NetFacts{Interfaces: []netif.Details{d}, CPUs: []int{0, 1, 2, 3},
		Clusters: []NetCluster{{CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A53"}}}
	phases := []result.Phase{netStep(t, result.PhaseNetTCPReverse, [][4]float64{{3, 6, 12, 37}, {1, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}}, nil)}
	fs := NetFindings(facts, phases)
	for _, id := range []string{IDNetUSB2, IDNetOneCPU} {
		if findingByID(fs, id) == nil {
			t.Errorf("no %s finding in %v", id, netIDs(fs))
		}
	}
	if f := findingByID(fs, IDNetOneCPU); f != nil && !strings.Contains(f.Advice, "echo 2 > /proc/irq/56/smp_affinity") {
		t.Errorf("advice = %s", f.Advice)
	}
}

func TestNetInterfaceRules(t *testing.T) {
	speed100 := int64(100)
	tests := []struct {
		name string
		d    netif.Details
		want []string
	}{
		{"coalescing off", netif.Details{Coalesce: &netif.Coalesce{RxUsecs: 0, RxFrames: 1}}, []string{IDNetCoalescingOff}},
		{"adaptive coalescing", netif.Details{Coalesce: &netif.Coalesce{AdaptiveRx: true}}, nil},
		{"link below common mode", netif.Details{Link: &netif.Link{SpeedMbps: &speed100, Duplex: "full",
			Advertised: []string{"100baseT/Full", "1000baseT/Full"}, PeerAdvertised: []string{"1000baseT/Full", "100baseT/Full"}}}, []string{IDNetLinkBelow}},
		{"peer only 100", netif.Details{Link: &netif.Link{SpeedMbps: &speed100, Duplex: "full",
			Advertised: []string{"100baseT/Full", "1000baseT/Full"}, PeerAdvertised: []string{"100baseT/Full"}}}, nil},
		{"half duplex", netif.Details{Link: &netif.Link{SpeedMbps: &speed100, Duplex: "half"}}, []string{IDNetHalfDuplex}},
		{"EEE active", netif.Details{EEE: &netif.EEE{Supported: true, Enabled: true, Active: true}}, []string{IDNetEEE}},
		{"EEE enabled not active", netif.Details{EEE: &netif.EEE{Supported: true, Enabled: true}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.d.Name = "eth0"
			got := netIDs(netInterfaceRules(tt.d))
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings %v, want %v", got, tt.want)
			}
		})
	}
	c := netInterfaceRules(netif.Details{Interface: ifaceNamed("eth0"), Coalesce: &netif.Coalesce{RxFrames: 1}})
	if len(c) != 1 || !strings.Contains(c[0].Advice, "ethtool -C eth0 rx-usecs 50 rx-frames 32") {
		t.Errorf("coalescing advice = %+v", c)
	}
}

func TestNetGovernorAndPreferredCluster(t *testing.T) {
	big, little := 2400.0, 1800.0
	facts := NetFacts{CPUs: []int{0, 1, 2, 3, 4, 5},
		Clusters:  []NetCluster{{CPUs: []int{4, 5}, Core: "Cortex-A76", MaxMHz: &big}, {CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", MaxMHz: &little}},
		Governors: map[int]string{0: "powersave", 1: "powersave", 4: "schedutil"},
		Interfaces: []netif.Details{{Interface: ifaceNamed("eth0"), IRQs: []netif.IRQ{{IRQ: "90"}},
			Queues: []netif.Queue{{Name: "rx-0"}, {Name: "tx-0"}}}}}
	phases := []result.Phase{netStep(t, result.PhaseNetTCPReverse, [][4]float64{{0, 2, 20, 70}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}, nil)}
	fs := NetFindings(facts, phases)
	g := findingByID(fs, IDNetGovernorLow)
	if g == nil || !strings.Contains(g.Title, "cpu 0 ") {
		t.Errorf("governor finding = %+v", g)
	}
	plan := SpreadCommands(facts)
	want := []string{"echo 20 > /proc/irq/90/smp_affinity", "echo 10 > /sys/class/net/eth0/queues/rx-0/rps_cpus"}
	if !slices.Equal(plan, want) {
		t.Errorf("plan = %q, want %q (the big cluster, cpu 4-5)", plan, want)
	}
}

func ifaceNamed(name string) (i network.Interface) {
	i.Name = name
	return i
}

// TestNetGovernorFromSamples judges the clock in the monitor samples of
// recorded traffic steps on a big.LITTLE board (cpu0-3 up to 1800 MHz,
// cpu4-5 up to 2400 MHz).
func TestNetGovernorFromSamples(t *testing.T) {
	big, little := 2400.0, 1800.0
	samples := func(n int, littleMHz, bigMHz float64) []result.Sample {
		var out []result.Sample
		for range n {
			out = append(out, result.Sample{ClockMHz: []*float64{&littleMHz, &bigMHz}})
		}
		return out
	}
	// cpu0 handles the interrupts (softirq 70%), the others idle.
	onCPU0 := [][4]float64{{0, 2, 20, 70}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}
	onCPU4 := [][4]float64{{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 5, 10, 40}, {0, 0, 0, 0}}
	quiet := [][4]float64{{5, 2, 1, 3}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}}
	tests := []struct {
		name     string
		governor string
		load     [][4]float64
		samples  []result.Sample
		want     bool
		evidence string
	}{
		{"ondemand holds the interrupt CPU's cluster at 600 of 1800 MHz", "ondemand", onCPU0, samples(8, 600, 2400), true,
			"cluster cpu0-3 (cpu 0 in interrupt context during net-tcp-rx): median clock 600 MHz, 33% of its 1800 MHz maximum, in 8 samples; governor ondemand"},
		{"schedutil at full clock: quiet", "schedutil", onCPU0, samples(8, 1800, 600), false, ""},
		{"the big cluster is low but handles no interrupt: quiet", "schedutil", onCPU0, samples(8, 1700, 600), false, ""},
		{"the big cluster handles them and stays low", "schedutil", onCPU4, samples(5, 1800, 1200), true, "cluster cpu4-5 (cpu 4 in interrupt context"},
		{"clock at 70% of the maximum: quiet", "ondemand", onCPU0, samples(8, 1260, 2400), false, ""},
		{"too few samples, governor not powersave: quiet", "ondemand", onCPU0, samples(2, 600, 600), false, ""},
		{"too few samples, powersave: named from the governor", "powersave", onCPU0, samples(2, 600, 600), true, "too few clock samples"},
		{"powersave but the samples show a high clock: quiet", "powersave", onCPU0, samples(8, 1800, 2400), false, ""},
		{"no CPU in interrupt context: quiet", "ondemand", quiet, samples(8, 600, 600), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := NetFacts{CPUs: []int{0, 1, 2, 3, 4, 5},
				Clusters:  []NetCluster{{CPUs: []int{4, 5}, Core: "Cortex-A76", MaxMHz: &big}, {CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", MaxMHz: &little}},
				Governors: map[int]string{0: tt.governor, 1: tt.governor, 2: tt.governor, 3: tt.governor, 4: tt.governor, 5: tt.governor},
				Policies:  []result.Policy{{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}}, {Label: "cpu4-5", ID: 4, CPUs: []int{4, 5}}}}
			p := netStep(t, result.PhaseNetTCPReverse, tt.load, nil)
			p.Samples = tt.samples
			g := findingByID(NetFindings(facts, []result.Phase{p}), IDNetGovernorLow)
			if (g != nil) != tt.want {
				t.Fatalf("net-governor-low fired: %v, want %v (%+v)", g != nil, tt.want, g)
			}
			if g == nil {
				return
			}
			if ev := strings.Join(g.Evidence, "\n"); !strings.Contains(ev, tt.evidence) {
				t.Errorf("evidence %q lacks %q", ev, tt.evidence)
			}
			if !strings.Contains(g.Title, tt.governor) {
				t.Errorf("title %q does not name the governor %s", g.Title, tt.governor)
			}
		})
	}
}
