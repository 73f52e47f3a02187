// Package serve is `boardbench serve`'s read-only web view over a results
// store: the results table (sorted, filtered and paged on the server), a
// page per result with its findings, charts and raw JSON, and a
// comparison page, and a JSON API beside them (api.go). No endpoint
// changes the store but the upload of Config.Uploads (serve
// --accept-uploads: POST /api/v1/results with a token, docs/lab.md);
// every parameter is checked before it reaches the store (a bad one is a
// 400), every request has a deadline, and pages are plain HTML from
// embedded templates.
package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"log"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	refset "boardbench/internal/reference"
	"boardbench/internal/result"
	"boardbench/internal/serve/page"
	"boardbench/internal/store"
)

// Limits of the request parameters.
const (
	DefaultPageSize = 50
	MaxPageSize     = 500
	MaxPage         = 1_000_000
	MaxTextLen      = 100
	MaxCompare      = 8
	// RequestTimeout bounds the work of one request.
	RequestTimeout = 10 * time.Second
)

// Config is what the server serves.
type Config struct {
	Store store.Store
	// Charts draws a result's charts; nil leaves them out.
	Charts page.ChartFunc
	// Metrics, when set, is served on /metrics (serve --metrics).
	Metrics http.Handler
	// ErrorLog receives internal errors (never shown in pages); nil discards them.
	ErrorLog *log.Logger
	// Hosts are the Host headers answered (NewHostPolicy); nil answers
	// every one (tests).
	Hosts *HostPolicy
	// MaxDBWork is how many requests read the store at once, MaxDBQueue
	// how many more may wait for a turn (their context bounds the wait);
	// others are answered 503 at once. 0 means DefaultMaxDBWork and
	// DefaultMaxDBQueue.
	MaxDBWork, MaxDBQueue int
	// Timeout bounds each request's work; 0 means RequestTimeout (tests
	// of big pages on a loaded machine give more).
	Timeout time.Duration
	// Uploads, when set, takes uploads on POST /api/v1/results (api.go).
	Uploads *Uploads
}

// Server answers the web view's requests.
type Server struct {
	cfg  Config
	mux  *http.ServeMux
	work *workLimit
	rate *rateLimit

	socMu   sync.Mutex
	socs    []string
	socTime time.Time
	// kinds is the Kind menu, read as the SoC menu is (at most every 30 s).
	kinds     []string
	kindsTime time.Time
}

// New returns the server of cfg.
func New(cfg Config) *Server {
	queue := cfg.MaxDBQueue
	if queue == 0 {
		queue = DefaultMaxDBQueue
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), work: newWorkLimit(cfg.MaxDBWork, queue)}
	s.mux.HandleFunc("GET /{$}", s.limited(s.table))
	s.mux.HandleFunc("GET /results/{id}", s.limited(s.result))
	s.mux.HandleFunc("GET /compare", s.limited(s.compare))
	s.mux.HandleFunc("GET /reference", s.limited(s.reference))
	s.mux.HandleFunc("GET /reference/{soc}", s.limited(s.reference))
	if cfg.Metrics != nil {
		s.mux.Handle("GET /metrics", cfg.Metrics)
	}
	s.addAPI()
	return s
}

// Handler returns the server's handler: a request whose Host header the
// policy refuses is answered 421; every request is bounded by
// RequestTimeout (its context ends then, which stops the rendering),
// recovers from a panic with a 500, and gets security headers (no script,
// no framing, no external loads).
func (s *Server) Handler() http.Handler {
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				s.logf("panic serving %s: %v", r.URL.Path, v)
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}()
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		if !s.allowsMethod(r) {
			hd.Set("Allow", "GET, HEAD")
			http.Error(w, "read-only: only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		if !s.checkHost(w, r) {
			return
		}
		s.mux.ServeHTTP(w, r)
	}))
	timeout := s.cfg.Timeout
	if timeout <= 0 {
		timeout = RequestTimeout
	}
	return http.TimeoutHandler(h, timeout, "request timed out")
}

// NewHTTPServer returns an http.Server with every timeout set.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: RequestTimeout + 5*time.Second, IdleTimeout: 60 * time.Second, MaxHeaderBytes: 64 << 10}
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.ErrorLog != nil {
		s.cfg.ErrorLog.Printf(format, args...)
	}
}

// badRequest answers 400 with a page saying what was wrong.
func (s *Server) badRequest(w http.ResponseWriter, msg string) {
	s.errorPage(w, http.StatusBadRequest, "Bad request", msg)
}

func (s *Server) errorPage(w http.ResponseWriter, code int, title, msg string) {
	var b bytes.Buffer
	if err := page.WriteError(&b, title, msg); err != nil {
		http.Error(w, msg, code)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(b.Bytes())
}

// storeError answers a store failure: 404 for an unknown id, 504 when the
// request's deadline passed, else 500 (the detail goes to the log only).
func (s *Server) storeError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.errorPage(w, http.StatusNotFound, "Not found", "No result with this id.")
	case errors.Is(err, context.DeadlineExceeded) || r.Context().Err() != nil:
		s.errorPage(w, http.StatusGatewayTimeout, "Timed out", "The store did not answer in time.")
	default:
		s.logf("%s: %v", r.URL.Path, err)
		s.errorPage(w, http.StatusInternalServerError, "Error", "The store failed to answer; see the server's log.")
	}
}

// render writes a page built into a buffer, so that a template failure
// is a 500, not half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, write func(*bytes.Buffer) error) {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		s.logf("%s: rendering: %v", r.URL.Path, err)
		s.errorPage(w, http.StatusInternalServerError, "Error", "The page could not be rendered.")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b.Bytes())
}

// result serves /results/{id} (the page) and /results/{id}.json (the raw
// document, as stored).
func (s *Server) result(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("id")
	id, asJSON := strings.CutSuffix(raw, ".json")
	doc, ok := s.storedDoc(w, r, id)
	if !ok {
		return
	}
	if asJSON {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=\"boardbench-%s.json\"", id))
		_, _ = w.Write(doc)
		return
	}
	res, err := result.Parse(doc)
	if err != nil {
		s.logf("result %s: %v", id, err)
		s.errorPage(w, http.StatusInternalServerError, "Unreadable result", "The stored document is not a result this boardbench reads; its raw JSON is at /results/"+id+".json.")
		return
	}
	p, err := page.BuildResultContext(r.Context(), res, s.cfg.Charts)
	if err != nil {
		// The deadline passed (TimeoutHandler has answered 503) or the
		// client went away: the work stops here.
		s.logf("result %s: rendering stopped: %v", id, err)
		return
	}
	p.ID = id
	p.RawJSON = "/results/" + id + ".json"
	if rec, err := s.cfg.Store.Record(r.Context(), id); err == nil {
		p.Tags = rec.Tags
		for _, tag := range rec.Tags {
			p.TagLinks = append(p.TagLinks, page.Link{Text: tag, URL: template.URL("/?" + url.Values{"tag": {tag}, "kind": {AllKinds}}.Encode())})
		}
	}
	s.render(w, r, func(b *bytes.Buffer) error { return page.WriteResult(b, p) })
}

// queryValues parses the request's query string strictly: Go's
// r.URL.Query() silently drops a malformed pair (a ';' separator, a bad
// %-escape), which would serve a page for a query other than the one sent.
// The error says what is wrong, for a 400.
func queryValues(r *http.Request) (url.Values, error) {
	v, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("malformed query string: %v", err)
	}
	return v, nil
}

// socList returns the SoCs in the store for the filter menu (from the
// store's small table of counts, store.SoCs), read at most every 30 s.
func (s *Server) socList(ctx context.Context) []string {
	s.socMu.Lock()
	defer s.socMu.Unlock()
	if s.socs != nil && time.Since(s.socTime) < 30*time.Second {
		return s.socs
	}
	socs, err := store.SoCs(ctx, s.cfg.Store)
	if err != nil {
		s.logf("listing SoCs: %v", err)
		return s.socs
	}
	s.socs, s.socTime = socs, time.Now()
	return s.socs
}

// kindList returns the kinds in the store for the Kind menu (from the
// store's table of counts), read at most every 30 s.
func (s *Server) kindList(ctx context.Context) []string {
	s.socMu.Lock()
	defer s.socMu.Unlock()
	if s.kinds != nil && time.Since(s.kindsTime) < 30*time.Second {
		return s.kinds
	}
	kinds, err := store.Kinds(ctx, s.cfg.Store)
	if err != nil {
		s.logf("listing kinds: %v", err)
		return s.kinds
	}
	s.kinds, s.kindsTime = kinds, time.Now()
	return s.kinds
}

// reference serves /reference (the reference set's SoCs) and
// /reference/{soc} (one SoC's distributions, ?result=ID marking a stored
// result on them).
func (s *Server) reference(w http.ResponseWriter, r *http.Request) {
	set, err := refset.Embedded()
	if err != nil {
		s.errorPage(w, http.StatusInternalServerError, "Reference set unreadable", err.Error())
		return
	}
	soc := r.PathValue("soc")
	if soc == "" {
		var links []page.SoCLink
		for _, g := range set.Groups() {
			n := 0
			for _, e := range g.Entries {
				if e.Usable() {
					n++
				}
			}
			links = append(links, page.SoCLink{Label: g.Label, Key: g.Key, N: n})
		}
		s.render(w, r, func(b *bytes.Buffer) error { return page.WriteSoCIndex(b, links) })
		return
	}
	g, ok := set.Group(soc)
	if !ok {
		s.errorPage(w, http.StatusNotFound, "No reference results", "The reference set holds no result of this SoC; /reference lists those it holds.")
		return
	}
	q, err := queryValues(r)
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}
	var marked *result.Result
	if id := q.Get("result"); id != "" {
		doc, ok := s.storedDoc(w, r, id)
		if !ok {
			return
		}
		var err error
		if marked, err = result.Parse(doc); err != nil {
			s.errorPage(w, http.StatusInternalServerError, "Unreadable result", "The stored document is not a result this boardbench reads.")
			return
		}
	}
	p := page.BuildSoCPage(g, marked)
	s.render(w, r, func(b *bytes.Buffer) error { return page.WriteSoC(b, p) })
}

// storedDoc returns the stored document of the result id, or answers the
// request itself (400 for an id that is not one, the store's error) and
// returns false.
func (s *Server) storedDoc(w http.ResponseWriter, r *http.Request, id string) ([]byte, bool) {
	if !store.ValidID(id) {
		s.badRequest(w, "A result id is 8 to 64 lowercase hexadecimal digits.")
		return nil, false
	}
	doc, err := s.cfg.Store.Get(r.Context(), id)
	if err != nil {
		s.storeError(w, r, err)
		return nil, false
	}
	return doc, true
}
