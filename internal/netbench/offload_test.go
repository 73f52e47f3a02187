package netbench

import (
	"errors"
	"strings"
	"testing"

	"boardbench/internal/benchtool/iperf3"
	"boardbench/internal/result"
)

func TestMarkMergedSegments(t *testing.T) {
	v := 1.0
	tests := []struct {
		name     string
		mss      int
		mtu      int64
		tx, rx   bool
		ctr      result.NetCounters
		want     bool
		noteWant string
	}{
		// veth with TSO: 26820 PPS at 12283 Mbit/s is ~57 KB per packet.
		{"MSS 88 on veth: merged", 88, 1500, true, false, result.NetCounters{TxBytes: 1535375000, TxPackets: 26820}, true,
			"sent 57247 bytes per counted packet, 154 at most on the wire (MSS 88)"},
		{"MSS 88 on a real NIC: ~150 bytes a packet", 88, 1500, true, false, result.NetCounters{TxBytes: 150 * 80000, TxPackets: 80000}, false, ""},
		{"full-size packets", 0, 1500, true, false, result.NetCounters{TxBytes: 1514 * 80000, TxPackets: 80000}, false, ""},
		{"jumbo frames are not merged segments", 0, 9000, true, false, result.NetCounters{TxBytes: 9014 * 1000, TxPackets: 1000}, false, ""},
		{"GRO on receive", 0, 1500, false, true, result.NetCounters{RxBytes: 64000 * 1000, RxPackets: 1000}, true, "received 64000 bytes per counted packet, 1514 at most"},
		{"a direction the step did not measure is not judged", 0, 1500, true, false, result.NetCounters{RxBytes: 64000 * 1000, RxPackets: 1000, TxBytes: 100, TxPackets: 1}, false, ""},
		{"unknown MTU: 1500 assumed", 0, 0, true, false, result.NetCounters{TxBytes: 64000, TxPackets: 1}, true, "(MTU 1500)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.ctr.Interface = "veth0"
			f := result.NetFigures{Interface: "veth0", MSS: tt.mss, Counters: []result.NetCounters{tt.ctr}}
			if tt.tx {
				f.TxMbitS = &v
			}
			if tt.rx {
				f.RxMbitS = &v
			}
			markMergedSegments(&f, tt.mtu)
			if f.MergedSegments != tt.want {
				t.Fatalf("merged = %v, want %v (notes %q)", f.MergedSegments, tt.want, f.Notes)
			}
			if tt.want && (len(f.Notes) != 1 || !strings.Contains(f.Notes[0], tt.noteWant)) {
				t.Errorf("notes %q lack %q", f.Notes, tt.noteWant)
			}
		})
	}
}

func TestExplainPeerFailures(t *testing.T) {
	tests := []struct {
		msg, want string
	}{
		{"unable to connect to server - server may have stopped running or use a different port, firewall issue, etc.: Connection refused",
			"the peer 10.0.0.2:5201 refused the connection: is `iperf3 -s` running there?"},
		{"unable to connect to server: No route to host", "the peer 10.0.0.2:5201 is unreachable (no route to host)"},
		{"the server is busy running a test. try again later", "the iperf3 server on 10.0.0.2:5201 is busy with another client's test; try again later"},
	}
	for _, tt := range tests {
		err := explain(&iperf3.ServerError{Message: tt.msg}, "10.0.0.2", 5201)
		if err.Error() != tt.want || !errors.Is(err, errPeerUnusable) {
			t.Errorf("%q: %q (unusable %v), want %q", tt.msg, err, errors.Is(err, errPeerUnusable), tt.want)
		}
		if len(err.Error()) > 100 {
			t.Errorf("%q is wider than 100 columns", err)
		}
	}
	if err := explain(errors.New("iperf3 exited with status 1"), "p", 1); errors.Is(err, errPeerUnusable) {
		t.Errorf("an unknown failure counts as the peer's: %v", err)
	}
}

func TestLineRate(t *testing.T) {
	// The router seed's figure: 88-byte payload in a 142-byte frame on
	// gigabit Ethernet, 166 bytes on the wire.
	if got := MaxPPS(1000, 142); int64(got) != 753012 {
		t.Errorf("MaxPPS(1000, 142) = %.1f, want 753012", got)
	}
	// A minimum frame: 60 + 4 + 8 + 12 = 84 bytes, 1488095 pps at 1 Gbit/s;
	// smaller counted frames are padded.
	if got := MaxPPS(1000, 42); int64(got) != 1488095 {
		t.Errorf("MaxPPS(1000, 42) = %.1f, want 1488095", got)
	}
	f64 := func(v float64) *float64 { return &v }
	i64 := func(v int64) *int64 { return &v }
	tests := []struct {
		name      string
		figs      result.NetFigures
		link      *int64
		wantShare *float64 // tx share
		wantNote  string
	}{
		{"half the ceiling", result.NetFigures{Interface: "eth0", TxMbitS: f64(100), TxPPS: f64(753012.0 / 2),
			Counters: []result.NetCounters{{Interface: "eth0", TxBytes: 142 * 1000, TxPackets: 1000}}}, i64(1000), f64(0.5), ""},
		{"no link speed", result.NetFigures{Interface: "veth0", TxMbitS: f64(100), TxPPS: f64(1000),
			Counters: []result.NetCounters{{Interface: "veth0", TxBytes: 142 * 1000, TxPackets: 1000}}}, nil, nil, "link speed is unknown"},
		{"merged segments", result.NetFigures{Interface: "veth0", TxMbitS: f64(100), TxPPS: f64(1000), MergedSegments: true,
			Counters: []result.NetCounters{{Interface: "veth0", TxBytes: 64000 * 1000, TxPackets: 1000}}}, i64(10000), nil, "merged segments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.figs
			fillLineRate(&f, tt.link)
			if tt.wantShare == nil {
				if f.LineRate != nil || !strings.Contains(strings.Join(f.Notes, "\n"), tt.wantNote) {
					t.Errorf("line rate %+v, notes %q", f.LineRate, f.Notes)
				}
				return
			}
			if f.LineRate == nil || f.LineRate.TxShare == nil || *f.LineRate.TxShare < *tt.wantShare-1e-6 || *f.LineRate.TxShare > *tt.wantShare+1e-6 {
				t.Fatalf("line rate %+v", f.LineRate)
			}
			if f.LineRate.RxMaxPPS != nil {
				t.Errorf("a direction not measured got a ceiling: %+v", f.LineRate)
			}
		})
	}
}
