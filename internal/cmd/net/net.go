// Package net implements `boardbench net`: network throughput against an
// iperf3 server on a peer (TCP forward, reverse and both ways, small
// packets, optionally UDP), or a passive watch of interfaces that carry
// someone else's traffic, with per-CPU load, interrupts and soft interrupts
// per CPU, the interfaces' description, a diagnosis and, with --apply, the
// suggested interrupt affinity, receive packet steering and coalescing
// applied for the run and restored afterwards.
package net

import (
	"context"
	"strings"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/netbench"
	"boardbench/internal/power"

	"github.com/spf13/cobra"
)

// Limits of the command line.
const (
	// DefaultTestDuration is the length of each iperf3 test.
	DefaultTestDuration = 10 * time.Second
	maxDuration         = 24 * time.Hour
)

// Options are the command line of `boardbench net` and the factory it
// measures with.
type Options struct {
	Factory *cmdutil.Factory
	// Ctx is the command's context.
	Ctx                 context.Context
	peer, ifname, watch string
	port                int
	duration            time.Duration
	interval            time.Duration
	udpRate, bitrate    string
	bidir               bool
	streams             int
	clockMHz            int
	headroom            bool
	apply, keep, wait   bool
	noInstall, asJSON   bool
	output              string
	power               power.Options
}

// NewCmd returns the net command. runF, when not nil, receives the
// checked options in place of run (tests).
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	if runF == nil {
		runF = run
	}
	o := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "net (--peer HOST [--interface IF] | --watch IF[,IF...]) [--apply [--keep]]",
		Short: "Measure network throughput and where the CPU time goes (interrupts, soft interrupts)",
		Long: `Measure network throughput and show where the CPU time goes.

With --peer, iperf3 runs against an "iperf3 -s" on HOST: TCP send, receive and
both ways at once, then TCP with a 88-byte MSS for packets per second, and with
--udp-rate UDP at that rate. With --watch, boardbench measures traffic that
others generate through the interfaces (a router, a NAS) until Ctrl-C or
--duration, and shows the last --interval's rates and CPU load as it goes: a
table redrawn in place on a terminal, one line per interval on a pipe, and with
--json one line per interval on standard error. The final table is the average
over the whole time watched.

During every step boardbench samples the load of every CPU (user, system,
interrupt and soft interrupt time), the interface's interrupts per CPU, the
NET_RX and NET_TX soft interrupts per CPU and the interface counters; the
session monitor records clocks and temperature. Before and after, it records
the interface: driver, bus, link, EEE, MTU, queues with their RPS/XPS masks,
interrupt affinity and coalescing.

The findings say when one CPU handles every interrupt while the others idle,
with the exact commands to spread them; --apply applies them (and suggested
coalescing) for the run and restores the previous values at the end, on
Ctrl-C and on SIGTERM, unless --keep is given; an interrupt whose effective
affinity did not follow is reported and never advised again.

--bidir runs only the tests both ways at once, -b limits each TCP stream,
UDP steps report loss and jitter; each step's packet rate is compared with
the link's line rate. --power reports watts and Mbit/s per W, --clock MHz
pins the CPU clocks for the run (restored at the end), and --watch
--headroom runs a calibrated load on every CPU to show the capacity left
(before and after --apply).`,
		Example: `  boardbench net --peer 192.168.1.10
  boardbench net --peer nas.local --interface eth1 --udp-rate 500M -o net.json
  sudo boardbench net --peer 192.168.1.10 --apply
  boardbench net --peer 10.0.0.2 --bidir -b 880M --udp-rate 400M
  sudo boardbench net --peer 10.0.0.2 --clock 600 --power rpi-pmic
  sudo boardbench net --watch eth0,eth1 --duration 60s --headroom --apply`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(cmd); err != nil {
				return err
			}
			o.Ctx = cmd.Context()
			return runF(o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.peer, "peer", "", "measure against the iperf3 server on `HOST` (start it there with: iperf3 -s)")
	fl.StringVar(&o.ifname, "interface", "", "the interface toward the peer (`IF`); found from the route when not given")
	fl.StringVar(&o.watch, "watch", "", "watch the traffic of these interfaces (`IF[,IF...]`) instead of generating it")
	fl.IntVar(&o.port, "port", 5201, "the iperf3 server's TCP port")
	fl.DurationVar(&o.duration, "duration", 0, "length of each iperf3 test (default 10s), or of the watch (default until Ctrl-C)")
	fl.DurationVar(&o.interval, "interval", netbench.DefaultLiveInterval, "with --watch: refresh the live view of the last interval this often")
	fl.StringVar(&o.udpRate, "udp-rate", "", "also send UDP at this rate in bit/s (`RATE`, e.g. 100M or 1G)")
	fl.IntVar(&o.streams, "streams", 1, "parallel TCP streams per test")
	fl.BoolVar(&o.bidir, "bidir", false, "only the tests both ways at once (TCP, and UDP with --udp-rate)")
	fl.StringVarP(&o.bitrate, "bitrate", "b", "", "limit each TCP stream to `RATE` bit/s (iperf3 -b, e.g. 880M)")
	fl.IntVar(&o.clockMHz, "clock", 0, "pin every CPU's clock at `MHZ` MHz for the run (cpufreq, root; restored at the end)")
	fl.BoolVar(&o.headroom, "headroom", false, "with --watch: run a calibrated CPU load on each CPU and report the capacity left")
	fl.BoolVar(&o.apply, "apply", false, "apply the suggested interrupt affinity, RPS masks and coalescing for the run (needs root)")
	fl.BoolVar(&o.keep, "keep", false, "with --apply: keep the changes instead of restoring them at the end")
	cmdutil.AddWaitFlag(cmd, &o.wait)
	fl.BoolVar(&o.noInstall, "no-install", false, "never install iperf3; fail instead when it is missing")
	fl.StringVarP(&o.output, "output", "o", "", "also write the result (with the monitor's evidence) to `FILE`, for boardbench report")
	power.AddFlags(cmd, &o.power)
	cmdutil.AddJSONFlag(cmd, &o.asJSON)
	return cmd
}

// validate checks the flags' combinations (usage errors, exit 2).
func (o *Options) validate(cmd *cobra.Command) error {
	switch {
	case o.peer == "" && o.watch == "":
		return cmdutil.Usagef("give --peer HOST (active test) or --watch IF[,IF...] (passive)")
	case o.peer != "" && o.watch != "":
		return cmdutil.Usagef("--peer and --watch exclude each other")
	case o.watch != "" && o.ifname != "":
		return cmdutil.Usagef("--interface goes with --peer; --watch names its interfaces itself")
	case o.watch != "" && (o.udpRate != "" || o.bitrate != "" || o.bidir || cmd.Flags().Changed("streams") || cmd.Flags().Changed("port")):
		return cmdutil.Usagef("--udp-rate, --bitrate, --bidir, --streams and --port go with --peer")
	case o.headroom && o.watch == "":
		return cmdutil.Usagef("--headroom goes with --watch")
	case o.headroom && o.apply && o.duration == 0:
		return cmdutil.Usagef("--headroom with --apply needs --duration: the watch is split in two halves, before and after applying")
	case o.clockMHz < 0 || o.clockMHz > 10000:
		return cmdutil.Usagef("--clock %d: a clock in MHz between 1 and 10000", o.clockMHz)
	case o.watch == "" && cmd.Flags().Changed("interval"):
		return cmdutil.Usagef("--interval goes with --watch")
	case o.interval < netbench.MinLiveInterval || o.interval > netbench.MaxLiveInterval:
		return cmdutil.Usagef("--interval %s: must be between %s and %s", o.interval, netbench.MinLiveInterval, netbench.MaxLiveInterval)
	case o.keep && !o.apply:
		return cmdutil.Usagef("--keep goes with --apply")
	case o.port < 1 || o.port > 65535:
		return cmdutil.Usagef("--port %d: must be between 1 and 65535", o.port)
	case o.streams < 1 || o.streams > 128:
		return cmdutil.Usagef("--streams %d: must be between 1 and 128", o.streams)
	case o.duration < 0 || o.duration > maxDuration:
		return cmdutil.Usagef("--duration %s: must be between 0 and %s", o.duration, maxDuration)
	case o.peer != "" && !validPeer(o.peer):
		return cmdutil.Usagef("--peer %q: not a host name or IP address", o.peer)
	case o.peer != "" && o.duration != 0 && o.duration < time.Second:
		return cmdutil.Usagef("--duration %s: an iperf3 test lasts at least 1s", o.duration)
	}
	if o.peer != "" && o.duration == 0 {
		o.duration = DefaultTestDuration
	}
	if o.udpRate != "" {
		if _, err := netbench.ParseRate(o.udpRate); err != nil {
			return cmdutil.Usagef("--udp-rate %q: %v", o.udpRate, err)
		}
	}
	if o.bitrate != "" {
		if _, err := netbench.ParseRate(o.bitrate); err != nil {
			return cmdutil.Usagef("--bitrate %q: %v", o.bitrate, err)
		}
	}
	if o.watch != "" {
		for _, n := range strings.Split(o.watch, ",") {
			if n == "" || strings.ContainsAny(n, "/ \x00") || len(n) >= 16 || n == "." || n == ".." {
				return cmdutil.Usagef("--watch %q: %q is not an interface name", o.watch, n)
			}
		}
	}
	if o.ifname != "" && (strings.ContainsAny(o.ifname, "/ \x00,") || len(o.ifname) >= 16 || o.ifname == "." || o.ifname == "..") {
		return cmdutil.Usagef("--interface %q: not an interface name", o.ifname)
	}
	return nil
}

// validPeer accepts a host name, an IPv4 or IPv6 address (with an optional
// %zone): what iperf3 gets after -c must never read as one of its options
// (a leading '-') nor hold spaces or control characters.
func validPeer(p string) bool {
	if p == "" || len(p) > 253 || p[0] == '-' {
		return false
	}
	for _, r := range p {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune(".-:%_[]", r):
		default:
			return false
		}
	}
	return true
}
