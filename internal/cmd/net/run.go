package net

import (
	"context"
	"strings"

	"boardbench/internal/cmdutil"
	"boardbench/internal/netbench"
	"boardbench/internal/tune"
)

// errNotLive is the usage error for a --root or fixture host: net measures
// only the live machine.
const errNotLive = sentinel("net measures the machine it runs on; it needs the live system")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// run refuses what cannot run here, takes the tuning lock when the run
// changes the machine, and runs netbench's plan.
func run(o *Options) error {
	f, ctx := o.Factory, o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	h, err := f.LiveHost(errNotLive)
	if err != nil {
		return err
	}
	if o.apply && !f.IsRoot() {
		// Refused before anything is measured: nothing is written or stored.
		return cmdutil.Refusef("--apply needs root: it writes interrupt affinity, RPS masks and coalescing (run it with sudo; `boardbench net` without --apply measures and prints the commands)")
	}
	pins, err := tune.CheckClock(h, "--clock", o.clockMHz, f.IsRoot())
	if err != nil {
		return cmdutil.Refusef("%v", err)
	}
	nopt := netbench.Options{Peer: o.peer, Interface: o.ifname, Port: o.port, Duration: o.duration, Interval: o.interval,
		UDPRate: o.udpRate, Bidir: o.bidir, Streams: o.streams, Apply: o.apply, Keep: o.keep, ClockMHz: o.clockMHz,
		Headroom: o.headroom, NoInstall: o.noInstall, Output: o.output, JSON: o.asJSON, Power: o.power}
	if o.watch != "" {
		nopt.Watch = strings.Split(o.watch, ",")
	}
	if o.bitrate != "" {
		nopt.Bitrate, _ = netbench.ParseRate(o.bitrate)
	}
	cfg := netbench.Config{Host: h, IO: f.IO, Keep: f.Keep, Clock: pins}
	if o.apply || o.clockMHz > 0 {
		// One tuning run per machine: taken before anything is measured,
		// handed to the guard (or held until the end with --keep).
		if cfg.Lock, err = tune.CommandLock(ctx, h.Root(), o.wait, f.IO.ErrOut); err != nil {
			return err
		}
		defer cfg.Lock.Release()
	}
	return netbench.Run(ctx, cfg, nopt)
}
