// Package serve implements `boardbench serve`: the read-only web view of a
// results store (see internal/serve), on localhost by default, with the
// live monitor's Prometheus metrics on /metrics when --metrics is given.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/monitor"
	"boardbench/internal/promexport"
	"boardbench/internal/serve"
	"boardbench/internal/serve/page"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
)

// DefaultListen is where serve listens without --listen.
const DefaultListen = "127.0.0.1:8080"

// NewCmd returns the serve command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var listen string
	var metrics bool
	cmd := &cobra.Command{
		Use:   "serve [--store PATH|URL] [--listen HOST:PORT] [--metrics]",
		Short: "Show the results store in a web browser (read-only)",
		Long: `Serve a read-only web view of the results store: a table of every result
(sortable by any column, filtered by SoC, core type, kernel, tag and
validity, with a text search, paged on the server), a page per result
with its findings, charts and raw JSON, and a comparison of two or more
results. Pages are plain HTML with everything embedded: they work offline
and without JavaScript. Nothing can be changed through the server.

It listens on 127.0.0.1:8080 unless --listen says otherwise; an address
other machines can reach (e.g. 0.0.0.0:8080) is warned about.
--metrics also samples this machine and serves the samples to Prometheus
on /metrics (see docs/prometheus.md). Ctrl-C stops the server.`,
		Example: `  boardbench serve
  boardbench serve --store /srv/boardbench/results.db --listen 0.0.0.0:8080
  boardbench serve --store postgres://bench@db/boardbench --metrics`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), f, listen, metrics)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", DefaultListen, "listen on `HOST:PORT`")
	cmd.Flags().BoolVar(&metrics, "metrics", false, "also sample this machine and serve Prometheus metrics on /metrics")
	return cmd
}

func run(ctx context.Context, f *cmdutil.Factory, listen string, metrics bool) error {
	if _, _, err := net.SplitHostPort(listen); err != nil {
		return cmdutil.Usagef("--listen %q: %v (e.g. 127.0.0.1:8080)", listen, err)
	}
	// --store (the root command's) names the store.
	st, err := f.Store.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("--listen %s: %v", listen, err)
	}
	cfg := serve.Config{Store: st, ErrorLog: log.New(f.IO.ErrOut, "boardbench: serve: ", 0), Charts: page.Charts}
	if metrics {
		h, err := startMetrics(ctx, f)
		if err != nil {
			ln.Close()
			return err
		}
		cfg.Metrics = h
	}
	if !promexport.IsLoopback(listen) {
		fmt.Fprintf(f.IO.ErrOut, "boardbench: warning: --listen %s: the results are open to other machines (read-only)\n", listen)
	}
	fmt.Fprintf(f.IO.ErrOut, "boardbench: serving %s on http://%s/ (Ctrl-C stops)\n", store.Where(st), ln.Addr())
	srv := serve.NewHTTPServer(listen, serve.New(cfg).Handler())
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		case <-done:
		}
	}()
	err = srv.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil // Ctrl-C: the normal end
	}
	return err
}

// startMetrics samples the live machine in the background and returns
// the /metrics handler of its samples.
func startMetrics(ctx context.Context, f *cmdutil.Factory) (http.Handler, error) {
	h, err := f.NewHost("/")
	if err != nil {
		return nil, err
	}
	in := &inventory.Info{Root: h.Root(), Redacted: true}
	in.CPU = cpu.Collect(h)
	in.Board, in.SoC = soc.Collect(h, in.CPU, true)
	in.Sensors = sensors.Collect(h)
	in.RaspberryPi = rpi.Collect(h)
	mcfg := monitor.ConfigFor(h, in)
	mcfg.Interval = 5 * time.Second
	m := monitor.New(h, mcfg)
	counters := promexport.NewCounters(h, mcfg)
	counters.Update(ctx)
	go m.Run(ctx, func(monitor.Sample) { counters.Update(ctx) })
	return promexport.Handler(promexport.New(m, mcfg, in, counters))
}
