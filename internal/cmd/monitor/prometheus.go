package monitor

import (
	"context"
	"fmt"
	"io"
	"net"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/monitor"
	"boardbench/internal/promexport"
)

// exporter is the --prometheus endpoint: its listener is opened before
// monitoring starts (a port in use is an error at once), and its counters
// are read by the sampling goroutine with each sample.
type exporter struct {
	ln       net.Listener
	counters *promexport.Counters
}

// listenPrometheus opens addr for the exporter, warning on w when it is
// not a loopback address; nil when addr is "".
func listenPrometheus(addr string, w io.Writer) (*exporter, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := promexport.Listen(addr)
	if err != nil {
		return nil, cmdutil.Usagef("--prometheus %s: %v", addr, err)
	}
	if !promexport.IsLoopback(addr) {
		fmt.Fprintf(w, "boardbench: warning: --prometheus %s: the metrics are open to other machines\n", addr)
	}
	return &exporter{ln: ln}, nil
}

// start serves src's samples until ctx is done.
func (x *exporter) start(ctx context.Context, h *host.Host, src promexport.Source, cfg monitor.Config, in *inventory.Info, warn io.Writer) {
	x.counters = promexport.NewCounters(h, cfg)
	x.counters.Update(ctx)
	e := promexport.New(src, cfg, in, x.counters)
	fmt.Fprintf(warn, "boardbench: Prometheus metrics on http://%s/metrics\n", x.ln.Addr())
	go func() {
		if err := promexport.Serve(ctx, x.ln, e); err != nil {
			fmt.Fprintf(warn, "boardbench: warning: Prometheus exporter stopped: %v\n", err)
		}
	}()
}

// sampled reads the exporter's counters after a sample; a nil x does nothing.
func (x *exporter) sampled(ctx context.Context) {
	if x != nil && x.counters != nil {
		x.counters.Update(ctx)
	}
}
