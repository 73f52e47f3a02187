package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"boardbench/internal/result"
	"boardbench/internal/serve/page"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
)

// blockingStore is a store whose Get waits until released, counting the
// calls in flight.
type blockingStore struct {
	*servetest.MemStore
	entered chan struct{}
	release chan struct{}
	mu      sync.Mutex
	now     int
	peak    int
}

func (b *blockingStore) Get(ctx context.Context, id string) ([]byte, error) {
	b.mu.Lock()
	b.now++
	b.peak = max(b.peak, b.now)
	b.mu.Unlock()
	b.entered <- struct{}{}
	<-b.release
	b.mu.Lock()
	b.now--
	b.mu.Unlock()
	return b.MemStore.Get(ctx, id)
}

// TestDBWorkBounded: with MaxDBWork requests reading the store and
// MaxDBQueue waiting, the next request is answered 503 at once, and the
// store never sees more than MaxDBWork requests at a time.
func TestDBWorkBounded(t *testing.T) {
	const work, queue = 2, 1
	st := &blockingStore{MemStore: servetest.Fill(3), entered: make(chan struct{}, 16), release: make(chan struct{})}
	s := New(Config{Store: st, MaxDBWork: work, MaxDBQueue: queue, Timeout: time.Hour})
	h := s.Handler()
	target := "/results/00000000000000000000000000000001.json"
	codes := make(chan int, work+queue)
	for range work + queue {
		go func() { codes <- get(t, h, target).Code }()
	}
	for range work {
		<-st.entered // the first ones are reading the store
	}
	// The last one waits for a slot once it holds its place in the queue.
	for len(s.work.queue) < work+queue {
		runtime.Gosched()
	}
	if rec := get(t, h, target); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a request beyond the queue: %d (Retry-After %q), want 503 at once", rec.Code, rec.Header().Get("Retry-After"))
	}
	close(st.release)
	for range work + queue {
		if c := <-codes; c != http.StatusOK {
			t.Errorf("an admitted request: %d, want 200", c)
		}
	}
	if st.peak > work {
		t.Errorf("%d requests read the store at once, want at most %d", st.peak, work)
	}
}

// TestHostHeader checks the Host policy against DNS rebinding: the listen
// address, localhost for loopback and every-address listens, any address
// literal for an every-address listen, and --allow-host names.
func TestHostHeader(t *testing.T) {
	for _, c := range []struct {
		listen string
		allow  []string
		host   string
		ok     bool
	}{
		{"127.0.0.1:8080", nil, "127.0.0.1:8080", true},
		{"127.0.0.1:8080", nil, "localhost:8080", true},
		{"127.0.0.1:8080", nil, "LOCALHOST.:8080", true},
		{"127.0.0.1:8080", nil, "[::1]:8080", true},
		{"127.0.0.1:8080", nil, "127.0.0.1", true},
		{"127.0.0.1:8080", nil, "", true},
		{"127.0.0.1:8080", nil, "attacker.example:8080", false},
		{"127.0.0.1:8080", nil, "localhost.attacker.example", false},
		{"127.0.0.1:8080", nil, "192.168.1.5:8080", false},
		{"127.0.0.1:8080", []string{"bench.lan"}, "bench.lan:8080", true},
		{"[::1]:8080", nil, "[::1]:8080", true},
		{"[::1]:8080", nil, "localhost:8080", true},
		{"localhost:8080", nil, "localhost:8080", true},
		{"localhost:8080", nil, "127.0.0.1:8080", true},
		{"0.0.0.0:8080", nil, "192.168.1.5:8080", true},
		{"0.0.0.0:8080", nil, "localhost:8080", true},
		{"0.0.0.0:8080", nil, "[fe80::1]:8080", true},
		{"0.0.0.0:8080", nil, "rockpi.lan:8080", false},
		{"0.0.0.0:8080", []string{"rockpi.lan", "other:9"}, "RockPi.lan:8080", true},
		{"0.0.0.0:8080", []string{"rockpi.lan", "other:9"}, "other", true},
		{":8080", nil, "10.0.0.2:8080", true},
		{":8080", nil, "evil.example", false},
		{"192.168.1.5:8080", nil, "192.168.1.5:8080", true},
		{"192.168.1.5:8080", nil, "localhost:8080", false},
		{"192.168.1.5:8080", nil, "10.0.0.2:8080", false},
		{"192.168.1.5:8080", []string{"10.0.0.2"}, "10.0.0.2:8080", true},
		{"bench.lan:8080", nil, "bench.lan", true},
		{"bench.lan:8080", nil, "evil.lan", false},
	} {
		p, err := NewHostPolicy(c.listen, c.allow)
		if err != nil {
			t.Fatalf("NewHostPolicy(%q, %q): %v", c.listen, c.allow, err)
		}
		if got := p.Allows(c.host); got != c.ok {
			t.Errorf("listen %s, allow %q: Host %q allowed = %v, want %v", c.listen, c.allow, c.host, got, c.ok)
		}
	}
	for _, bad := range []string{"", "a b", "x/y"} {
		if _, err := NewHostPolicy("127.0.0.1:8080", []string{bad}); err == nil {
			t.Errorf("--allow-host %q accepted", bad)
		}
	}
	// Through the handler: 421 for a refused name, on every page.
	hosts, _ := NewHostPolicy("127.0.0.1:8080", nil)
	h := New(Config{Store: servetest.Fill(3), Hosts: hosts}).Handler()
	for _, target := range []string{"/", "/results/00000000000000000000000000000001", "/results/00000000000000000000000000000001.json",
		"/compare?id=00000000000000000000000000000001&id=00000000000000000000000000000002"} {
		for host, want := range map[string]int{"127.0.0.1:8080": http.StatusOK, "localhost:8080": http.StatusOK, "rebind.attacker.example:8080": http.StatusMisdirectedRequest} {
			req := httptest.NewRequest("GET", target, nil)
			req.Host = host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != want {
				t.Errorf("GET %s with Host %s: %d, want %d", target, host, rec.Code, want)
			}
			if want != http.StatusOK && strings.Contains(rec.Body.String(), "Radxa") {
				t.Errorf("GET %s with Host %s: the refusal shows results", target, host)
			}
		}
	}
}

// TestHugeResultServed serves a result with 100,000 monitor lines: the
// page is answered and stays bounded (see page.TestHugeResultPageBounded).
func TestHugeResultServed(t *testing.T) {
	r, rec := servetest.Huge(0, 100_000)
	doc, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	st := servetest.NewMemStore()
	st.Add(rec, doc)
	h := New(Config{Store: st, Charts: page.Charts, Timeout: time.Hour}).Handler()
	res := get(t, h, "/results/"+rec.ID)
	if res.Code != http.StatusOK {
		t.Fatalf("%d: %s", res.Code, res.Body.String())
	}
	if n := res.Body.Len(); n > 2<<20 || n*4 > len(doc) {
		t.Errorf("the page of a %d-byte result is %d bytes, want at most 2 MiB and a quarter of the result", len(doc), n)
	}
}

// TestCancelledRequestIsNotRendered: a request whose context has ended
// (its deadline passed, its client left) draws no chart and writes no
// page.
func TestCancelledRequestIsNotRendered(t *testing.T) {
	var drawn []error
	var mu sync.Mutex
	charts := func(ctx context.Context, r *result.Result) ([]page.Chart, int, error) {
		cs, n, err := page.Charts(ctx, r)
		mu.Lock()
		drawn = append(drawn, err)
		mu.Unlock()
		return cs, n, err
	}
	h := New(Config{Store: servetest.Fill(3), Charts: charts}).Handler()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest("GET", "/results/00000000000000000000000000000001", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if strings.Contains(rec.Body.String(), `id="title"`) {
		t.Error("a cancelled request got its page")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(drawn) > 0 {
		t.Errorf("charts were drawn for a cancelled request: %v", drawn)
	}
}

var _ store.Store = (*blockingStore)(nil)
