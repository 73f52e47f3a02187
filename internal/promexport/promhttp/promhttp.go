// Package promhttp serves the Prometheus exporter through net/http, for
// the full build's `serve --metrics`; a board build's `monitor
// --prometheus` uses promexport.Serve, which needs no net/http (that is
// why this lives apart: importing it links net/http's server).
package promhttp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"boardbench/internal/promexport"
)

// Handler returns the /metrics handler of e.
func Handler(e *promexport.Exporter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := promexport.Answer(e)
		w.Header().Set("Content-Type", a.ContentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(a.Body)))
		if a.Status != 0 {
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(a.Status)
		}
		_, _ = w.Write(a.Body)
	})
}

// ServeUntil serves srv on ln until ctx is done, then shuts srv down,
// letting requests in flight finish for up to grace. The end that ctx
// asks for is a normal one (nil); any other failure to serve is returned.
func ServeUntil(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), grace)
			defer cancel()
			_ = srv.Shutdown(sctx)
		case <-done:
		}
	}()
	err := srv.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
