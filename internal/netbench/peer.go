package netbench

import (
	"context"
	"errors"
	"fmt"
	stdnet "net"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/benchtool/iperf3"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
)

// errPeerUnusable marks a failure that applies to every test against the
// peer (connection refused, host unreachable, server busy, no answer in
// time): the remaining tests are skipped with it as their reason.
const errPeerUnusable = sentinel("the peer cannot be used")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// peerError is a failure of the peer as a whole: one line saying why.
type peerError struct{ msg string }

func (e *peerError) Error() string { return e.msg }

// Is makes every peerError an errPeerUnusable.
func (e *peerError) Is(target error) bool { return target == errPeerUnusable }

// routeInterface returns the interface the kernel routes peer through.
func routeInterface(peer string, port int) (string, error) {
	conn, err := stdnet.DialTimeout("udp", stdnet.JoinHostPort(peer, strconv.Itoa(port)), 5*time.Second)
	if err != nil {
		return "", fmt.Errorf("peer %s: %v", peer, err)
	}
	local, _ := conn.LocalAddr().(*stdnet.UDPAddr)
	conn.Close()
	ifs, err := stdnet.Interfaces()
	if err != nil {
		return "", fmt.Errorf("listing the interfaces: %v", err)
	}
	for _, i := range ifs {
		addrs, _ := i.Addrs()
		for _, a := range addrs {
			if n, ok := a.(*stdnet.IPNet); ok && local != nil && n.IP.Equal(local.IP) {
				return i.Name, nil
			}
		}
	}
	return "", fmt.Errorf("peer %s: no interface holds the address %v the route to it uses; name it with --interface", peer, local)
}

// peerSteps are the iperf3 tests.
func (r *runner) peerSteps(tool *tools.Tool) []session.Step {
	ifname := r.ifaces[0]
	type test struct {
		name, title string
		mode        iperf3.Mode
		mss         int
		rate        int64
	}
	limit, limited := r.o.Bitrate, ""
	if limit > 0 {
		limited = fmt.Sprintf(", at most %s bit/s per stream", FormatRate(limit))
	}
	tests := []test{
		{result.PhaseNetTCPForward, "TCP from this machine to the peer" + limited, iperf3.Forward, 0, limit},
		{result.PhaseNetTCPReverse, "TCP from the peer to this machine" + limited, iperf3.Reverse, 0, limit},
		{result.PhaseNetTCPBidir, "TCP both ways at once" + limited, iperf3.Bidir, 0, limit},
		{result.PhaseNetSmallPackets, "TCP with an 88-byte MSS, for packets per second" + limited, iperf3.Forward, 88, limit},
	}
	if r.o.Bidir {
		// --bidir: only the tests both ways at once.
		tests = tests[2:3]
	}
	if r.o.UDPRate != "" {
		rate, _ := ParseRate(r.o.UDPRate)
		if r.o.Bidir {
			tests = append(tests, test{result.PhaseNetUDPBidir, "UDP both ways at once at " + r.o.UDPRate + "bit/s each", iperf3.UDPBidir, 0, rate})
		} else {
			tests = append(tests, test{result.PhaseNetUDP, "UDP from this machine at " + r.o.UDPRate + "bit/s", iperf3.UDP, 0, rate})
		}
	}
	var steps []session.Step
	for _, t := range tests {
		it := iperf3.Test{Command: tool.Command(), Peer: r.o.Peer, Port: r.o.Port, Mode: t.mode, Duration: r.o.Duration,
			MSS: t.mss, Rate: t.rate, Streams: r.o.Streams}
		if t.mode == iperf3.UDP || t.mode == iperf3.UDPBidir {
			it.Streams = 1
		}
		steps = append(steps, session.Step{Name: t.name, Title: t.title, Kind: "iperf3", Estimate: r.o.Duration + time.Second,
			Run: func(ctx context.Context, p *result.Phase) error {
				if r.unusable != nil {
					p.Status, p.Reason = result.PhaseSkipped, "not run: "+r.unusable.Error()
					return nil
				}
				figs := result.NetFigures{Interface: ifname, MSS: t.mss, BitrateLimit: t.rate}
				var rep iperf3.Report
				var raw []byte
				w, err := r.measure(&figs, func() error {
					var e error
					rep, raw, e = runRetryingBusy(ctx, it)
					return e
				})
				p.RawOutput = string(raw)
				if err != nil {
					err = explain(err, r.o.Peer, r.o.Port)
					if errors.Is(err, errPeerUnusable) && r.unusable == nil {
						r.unusable = err
					}
					r.failures = append(r.failures, fmt.Errorf("%s: %w", t.name, err))
					return err
				}
				figs.TxMbitS, figs.RxMbitS, figs.Retransmits, figs.LostPercent = rep.TxMbitS, rep.RxMbitS, rep.Retransmits, rep.LostPercent
				figs.RxLostPercent, figs.JitterMs, figs.RxJitterMs = rep.RxLostPercent, rep.JitterMs, rep.RxJitterMs
				if rate := w.Rate(ifname); rate != nil {
					figs.RxPPS, figs.TxPPS = &rate.RxPPS, &rate.TxPPS
				}
				markMergedSegments(&figs, r.mtu(ifname))
				fillLineRate(&figs, r.linkSpeed(ifname))
				return p.SetFigures(figs)
			}})
	}
	return steps
}

// busyRetries are the pauses before trying again a server that said it is
// busy: iperf3 -s takes a moment after one test before it accepts the next.
var busyRetries = []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}

// runRetryingBusy runs the test, trying again after a pause while the
// server says it is busy.
func runRetryingBusy(ctx context.Context, t iperf3.Test) (iperf3.Report, []byte, error) {
	rep, raw, err := iperf3.Run(ctx, t)
	for _, pause := range busyRetries {
		var se *iperf3.ServerError
		if !errors.As(err, &se) || !se.Busy() {
			break
		}
		select {
		case <-ctx.Done():
			return rep, raw, err
		case <-time.After(pause):
		}
		rep, raw, err = iperf3.Run(ctx, t)
	}
	return rep, raw, err
}

// mtu returns the MTU of a measured interface as described before the
// steps; 0 when unknown.
func (r *runner) mtu(ifname string) int64 {
	for _, d := range r.facts.Interfaces {
		if d.Name == ifname && d.MTU != nil {
			return *d.MTU
		}
	}
	return 0
}

// linkSpeed returns the link speed (Mbit/s) of a measured interface as
// described before the steps; nil when unknown.
func (r *runner) linkSpeed(ifname string) *int64 {
	for _, d := range r.facts.Interfaces {
		if d.Name == ifname {
			if d.Link != nil && d.Link.SpeedMbps != nil {
				return d.Link.SpeedMbps
			}
			return d.SpeedMbps
		}
	}
	return nil
}

// explain turns an iperf3 failure into one clear sentence. A failure that
// applies to every test against the peer (refused, unreachable, busy, no
// answer in time) is a *peerError, kept short enough for one line.
func explain(err error, peer string, port int) error {
	addr := stdnet.JoinHostPort(peer, strconv.Itoa(port))
	var se *iperf3.ServerError
	switch {
	case errors.As(err, &se) && se.Busy():
		return &peerError{fmt.Sprintf("the iperf3 server on %s is busy with another client's test; try again later", addr)}
	case errors.As(err, &se) && strings.Contains(se.Message, "unable to connect"):
		return &peerError{connectFailure(addr, se.Message)}
	case errors.Is(err, iperf3.ErrTimeout):
		return &peerError{fmt.Sprintf("the iperf3 server on %s did not answer in time (%v)", addr, err)}
	}
	return err
}

// connectFailure says in one short line why iperf3 could not connect to
// addr, from its message ("unable to connect to server - server may have
// stopped running or use a different port, firewall issue, etc.:
// Connection refused").
func connectFailure(addr, msg string) string {
	cause := msg
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		cause = msg[i+2:]
	}
	lc := strings.ToLower(cause)
	switch {
	case strings.Contains(lc, "refused"):
		return fmt.Sprintf("the peer %s refused the connection: is `iperf3 -s` running there?", addr)
	case strings.Contains(lc, "no route"), strings.Contains(lc, "unreachable"):
		return fmt.Sprintf("the peer %s is unreachable (%s)", addr, lc)
	case strings.Contains(lc, "timed out"), strings.Contains(lc, "in progress"):
		return fmt.Sprintf("the peer %s did not answer within %s", addr, iperf3.ConnectTimeout)
	}
	return fmt.Sprintf("cannot connect to the iperf3 server on %s: %s", addr, cause)
}
