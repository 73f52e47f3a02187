package net

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"boardbench/internal/result"
	"boardbench/internal/testutil/need"
	"boardbench/internal/testutil/wait"
)

// These tests build network namespaces joined by veth pairs, run iperf3
// and boardbench inside them, and remove everything at the end, also when
// a test fails. They need root, ip (iproute2) and iperf3.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// boardbenchBinary builds the boardbench command once for the package's
// tests.
func boardbenchBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bb-net-test-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "boardbench")
		out, err := exec.Command("go", "build", "-o", binPath, "boardbench/cmd/boardbench").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// needNetns skips (fails in CI) unless namespaces can be made here.
func needNetns(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		need.Missing(t, "network namespaces need root")
	}
	for _, tool := range []string{"ip", "iperf3", "ss"} {
		if _, err := exec.LookPath(tool); err != nil {
			need.Missing(t, "%s not installed (Debian: iproute2, iperf3)", tool)
		}
	}
}

// lab is a set of namespaces made for one test.
type lab struct {
	t      *testing.T
	prefix string
}

// newLab returns a lab whose namespace and interface names start with a
// prefix unique to this process and test.
func newLab(t *testing.T, tag string) *lab {
	return &lab{t: t, prefix: fmt.Sprintf("bb%s%d", tag, os.Getpid()%100000)}
}

// sh runs a command and fails the test on error.
func (l *lab) sh(args ...string) string {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait.HangGuard)
	defer cancel()
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	if err != nil {
		l.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// ns creates a namespace with lo up, removed at the end of the test.
func (l *lab) ns(name string) string {
	l.t.Helper()
	full := l.prefix + name
	exec.Command("ip", "netns", "del", full).Run() // a leftover of a killed run
	l.sh("ip", "netns", "add", full)
	l.t.Cleanup(func() { exec.Command("ip", "netns", "del", full).Run() })
	l.sh("ip", "-n", full, "link", "set", "lo", "up")
	return full
}

// link joins two namespaces with a veth pair and addresses.
func (l *lab) link(nsA, ifA, addrA, nsB, ifB, addrB string) {
	l.t.Helper()
	l.sh("ip", "link", "add", ifA, "netns", nsA, "type", "veth", "peer", "name", ifB, "netns", nsB)
	l.sh("ip", "-n", nsA, "addr", "add", addrA, "dev", ifA)
	l.sh("ip", "-n", nsB, "addr", "add", addrB, "dev", ifB)
	l.sh("ip", "-n", nsA, "link", "set", ifA, "up")
	l.sh("ip", "-n", nsB, "link", "set", ifB, "up")
}

// iperfServer starts `iperf3 -s` in a namespace, stopped at the end.
func (l *lab) iperfServer(ns, addr string) {
	l.t.Helper()
	cmd := exec.Command("ip", "netns", "exec", ns, "iperf3", "-s", "-B", addr)
	if err := cmd.Start(); err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(wait.HangGuard)
	for time.Now().Before(deadline) {
		out, _ := exec.Command("ip", "netns", "exec", ns, "ss", "-Hltn", "sport", "=", ":5201").Output()
		if strings.Contains(string(out), "5201") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	l.t.Fatal("iperf3 -s did not start listening")
}

// counter reads one interface counter inside a namespace.
func (l *lab) counter(ns, ifname, name string) uint64 {
	l.t.Helper()
	v, err := strconv.ParseUint(strings.TrimSpace(l.sh("ip", "netns", "exec", ns, "cat", "/sys/class/net/"+ifname+"/statistics/"+name)), 10, 64)
	if err != nil {
		l.t.Fatal(err)
	}
	return v
}

// waitTraffic waits until ifname in ns has received more than n bytes
// since the call: the traffic flows. Only a hang guard of minutes limits
// the wait, so a slow start never fails the test.
func (l *lab) waitTraffic(ns, ifname string, n uint64) {
	l.t.Helper()
	base := l.counter(ns, ifname, "rx_bytes")
	wait.Until(l.t, "traffic reaching "+ifname, func() bool { return l.counter(ns, ifname, "rx_bytes")-base > n })
}

// boardbench runs the command in a namespace and returns stdout, stderr
// and the exit status.
func (l *lab) boardbench(ns string, env []string, args ...string) (string, string, int) {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// --no-store: the tests never write to the developer's results store.
	cmd := exec.CommandContext(ctx, "ip", append(append([]string{"netns", "exec", ns, boardbenchBinary(l.t)}, args...), "--no-store")...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		l.t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

func decodeResult(t *testing.T, out string) *result.Result {
	t.Helper()
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("result JSON: %v\n%s", err, out)
	}
	return &r
}

func phaseFigures(t *testing.T, r *result.Result, name string) (result.Phase, result.NetFigures) {
	t.Helper()
	for _, p := range r.Phases {
		if p.Name == name {
			var f result.NetFigures
			if err := json.Unmarshal(p.Figures, &f); err != nil {
				t.Fatalf("%s figures: %v", name, err)
			}
			return p, f
		}
	}
	t.Fatalf("no phase %s", name)
	return result.Phase{}, result.NetFigures{}
}

// iperfSum reads one sum of iperf3's raw JSON independently of package
// iperf3.
func iperfSum(t *testing.T, raw, key string) (bps float64, bytes uint64) {
	t.Helper()
	var d struct {
		End map[string]json.RawMessage `json:"end"`
	}
	var s struct {
		BitsPerSecond float64 `json:"bits_per_second"`
		Bytes         uint64  `json:"bytes"`
	}
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		t.Fatalf("raw iperf3 JSON: %v", err)
	}
	if err := json.Unmarshal(d.End[key], &s); err != nil {
		t.Fatalf("raw iperf3 JSON end.%s: %v", key, err)
	}
	return s.BitsPerSecond, s.Bytes
}

func within(got, want, tolPct float64) bool {
	return got >= want*(1-tolPct/100) && got <= want*(1+tolPct/100)
}

func TestPeerTwoNamespaces(t *testing.T) {
	needNetns(t)
	l := newLab(t, "p")
	client, server := l.ns("c"), l.ns("s")
	ifc, ifs := l.prefix+"a", l.prefix+"b"
	l.link(client, ifc, "10.201.0.1/24", server, ifs, "10.201.0.2/24")
	l.iperfServer(server, "10.201.0.2")

	txBefore, rxBefore := l.counter(client, ifc, "tx_packets"), l.counter(client, ifc, "rx_packets")
	out, stderr, code := l.boardbench(client, nil, "net", "--peer", "10.201.0.2", "--duration", "2s", "--json", "--no-install")
	txAfter, rxAfter := l.counter(client, ifc, "tx_packets"), l.counter(client, ifc, "rx_packets")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := decodeResult(t, out)
	s := r.Summary.NetSummary
	if s == nil || s.TCPTxMbitS == nil || s.TCPRxMbitS == nil || s.TCPBidirTxMbitS == nil || s.TCPBidirRxMbitS == nil || s.SmallPacketsPPS == nil {
		t.Fatalf("summary = %+v", s)
	}
	// Each figure is what iperf3's receiver counted.
	checks := []struct {
		phase, key string
		got        func(result.NetFigures) *float64
	}{
		{result.PhaseNetTCPForward, "sum_received", func(f result.NetFigures) *float64 { return f.TxMbitS }},
		{result.PhaseNetTCPReverse, "sum_received", func(f result.NetFigures) *float64 { return f.RxMbitS }},
		{result.PhaseNetTCPBidir, "sum_received", func(f result.NetFigures) *float64 { return f.TxMbitS }},
		{result.PhaseNetTCPBidir, "sum_received_bidir_reverse", func(f result.NetFigures) *float64 { return f.RxMbitS }},
	}
	var phaseTx, phaseRx uint64
	for _, c := range checks {
		p, f := phaseFigures(t, r, c.phase)
		bps, payload := iperfSum(t, p.RawOutput, c.key)
		if g := c.got(f); g == nil || !within(*g, bps/1e6, 0.01) {
			t.Errorf("%s %s: figure %v, iperf3 JSON %.1f Mbit/s", c.phase, c.key, g, bps/1e6)
		}
		if len(f.Counters) != 1 || f.Counters[0].Interface != ifc {
			t.Fatalf("%s counters = %+v", c.phase, f.Counters)
		}
		// The interface carried at least the payload iperf3 counted, plus
		// headers (well under 15% with a 1500-byte MTU).
		ctr := f.Counters[0]
		wire := ctr.TxBytes
		if c.key == "sum_received_bidir_reverse" || c.phase == result.PhaseNetTCPReverse {
			wire = ctr.RxBytes
		}
		if float64(wire) < float64(payload) || float64(wire) > float64(payload)*1.15+1e6 {
			t.Errorf("%s: interface counted %d bytes for %d bytes of payload", c.phase, wire, payload)
		}
		if len(f.CPULoad) == 0 || len(f.Softirqs) == 0 {
			t.Errorf("%s: no per-CPU load or softirqs", c.phase)
		}
	}
	for _, name := range []string{result.PhaseNetTCPForward, result.PhaseNetTCPReverse, result.PhaseNetTCPBidir, result.PhaseNetSmallPackets} {
		_, f := phaseFigures(t, r, name)
		ctr := f.Counters[0]
		phaseTx += ctr.TxPackets
		phaseRx += ctr.RxPackets
		if f.TxPPS == nil || !within(*f.TxPPS*f.Seconds, float64(ctr.TxPackets), 1) {
			t.Errorf("%s: tx_pps %v over %.2fs does not match %d packets", name, f.TxPPS, f.Seconds, ctr.TxPackets)
		}
	}
	// The interface as the ethtool interface names it.
	for _, p := range r.Phases {
		if p.Name == result.PhaseNetInterfacesBefore {
			var d result.NetInterfaceFigures
			if err := json.Unmarshal(p.Figures, &d); err != nil || len(d.Interfaces) != 1 {
				t.Fatalf("interfaces before: %v %s", err, p.Figures)
			}
			if i := d.Interfaces[0]; i.Driver != "veth" || i.Bus != "virtual" || i.DriverInfo == nil {
				t.Errorf("driver %q bus %q info %+v, want veth, virtual", i.Driver, i.Bus, i.DriverInfo)
			}
		}
	}
	// veth hands the counters merged segments: the small-packet step says
	// so.
	if _, f := phaseFigures(t, r, result.PhaseNetSmallPackets); f.MSS != 88 || (f.MergedSegments != s.SmallPacketsMerged) {
		t.Errorf("small packets: mss %d merged %v, summary merged %v", f.MSS, f.MergedSegments, s.SmallPacketsMerged)
	}
	if *s.SmallPacketsPPS <= 0 {
		t.Errorf("small packets PPS = %v", *s.SmallPacketsPPS)
	}
	// The steps' windows hold nearly all the packets the interface
	// carried during the whole command.
	if total := txAfter - txBefore; phaseTx > total || float64(phaseTx) < 0.9*float64(total) {
		t.Errorf("steps counted %d tx packets, the interface %d", phaseTx, total)
	}
	if total := rxAfter - rxBefore; phaseRx > total || float64(phaseRx) < 0.9*float64(total) {
		t.Errorf("steps counted %d rx packets, the interface %d", phaseRx, total)
	}
}

func TestPeerErrors(t *testing.T) {
	needNetns(t)
	l := newLab(t, "e")
	client, server := l.ns("c"), l.ns("s")
	ifc, ifs := l.prefix+"a", l.prefix+"b"
	l.link(client, ifc, "10.202.0.1/24", server, ifs, "10.202.0.2/24")
	// An interface without carrier: its veth peer is down.
	l.sh("ip", "-n", client, "link", "add", l.prefix+"x", "type", "veth", "peer", "name", l.prefix+"y")
	l.sh("ip", "-n", client, "link", "set", l.prefix+"x", "up")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no server", []string{"--peer", "10.202.0.2", "--duration", "1s"}, 1, "refused the connection"},
		{"missing interface", []string{"--peer", "10.202.0.2", "--interface", "nope0"}, 1, "no such interface"},
		{"no carrier", []string{"--peer", "10.202.0.2", "--interface", l.prefix + "x"}, 1, "no carrier"},
		{"no mode", []string{}, 2, "give --peer"},
		{"keep without apply", []string{"--peer", "10.202.0.2", "--keep"}, 2, "--keep goes with --apply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := l.boardbench(client, nil, append([]string{"net", "--no-install"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d with %q", code, stderr, tt.code, tt.want)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if last := lines[len(lines)-1]; !strings.Contains(last, tt.want) {
				t.Errorf("the last line %q does not say %q", last, tt.want)
			}
		})
	}
}

// A peer that cannot be used is one line on standard error, no table, a
// non-zero exit, and a result file whose other steps are skipped with the
// cause.
func TestPeerUnusableOneLine(t *testing.T) {
	needNetns(t)
	l := newLab(t, "u")
	client, server := l.ns("c"), l.ns("s")
	l.link(client, l.prefix+"a", "10.205.0.1/24", server, l.prefix+"b", "10.205.0.2/24")
	check := func(t *testing.T, want string, args ...string) {
		file := filepath.Join(t.TempDir(), "net.json")
		stdout, stderr, code := l.boardbench(client, nil, append([]string{"net", "--no-install", "--peer", "10.205.0.2", "--duration", "1s", "-o", file}, args...)...)
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		if stdout != "" {
			t.Errorf("standard output is not empty:\n%s", stdout)
		}
		var lines []string
		for _, ln := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if !strings.Contains(ln, "result written to") {
				lines = append(lines, ln)
			}
		}
		if len(lines) != 1 || !strings.Contains(lines[0], want) || len(lines[0]) > 100 {
			t.Errorf("standard error %q: want one line of at most 100 columns saying %q", stderr, want)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r := decodeResult(t, string(b))
		for _, name := range []string{result.PhaseNetTCPReverse, result.PhaseNetTCPBidir, result.PhaseNetSmallPackets} {
			i := slices.IndexFunc(r.Phases, func(p result.Phase) bool { return p.Name == name })
			if i < 0 {
				t.Fatalf("no phase %s", name)
			}
			if p := r.Phases[i]; p.Status != result.PhaseSkipped || !strings.Contains(p.Reason, want) {
				t.Errorf("%s: %s %q, want skipped saying %q", name, p.Status, p.Reason, want)
			}
		}
	}
	t.Run("refused", func(t *testing.T) { check(t, "refused the connection") })
	t.Run("busy", func(t *testing.T) {
		l.iperfServer(server, "10.205.0.2")
		// Another client holds the server for the whole run.
		other := exec.Command("ip", "netns", "exec", client, "iperf3", "-c", "10.205.0.2", "-t", "3600", "-b", "1M")
		if err := other.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Process.Kill(); other.Wait() })
		l.waitTraffic(server, l.prefix+"b", 16<<10) // the other test runs
		check(t, "is busy with another client's test")
	})
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// TestPeerBidirRateUDP runs `net --bidir -b 50M --udp-rate 20M` against a
// real iperf3 server: only the tests both ways at once run, TCP limited
// to 50 Mbit/s per stream, and UDP both ways reports loss and jitter each
// way, as iperf3's own JSON says.
func TestPeerBidirRateUDP(t *testing.T) {
	needNetns(t)
	l := newLab(t, "u")
	client, server := l.ns("c"), l.ns("s")
	ifc, ifs := l.prefix+"a", l.prefix+"b"
	l.link(client, ifc, "10.206.0.1/24", server, ifs, "10.206.0.2/24")
	l.iperfServer(server, "10.206.0.2")
	out, stderr, code := l.boardbench(client, nil, "net", "--peer", "10.206.0.2", "--duration", "2s", "--bidir", "-b", "50M",
		"--udp-rate", "20M", "--json", "--no-install")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r := decodeResult(t, out)
	var names []string
	for _, p := range r.Phases {
		names = append(names, p.Name)
	}
	want := []string{result.PhaseNetInterfacesBefore, result.PhaseNetTCPBidir, result.PhaseNetUDPBidir, result.PhaseNetInterfacesAfter}
	if !slices.Equal(names, want) {
		t.Fatalf("phases %v, want %v", names, want)
	}
	p, f := phaseFigures(t, r, result.PhaseNetTCPBidir)
	if !strings.Contains(p.Title, "at most 50M bit/s per stream") || f.BitrateLimit != 50e6 {
		t.Errorf("TCP both ways: title %q, limit %d", p.Title, f.BitrateLimit)
	}
	// The limit holds each way (iperf3 paces the sender; 10% for the
	// last interval's burst).
	for _, key := range []string{"sum_received", "sum_received_bidir_reverse"} {
		bps, _ := iperfSum(t, p.RawOutput, key)
		if bps <= 0 || bps > 55e6 {
			t.Errorf("TCP both ways %s: %.1f Mbit/s with -b 50M", key, bps/1e6)
		}
	}
	if f.TxMbitS == nil || f.RxMbitS == nil {
		t.Fatalf("TCP both ways: %+v", f)
	}
	p, f = phaseFigures(t, r, result.PhaseNetUDPBidir)
	type udpSum struct {
		JitterMs    float64 `json:"jitter_ms"`
		LostPercent float64 `json:"lost_percent"`
	}
	var doc struct {
		End struct {
			Fwd  udpSum `json:"sum_received"`
			Back udpSum `json:"sum_received_bidir_reverse"`
		} `json:"end"`
	}
	if err := json.Unmarshal([]byte(p.RawOutput), &doc); err != nil {
		t.Fatal(err)
	}
	fwd, back := doc.End.Fwd, doc.End.Back
	if f.JitterMs == nil || f.RxJitterMs == nil || f.LostPercent == nil || f.RxLostPercent == nil {
		t.Fatalf("UDP both ways: jitter %v/%v loss %v/%v", f.JitterMs, f.RxJitterMs, f.LostPercent, f.RxLostPercent)
	}
	if *f.JitterMs != fwd.JitterMs || *f.RxJitterMs != back.JitterMs || *f.LostPercent != fwd.LostPercent || *f.RxLostPercent != back.LostPercent {
		t.Errorf("UDP both ways: figures %v/%v %v/%v, iperf3 %+v %+v", *f.JitterMs, *f.RxJitterMs, *f.LostPercent, *f.RxLostPercent, fwd, back)
	}
	if f.TxMbitS == nil || f.RxMbitS == nil || *f.TxMbitS > 22 || *f.RxMbitS > 22 || f.BitrateLimit != 20e6 {
		t.Errorf("UDP both ways at 20M: %v/%v Mbit/s, limit %d", f.TxMbitS, f.RxMbitS, f.BitrateLimit)
	}
	// The line rate: computed from the veth's speed when it reports one,
	// else a note says why not.
	if lr := f.LineRate; lr != nil {
		if lr.TxShare == nil || f.TxPPS == nil || !within(*lr.TxShare**lr.TxMaxPPS, *f.TxPPS, 0.01) {
			t.Errorf("line rate %+v for %v pps", lr, f.TxPPS)
		}
	} else if !strings.Contains(strings.Join(f.Notes, "\n"), "line rate:") {
		t.Errorf("no line rate and no note: %q", f.Notes)
	}
	// The text names the interface.
	txt, stderr, code := l.boardbench(client, nil, "net", "--peer", "10.206.0.2", "--duration", "1s", "--bidir", "--no-install")
	if code != 0 || !strings.Contains(txt, "Interface: "+ifc+" (driver veth") {
		t.Errorf("text (exit %d) does not name %s:\n%s\n%s", code, ifc, txt, stderr)
	}
}
