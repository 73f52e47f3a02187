package httplite

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// hangGuard only ends a test that would otherwise hang; no test depends
// on finishing within it.
const hangGuard = 2 * time.Minute

// rawServer answers every connection with answer after reading the
// request head; it sends the request it saw on got.
func rawServer(t *testing.T, answer string) (*url.URL, <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan string, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				var head strings.Builder
				for {
					line, err := r.ReadString('\n')
					head.WriteString(line)
					if err != nil || line == "\r\n" {
						break
					}
				}
				got <- head.String()
				io.WriteString(c, answer)
			}()
		}
	}()
	u, _ := url.Parse("http://" + ln.Addr().String() + "/status")
	return u, got
}

func TestGet(t *testing.T) {
	for _, c := range []struct {
		name, answer string
		max          int64
		code         int
		body, err    string
	}{
		{"content length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 100, 200, "hello", ""},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nhel\r\n2\r\nlo\r\n0\r\nTrailer: 1\r\n\r\n", 100, 200, "hello", ""},
		{"until close", "HTTP/1.0 200 OK\r\n\r\nhello", 100, 200, "hello", ""},
		{"continue first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 100, 200, "ok", ""},
		{"not found", "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 100, 404, "", ""},
		{"length too large", "HTTP/1.1 200 OK\r\nContent-Length: 101\r\n\r\n", 100, 0, "", "too large"},
		{"close too large", "HTTP/1.1 200 OK\r\n\r\n" + strings.Repeat("x", 101), 100, 0, "", "too large"},
		{"chunked too large", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n" + strings.Repeat("x", 101) + "\r\n0\r\n\r\n", 100, 0, "", "too large"},
		{"short body", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello", 100, 0, "", "unexpected EOF"},
		{"bad chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 100, 0, "", "malformed chunk size"},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 100, 0, "", "bad Content-Length"},
		{"gzip coding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", 100, 0, "", "unsupported transfer coding"},
		{"not http", "SSH-2.0-OpenSSH\r\n\r\n", 100, 0, "", "malformed HTTP response"},
		{"bad code", "HTTP/1.1 2x0 OK\r\n\r\n", 100, 0, "", "malformed HTTP status code"},
		{"nothing", "", 100, 0, "", "unexpected EOF"},
		{"endless header", "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", MaxHeaderBytes) + "\r\n\r\n", 100, 0, "", "HTTP header larger than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, _ := rawServer(t, c.answer)
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			resp, err := Get(ctx, u, c.max)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.code || string(resp.Body) != c.body {
				t.Errorf("got %d %q, want %d %q", resp.StatusCode, resp.Body, c.code, c.body)
			}
		})
	}
}

func TestGetSendsOneRequestWithBasicAuth(t *testing.T) {
	u, got := rawServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
	u.User = url.UserPassword("admin", "s3cret")
	u.RawQuery = "a=1"
	if _, err := Get(context.Background(), u, 10); err != nil {
		t.Fatal(err)
	}
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(<-got)))
	if err != nil {
		t.Fatal(err)
	}
	user, pw, ok := req.BasicAuth()
	if req.Method != "GET" || req.RequestURI != "/status?a=1" || req.Host != u.Host || !ok || user != "admin" || pw != "s3cret" || !req.Close {
		t.Errorf("request %s %s host %s auth %v %q %q close %v", req.Method, req.RequestURI, req.Host, ok, user, pw, req.Close)
	}
}

// TestGetEndsWithItsContext: a server that never answers is left when
// the context ends.
func TestGetEndsWithItsContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	u, _ := url.Parse("http://" + ln.Addr().String() + "/")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Get(ctx, u, 10); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := Get(ctx, u, 10); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
}

func TestGetRefusesOtherSchemes(t *testing.T) {
	for _, s := range []string{"ftp://h/x", "http:///x"} {
		u, _ := url.Parse(s)
		if _, err := Get(context.Background(), u, 10); err == nil {
			t.Errorf("%s: no error", s)
		}
	}
}

func TestServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Routes: []Route{
		{Path: "/metrics", Answer: func() Answer { return Answer{ContentType: "text/plain", Body: []byte("m 1\n")} }},
		{Path: "/broken", Answer: func() Answer { return Answer{Status: 500, Body: []byte("no\n")} }},
	}}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, time.Second) }()
	base := "http://" + ln.Addr().String()
	for _, c := range []struct {
		method, path string
		code         int
		body         string
	}{
		{"GET", "/metrics", 200, "m 1\n"},
		{"GET", "/metrics?x=1", 200, "m 1\n"},
		{"HEAD", "/metrics", 200, ""},
		{"POST", "/metrics", 405, "method not allowed\n"},
		{"GET", "/broken", 500, "no\n"},
		{"GET", "/other", 404, "404 page not found\n"},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", c.method, c.path, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || string(b) != c.body {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, resp.StatusCode, b, c.code, c.body)
		}
		if c.code == 200 && resp.Header.Get("Content-Type") != "text/plain" {
			t.Errorf("%s %s: content type %q", c.method, c.path, resp.Header.Get("Content-Type"))
		}
	}
	// A malformed request gets a 400; our own client reads it.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "NONSENSE\r\n\r\n")
	resp, err := readResponse(bufio.NewReader(c), 100)
	c.Close()
	if err != nil || resp.StatusCode != 400 {
		t.Errorf("malformed request: %v %v", resp, err)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve after its context ended: %v", err)
	}
}

// TestServerClosesIdleConnectionsAtTheEnd: a client that connects and
// says nothing does not hold Serve past its grace.
func TestServerClosesIdleConnectionsAtTheEnd(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{ReadTimeout: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln, 10*time.Millisecond) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(hangGuard):
		t.Fatal("Serve did not end")
	}
}
