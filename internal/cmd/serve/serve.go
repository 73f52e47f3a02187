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

	"boardbench/internal/cmdstore"
	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory"
	"boardbench/internal/monitor"
	"boardbench/internal/promexport"
	"boardbench/internal/promexport/promhttp"
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
	var allowHosts []string
	var up uploadOptions
	cmd := &cobra.Command{
		Use:   "serve [--store PATH|URL] [--listen HOST:PORT] [--allow-host NAME] [--metrics]",
		Short: "Show the results store in a web browser (read-only)",
		Long: `Serve a read-only web view of the results store: a table of every result
(sortable by any column, filtered by SoC, core type, kernel, tag and
validity, with a text search, paged on the server), a page per result
with its findings, charts and raw JSON, and a comparison of two or more
results. Pages are plain HTML with everything embedded: they work offline
and without JavaScript. Nothing can be changed through the server.

It listens on 127.0.0.1:8080 unless --listen says otherwise; an address
other machines can reach (e.g. 0.0.0.0:8080) is warned about. Requests
are answered only for the listen address, localhost (for a loopback or
every-address listen), any address (for an every-address listen) and the
names --allow-host gives; any other Host header is refused (421), so that
a web page cannot reach the server through a name it points here (DNS
rebinding).
--metrics also samples this machine and serves the samples to Prometheus
on /metrics (see docs/prometheus.md). Ctrl-C stops the server.

A JSON API answers beside the pages: GET /api/v1/results (the table's
filters, sort and paging) and GET /api/v1/results/ID (one result as
stored). --accept-uploads also takes results on POST /api/v1/results
with a token made by 'boardbench lab token add NAME' (docs/lab.md); a
token is taken only over TLS (--tls-cert/--tls-key, or a reverse proxy
that speaks https to the boards and plain http to a loopback --listen),
unless --insecure-uploads says a plain network is trusted.`,
		Example: `  boardbench serve
  boardbench serve --store /srv/boardbench/results.db --listen 0.0.0.0:8080 --allow-host bench.lan
  boardbench serve --store postgres://bench@db/boardbench --metrics
  boardbench serve --store postgres://bench@db/boardbench --accept-uploads \
      --listen 0.0.0.0:8443 --tls-cert lab.crt --tls-key lab.key`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWith(cmd.Context(), f, listen, allowHosts, metrics, up)
		},
	}
	up.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&listen, "listen", DefaultListen, "listen on `HOST:PORT`")
	cmd.Flags().StringArrayVar(&allowHosts, "allow-host", nil, "also answer requests for host `NAME` (repeatable)")
	cmd.Flags().BoolVar(&metrics, "metrics", false, "also sample this machine and serve Prometheus metrics on /metrics")
	return cmd
}

func run(ctx context.Context, f *cmdutil.Factory, listen string, allowHosts []string, metrics bool) error {
	return runWith(ctx, f, listen, allowHosts, metrics, uploadOptions{})
}

func runWith(ctx context.Context, f *cmdutil.Factory, listen string, allowHosts []string, metrics bool, up uploadOptions) error {
	if err := checkListen(listen); err != nil {
		return err
	}
	if err := up.check(listen); err != nil {
		return err
	}
	hosts, err := serve.NewHostPolicy(listen, allowHosts)
	if err != nil {
		return cmdutil.Usagef("%v", err)
	}
	if f.Store.Off {
		return &cmdutil.UsageError{Err: cmdstore.ErrNoStore}
	}
	// --store (the root command's) names the store; serve only reads it,
	// and never creates one.
	st, err := store.OpenReadOnly(ctx, f.Store.Spec)
	if errors.Is(err, store.ErrNoSuchStore) {
		return cmdutil.Usagef("%v (serve shows an existing store; results are saved to it by the measuring commands or 'boardbench import')", err)
	} else if err != nil {
		return err
	}
	defer st.Close()
	uploads, closeUploads, err := up.open(ctx, f.Store.Spec)
	if err != nil {
		return err
	}
	defer closeUploads()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) {
			return cmdutil.Usagef("--listen %s: %v", listen, err)
		}
		return fmt.Errorf("--listen %s: %v", listen, err)
	}
	if tln, err := up.tlsListener(ln); err != nil {
		ln.Close()
		return err
	} else {
		ln = tln
	}
	cfg := serve.Config{Store: st, ErrorLog: log.New(f.IO.ErrOut, "boardbench: serve: ", 0), Charts: page.Charts, Hosts: hosts, Uploads: uploads}
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
	scheme := "http"
	if up.tlsCert != "" {
		scheme = "https"
	}
	if uploads != nil {
		fmt.Fprintf(f.IO.ErrOut, "boardbench: taking uploads with a token on %s://%s/api/v1/results\n", scheme, shownAddr(listen, ln.Addr()))
	}
	fmt.Fprintf(f.IO.ErrOut, "boardbench: serving %s on %s://%s/ (Ctrl-C stops)\n", store.Where(st), scheme, shownAddr(listen, ln.Addr()))
	srv := serve.NewHTTPServer(listen, serve.New(cfg).Handler())
	return promhttp.ServeUntil(ctx, srv, ln, 5*time.Second) // Ctrl-C: the normal end
}

// startMetrics samples the live machine in the background and returns
// the /metrics handler of its samples.
func startMetrics(ctx context.Context, f *cmdutil.Factory) (http.Handler, error) {
	h, err := f.NewHost("/")
	if err != nil {
		return nil, err
	}
	in := inventory.ForMonitoring(h)
	mcfg := monitor.ConfigFor(h, in)
	mcfg.Interval = 5 * time.Second
	m := monitor.New(h, mcfg)
	counters := promexport.NewCounters(h, mcfg)
	counters.Update(ctx)
	go m.Run(ctx, func(monitor.Sample) { counters.Update(ctx) })
	return promhttp.Handler(promexport.New(m, mcfg, in, counters)), nil
}

// checkListen checks --listen before anything is opened: HOST:PORT with a
// port from 0 to 65535 (or a service name); anything else is bad input.
func checkListen(listen string) error {
	_, port, err := net.SplitHostPort(listen)
	if err != nil {
		return cmdutil.Usagef("--listen %q: %v (e.g. 127.0.0.1:8080)", listen, err)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return cmdutil.Usagef("--listen %q: port %q: want a number from 0 to 65535 (e.g. 127.0.0.1:8080)", listen, port)
	}
	return nil
}

// shownAddr is the address to print for --listen: the host as the user
// gave it (0.0.0.0 stays 0.0.0.0, not Go's "[::]"), with the port the
// listener got (which differs for port 0); the listener's own host when
// none was given.
func shownAddr(listen string, got net.Addr) string {
	host, _, _ := net.SplitHostPort(listen)
	gotHost, gotPort, err := net.SplitHostPort(got.String())
	if err != nil {
		return got.String()
	}
	if host == "" {
		host = gotHost
	}
	return net.JoinHostPort(host, gotPort)
}
