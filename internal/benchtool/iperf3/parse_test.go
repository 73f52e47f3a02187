package iperf3

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func near(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 0.001 }

func TestParseRecorded(t *testing.T) {
	tests := []struct {
		file    string
		mode    Mode
		tx, rx  float64 // 0: must be nil
		retrans int64   // -1: must be nil
	}{
		{"fwd.json", Forward, 0, 0, 0},
		{"rev.json", Reverse, 0, 0, 0},
		{"bidir.json", Bidir, 0, 0, 0},
		{"mss.json", Forward, 0, 0, 0},
		{"udp.json", UDP, 99.94749169715086, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Parse(data, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			if r.Seconds < 1.9 || r.Seconds > 2.1 {
				t.Errorf("seconds = %v", r.Seconds)
			}
			switch tt.mode {
			case Forward, UDP:
				if r.TxMbitS == nil || r.RxMbitS != nil || *r.TxMbitS <= 0 {
					t.Errorf("tx %v rx %v", r.TxMbitS, r.RxMbitS)
				}
			case Reverse:
				if r.RxMbitS == nil || r.TxMbitS != nil || *r.RxMbitS <= 0 {
					t.Errorf("tx %v rx %v", r.TxMbitS, r.RxMbitS)
				}
			case Bidir:
				if r.RxMbitS == nil || r.TxMbitS == nil {
					t.Errorf("tx %v rx %v", r.TxMbitS, r.RxMbitS)
				}
			}
			if tt.tx != 0 && !near(r.TxMbitS, tt.tx) {
				t.Errorf("tx = %v, want %v", *r.TxMbitS, tt.tx)
			}
			if (tt.retrans < 0) != (r.Retransmits == nil) {
				t.Errorf("retransmits = %v", r.Retransmits)
			}
			if tt.mode == UDP && !near(r.LostPercent, 0) {
				t.Errorf("lost = %v", r.LostPercent)
			}
		})
	}
}

// The bidirectional figures are the two receivers' counts: bytes over
// seconds of each direction.
func TestParseBidirDirections(t *testing.T) {
	data, _ := os.ReadFile("testdata/bidir.json")
	r, err := Parse(data, Bidir)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.RxMbitS, 12169.84801696155) || r.RxBytes != 3042901640 {
		t.Errorf("rx = %v (%d bytes)", *r.RxMbitS, r.RxBytes)
	}
	if r.Retransmits == nil || *r.Retransmits < 37675 {
		t.Errorf("retransmits = %v, want at least the forward sender's 37675", r.Retransmits)
	}
}

func TestParseErrors(t *testing.T) {
	busy, _ := os.ReadFile("testdata/busy.json")
	_, err := Parse(busy, Forward)
	var se *ServerError
	if !errors.As(err, &se) || !se.Busy() {
		t.Errorf("busy: %v", err)
	}
	noserver, _ := os.ReadFile("testdata/noserver.json")
	_, err = Parse(noserver, Forward)
	if !errors.As(err, &se) || se.Busy() {
		t.Errorf("no server: %v", err)
	}
	for _, in := range []string{"", "{", `{"end":{}}`, `{"end":{"sum_received":{"bytes":1}}}`, `[]`} {
		if _, err := Parse([]byte(in), Forward); err == nil {
			t.Errorf("Parse(%q) accepted", in)
		}
	}
	fwd, _ := os.ReadFile("testdata/fwd.json")
	if _, err := Parse(fwd, Bidir); !errors.Is(err, ErrNoResult) {
		t.Errorf("forward report read as bidir: %v", err)
	}
}

func TestArgs(t *testing.T) {
	tests := []struct {
		test Test
		want []string
	}{
		{Test{Peer: "10.0.0.2", Mode: Forward, Duration: 10 * time.Second},
			[]string{"-c", "10.0.0.2", "-p", "5201", "-t", "10", "-J", "--connect-timeout", "5000"}},
		{Test{Peer: "p", Port: 6000, Mode: Reverse, Duration: 300 * time.Millisecond, MSS: 88},
			[]string{"-c", "p", "-p", "6000", "-t", "1", "-J", "--connect-timeout", "5000", "-R", "-M", "88"}},
		{Test{Peer: "p", Mode: UDP, Duration: 2 * time.Second, Rate: 50e6, BindDevice: "eth1", Streams: 4},
			[]string{"-c", "p", "-p", "5201", "-t", "2", "-J", "--connect-timeout", "5000", "-u", "-b", "50000000", "-P", "4", "--bind-dev", "eth1"}},
		{Test{Peer: "p", Mode: Bidir, Duration: 2 * time.Second},
			[]string{"-c", "p", "-p", "5201", "-t", "2", "-J", "--connect-timeout", "5000", "--bidir"}},
	}
	for _, tt := range tests {
		if got := tt.test.Args(); !slices.Equal(got, tt.want) {
			t.Errorf("Args() = %q, want %q", got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"fwd.json", "bidir.json", "busy.json"} {
		data, _ := os.ReadFile(filepath.Join("testdata", n))
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range []Mode{Forward, Reverse, Bidir, UDP} {
			Parse(data, m)
		}
	})
}
