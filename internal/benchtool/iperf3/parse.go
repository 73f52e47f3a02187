// Package iperf3 runs an iperf3 client against a server on a peer and parses
// its JSON report (iperf3 -J) into throughput per direction, retransmits and
// UDP loss. The raw JSON is kept by the caller next to the figures.
package iperf3

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Mode is what a test measures.
type Mode string

// The tests `boardbench net` runs.
const (
	// Forward sends from this machine to the peer.
	Forward Mode = "forward"
	// Reverse has the peer send to this machine (-R).
	Reverse Mode = "reverse"
	// Bidir sends both ways at once (--bidir).
	Bidir Mode = "bidir"
	// UDP sends UDP datagrams at a given rate from this machine (-u -b).
	UDP Mode = "udp"
	// UDPBidir sends UDP datagrams at a given rate both ways at once (-u
	// -b --bidir).
	UDPBidir Mode = "udp-bidir"
)

// Report is what one iperf3 client run measured, from this machine's side.
type Report struct {
	// TxMbitS is the throughput from this machine to the peer, RxMbitS
	// from the peer to this machine, as the receiving end counted it
	// (Mbit/s, 10^6 bits); nil for a direction the mode does not measure.
	TxMbitS *float64
	RxMbitS *float64
	// TxBytes and RxBytes are the bytes the receiving ends counted.
	TxBytes, RxBytes uint64
	// Retransmits are the TCP retransmits the sender(s) counted; nil when
	// iperf3 did not report them (UDP, some platforms).
	Retransmits *int64
	// LostPercent is the UDP loss at the receiver; nil for TCP. With
	// UDPBidir it is the loss toward the peer, RxLostPercent the loss
	// back.
	LostPercent, RxLostPercent *float64
	// JitterMs is the UDP jitter the receiver reported (ms), RxJitterMs
	// that of the way back with UDPBidir; nil for TCP.
	JitterMs, RxJitterMs *float64
	// Seconds is the length of the test.
	Seconds float64
}

// ServerError is the error iperf3 reported in its JSON ("the server is busy
// running a test. try again later", "unable to connect to server: ...").
type ServerError struct{ Message string }

// Error says what iperf3 reported.
func (e *ServerError) Error() string { return "iperf3: " + e.Message }

// Busy reports whether the server was busy with another client's test.
func (e *ServerError) Busy() bool { return strings.Contains(e.Message, "busy") }

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoResult is returned for a JSON report without figures.
const ErrNoResult = constError("iperf3 printed no result")

type sum struct {
	Seconds       float64  `json:"seconds"`
	Bytes         uint64   `json:"bytes"`
	BitsPerSecond *float64 `json:"bits_per_second"`
	Retransmits   *int64   `json:"retransmits"`
	LostPercent   *float64 `json:"lost_percent"`
	JitterMs      *float64 `json:"jitter_ms"`
}

type document struct {
	End struct {
		Sum                     *sum `json:"sum"`
		SumSent                 *sum `json:"sum_sent"`
		SumReceived             *sum `json:"sum_received"`
		SumSentBidirReverse     *sum `json:"sum_sent_bidir_reverse"`
		SumReceivedBidirReverse *sum `json:"sum_received_bidir_reverse"`
	} `json:"end"`
	Error string `json:"error"`
}

// Parse reads iperf3's JSON report of a client run in mode. A report with
// an "error" member is a *ServerError; one without figures ErrNoResult.
func Parse(data []byte, mode Mode) (Report, error) {
	var d document
	if err := json.Unmarshal(data, &d); err != nil {
		return Report{}, fmt.Errorf("iperf3 JSON: %v", err)
	}
	if d.Error != "" {
		return Report{}, &ServerError{Message: d.Error}
	}
	var r Report
	recv, sent := d.End.SumReceived, d.End.SumSent
	if recv == nil || recv.BitsPerSecond == nil || sent == nil {
		return Report{}, ErrNoResult
	}
	r.Seconds = recv.Seconds
	switch mode {
	case Forward:
		r.TxMbitS, r.TxBytes = mbit(recv.BitsPerSecond), recv.Bytes
		r.Retransmits = sent.Retransmits
	case Reverse:
		r.RxMbitS, r.RxBytes = mbit(recv.BitsPerSecond), recv.Bytes
		r.Retransmits = sent.Retransmits
	case Bidir:
		back := d.End.SumReceivedBidirReverse
		if back == nil || back.BitsPerSecond == nil {
			return Report{}, fmt.Errorf("%w: no reverse direction in a --bidir report", ErrNoResult)
		}
		r.TxMbitS, r.TxBytes = mbit(recv.BitsPerSecond), recv.Bytes
		r.RxMbitS, r.RxBytes = mbit(back.BitsPerSecond), back.Bytes
		if sent.Retransmits != nil {
			n := *sent.Retransmits
			if bs := d.End.SumSentBidirReverse; bs != nil && bs.Retransmits != nil {
				n += *bs.Retransmits
			}
			r.Retransmits = &n
		}
	case UDP:
		r.TxMbitS, r.TxBytes = mbit(recv.BitsPerSecond), recv.Bytes
		r.LostPercent, r.JitterMs = recv.LostPercent, recv.JitterMs
	case UDPBidir:
		back := d.End.SumReceivedBidirReverse
		if back == nil || back.BitsPerSecond == nil {
			return Report{}, fmt.Errorf("%w: no reverse direction in a --bidir report", ErrNoResult)
		}
		r.TxMbitS, r.TxBytes = mbit(recv.BitsPerSecond), recv.Bytes
		r.RxMbitS, r.RxBytes = mbit(back.BitsPerSecond), back.Bytes
		r.LostPercent, r.JitterMs = recv.LostPercent, recv.JitterMs
		r.RxLostPercent, r.RxJitterMs = back.LostPercent, back.JitterMs
	default:
		return Report{}, fmt.Errorf("unknown iperf3 mode %q", mode)
	}
	return r, nil
}

func mbit(bps *float64) *float64 {
	v := *bps / 1e6
	return &v
}
