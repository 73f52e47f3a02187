package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/labapi"
	"boardbench/internal/store"
)

// Uploads configures serve --accept-uploads: POST /api/v1/results.
type Uploads struct {
	// Store is where uploads go: Config.Store's store, opened for writing.
	Store store.Store
	// MaxBytes bounds an uploaded document; 0 means
	// labapi.DefaultMaxUploadBytes.
	MaxBytes int
	// Rate is the uploads a second each token may make on average, Burst
	// how many at once; Rate 0 means no limit. The limit is kept by this
	// process (two servers on one store each allow it).
	Rate  float64
	Burst int
	// Insecure accepts a token over plain HTTP from another machine
	// (--insecure-uploads); otherwise only TLS connections and
	// connections to a loopback address (a reverse proxy on this
	// machine) may upload.
	Insecure bool
	// Now is the rate limit's clock; nil means time.Now.
	Now func() time.Time
}

// Default rate limit of uploads per token.
const (
	DefaultUploadRate  = 10.0
	DefaultUploadBurst = 100
)

// addAPI registers the JSON API: the list and one raw result always
// (read-only), the upload when cfg.Uploads is set.
func (s *Server) addAPI() {
	s.mux.HandleFunc("GET "+labapi.ResultsPath, s.apiLimited(s.apiList))
	s.mux.HandleFunc("GET "+labapi.ResultsPath+"/{id}", s.apiLimited(s.apiGet))
	if s.cfg.Uploads != nil {
		s.rate = newRateLimit(s.cfg.Uploads.Rate, s.cfg.Uploads.Burst, s.cfg.Uploads.Now)
		s.mux.HandleFunc("POST "+labapi.ResultsPath, s.apiUpload)
	}
}

// allowsMethod reports whether the request's method is one the server
// answers: GET and HEAD, and POST to the upload path when uploads are on.
func (s *Server) allowsMethod(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return true
	case http.MethodPost:
		return s.cfg.Uploads != nil && r.URL.Path == labapi.ResultsPath
	}
	return false
}

// apiError answers an API error as JSON.
func apiError(w http.ResponseWriter, code int, format string, args ...any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(labapi.ErrorAnswer{Error: labapi.ErrorDetail{Status: code, Message: fmt.Sprintf(format, args...)}})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// apiLimited runs h when the work limit admits the request, else answers
// 503 (JSON) with Retry-After.
func (s *Server) apiLimited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.work.acquire(r.Context()) {
			w.Header().Set("Retry-After", "1")
			apiError(w, http.StatusServiceUnavailable, "the server is answering as many requests as it allows; try again in a moment")
			return
		}
		defer s.work.release()
		h(w, r)
	}
}

// apiStoreError answers a store failure as JSON: 404, 503 for a database
// that refuses connections for now (the client tries again), 504, 500.
func (s *Server) apiStoreError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		apiError(w, http.StatusNotFound, "no result with this id")
	case store.IsTransient(err):
		s.logf("%s: %v", r.URL.Path, err)
		w.Header().Set("Retry-After", "1")
		apiError(w, http.StatusServiceUnavailable, "the store is busy; try again in a moment")
	case errors.Is(err, context.DeadlineExceeded) || r.Context().Err() != nil:
		apiError(w, http.StatusGatewayTimeout, "the store did not answer in time")
	default:
		s.logf("%s: %v", r.URL.Path, err)
		apiError(w, http.StatusInternalServerError, "the store failed to answer; see the server's log")
	}
}

// apiList serves GET /api/v1/results: the table's filters, sort and
// paging (the same parameters as /), as JSON.
func (s *Server) apiList(w http.ResponseWriter, r *http.Request) {
	v, err := queryValues(r)
	if err != nil {
		apiError(w, http.StatusBadRequest, "%v", err)
		return
	}
	p, err := parseTable(v)
	if err != nil {
		apiError(w, http.StatusBadRequest, "%v", err)
		return
	}
	recs, total, err := s.cfg.Store.List(r.Context(), p.q)
	if err != nil {
		s.apiStoreError(w, r, err)
		return
	}
	if recs == nil {
		recs = []store.Record{}
	}
	for i := range recs {
		recs[i].Figures = finiteFigures(recs[i].Figures)
	}
	writeJSON(w, http.StatusOK, labapi.ListAnswer{Total: total, Page: p.page, PerPage: p.per, Results: recs})
}

// finiteFigures drops figures JSON cannot carry (the store keeps only
// finite ones; this keeps the answer valid whatever it holds).
func finiteFigures(m map[string]float64) map[string]float64 {
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			delete(m, k)
		}
	}
	return m
}

// apiGet serves GET /api/v1/results/{id}: the stored document, as stored.
func (s *Server) apiGet(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !store.ValidID(id) {
		apiError(w, http.StatusBadRequest, "a result id is 8 to 64 lowercase hexadecimal digits")
		return
	}
	doc, err := s.cfg.Store.Get(r.Context(), id)
	if err != nil {
		s.apiStoreError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(doc)
}

// plainFromNetwork reports whether r came over plain HTTP to an address
// other machines reach: a token must not be taken from it.
func plainFromNetwork(r *http.Request) bool {
	if r.TLS != nil {
		return false
	}
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return true
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// bearer returns the request's bearer token, "" when it has none.
func bearer(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	tok = strings.TrimSpace(tok)
	if len(tok) > 256 {
		return ""
	}
	return tok
}

// apiUpload serves POST /api/v1/results: one result document with a
// bearer token. In order: plain HTTP from the network is refused (403),
// a missing or unknown token is 401, a revoked one 403, a token over its
// rate 429; then the body, bounded (413), is checked as a stranger's
// file (labapi.CheckUpload: 400, 413) and stored with the token's name.
// A result the store holds already is a success (200) that changes
// nothing, so a retry is safe; a new one is 201 with its page's URL.
func (s *Server) apiUpload(w http.ResponseWriter, r *http.Request) {
	up := s.cfg.Uploads
	if plainFromNetwork(r) && !up.Insecure {
		apiError(w, http.StatusForbidden, "a token is not accepted over plain HTTP from another machine: use https (serve --tls-cert/--tls-key, or a reverse proxy, docs/lab.md)")
		return
	}
	tok := bearer(r)
	if tok == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="boardbench"`)
		apiError(w, http.StatusUnauthorized, "an upload needs a token: Authorization: Bearer TOKEN")
		return
	}
	maxBytes := up.MaxBytes
	if maxBytes <= 0 {
		maxBytes = labapi.DefaultMaxUploadBytes
	}
	if r.ContentLength > int64(maxBytes) {
		apiError(w, http.StatusRequestEntityTooLarge, "the document has %d bytes; this lab takes at most %d", r.ContentLength, maxBytes)
		return
	}
	if !s.work.acquire(r.Context()) {
		w.Header().Set("Retry-After", "1")
		apiError(w, http.StatusServiceUnavailable, "the server is answering as many requests as it allows; try again in a moment")
		return
	}
	defer s.work.release()
	ctx := r.Context()
	name, err := store.CheckToken(ctx, up.Store, tok)
	switch {
	case errors.Is(err, store.ErrTokenUnknown):
		w.Header().Set("WWW-Authenticate", `Bearer realm="boardbench", error="invalid_token"`)
		apiError(w, http.StatusUnauthorized, "unknown token")
		return
	case errors.Is(err, store.ErrTokenRevoked):
		apiError(w, http.StatusForbidden, "the token %q was revoked", name)
		return
	case err != nil:
		s.apiStoreError(w, r, err)
		return
	}
	if ok, wait := s.rate.allow(name); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		apiError(w, http.StatusTooManyRequests, "the token %q is over its rate of uploads; try again in %d s", name, int(math.Ceil(wait.Seconds())))
		return
	}
	doc, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(maxBytes)))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			apiError(w, http.StatusRequestEntityTooLarge, "the document is larger than %d bytes, the most this lab takes", maxBytes)
			return
		}
		apiError(w, http.StatusBadRequest, "reading the document: %v", err)
		return
	}
	if _, err := labapi.CheckUpload(doc, maxBytes); err != nil {
		var rf *labapi.Refusal
		if errors.As(err, &rf) {
			apiError(w, rf.Status, "%s", rf.Msg)
			return
		}
		apiError(w, http.StatusBadRequest, "%v", err)
		return
	}
	id, created, err := store.PutUpload(ctx, up.Store, doc, name)
	if err != nil {
		s.apiStoreError(w, r, err)
		return
	}
	ans := labapi.UploadAnswer{ID: id, Created: created, URL: labapi.PagePrefix + id, Raw: labapi.ResultsPath + "/" + id}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
		w.Header().Set("Location", ans.URL)
	}
	writeJSON(w, code, ans)
}
