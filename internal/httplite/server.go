package httplite

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Answer is what a Route returns for a request.
type Answer struct {
	Status      int // 0 means 200
	ContentType string
	Body        []byte
}

// Route answers GET (and HEAD) requests for one path.
type Route struct {
	Path   string
	Answer func() Answer
}

// Server answers GET and HEAD for a fixed set of paths, one request per
// connection (it answers "Connection: close"). The zero timeouts take the
// defaults below.
type Server struct {
	Routes       []Route
	ReadTimeout  time.Duration // request line and headers; default 10 s
	WriteTimeout time.Duration // the answer; default 15 s
	MaxConns     int           // connections served at once; default 16, more are closed at once
}

// Serve answers on ln until ctx is done, then closes ln and waits up to
// grace for requests in flight before closing their connections. The end
// that ctx asks for is a normal one (nil); any other failure to accept is
// returned.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	readTO, writeTO, maxConns := s.ReadTimeout, s.WriteTimeout, s.MaxConns
	if readTO <= 0 {
		readTO = 10 * time.Second
	}
	if writeTO <= 0 {
		writeTO = 15 * time.Second
	}
	if maxConns <= 0 {
		maxConns = 16
	}
	var (
		mu    sync.Mutex
		conns = map[net.Conn]struct{}{}
		wg    sync.WaitGroup
	)
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	var err error
	for {
		var c net.Conn
		c, err = ln.Accept()
		if err != nil {
			var ne net.Error
			if ctx.Err() == nil && errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			break
		}
		mu.Lock()
		if len(conns) >= maxConns {
			mu.Unlock()
			_ = c.Close()
			continue
		}
		conns[c] = struct{}{}
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveConn(c, readTO, writeTO)
			_ = c.Close()
			mu.Lock()
			delete(conns, c)
			mu.Unlock()
		}()
	}
	if ctx.Err() == nil {
		return err
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		mu.Lock()
		for c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		<-done
	}
	return nil
}

// serveConn reads one request from c and answers it.
func (s *Server) serveConn(c net.Conn, readTO, writeTO time.Duration) {
	_ = c.SetReadDeadline(time.Now().Add(readTO))
	method, target, err := readRequest(c)
	_ = c.SetWriteDeadline(time.Now().Add(writeTO))
	if err != nil {
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !isTimeout(err) {
			writeAnswer(c, "GET", Answer{Status: 400, ContentType: "text/plain; charset=utf-8", Body: []byte("bad request\n")}, nil)
		}
		return
	}
	path, _, _ := strings.Cut(target, "?")
	if i := strings.Index(path, "://"); i >= 0 { // absolute form
		path = path[i+3:]
		if j := strings.IndexByte(path, '/'); j >= 0 {
			path = path[j:]
		} else {
			path = "/"
		}
	}
	for _, r := range s.Routes {
		if r.Path != path {
			continue
		}
		if method != "GET" && method != "HEAD" {
			writeAnswer(c, method, Answer{Status: 405, ContentType: "text/plain; charset=utf-8", Body: []byte("method not allowed\n")},
				[]string{"Allow: GET, HEAD"})
			return
		}
		writeAnswer(c, method, r.Answer(), nil)
		return
	}
	writeAnswer(c, method, Answer{Status: 404, ContentType: "text/plain; charset=utf-8", Body: []byte("404 page not found\n")}, nil)
}

// readRequest reads a request line and headers (at most MaxHeaderBytes).
func readRequest(c net.Conn) (method, target string, err error) {
	lr := &io.LimitedReader{R: c, N: MaxHeaderBytes}
	tp := textproto.NewReader(bufio.NewReader(lr))
	line, err := tp.ReadLine()
	if err != nil {
		return "", "", headErr(lr, err)
	}
	parts := strings.Split(line, " ")
	if len(parts) != 3 || !strings.HasPrefix(parts[2], "HTTP/1.") || parts[0] == "" || parts[1] == "" {
		return "", "", fmt.Errorf("malformed request line %q", short(line))
	}
	if _, err := tp.ReadMIMEHeader(); err != nil {
		return "", "", headErr(lr, err)
	}
	return parts[0], parts[1], nil
}

// writeAnswer writes a as an HTTP/1.1 response; HEAD gets no body.
func writeAnswer(w io.Writer, method string, a Answer, extra []string) {
	if a.Status == 0 {
		a.Status = 200
	}
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", a.Status, statusText(a.Status))
	if a.ContentType != "" {
		b.WriteString("Content-Type: " + a.ContentType + "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(a.Body)) + "\r\n")
	b.WriteString("X-Content-Type-Options: nosniff\r\nConnection: close\r\n")
	b.WriteString("Date: " + time.Now().UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT") + "\r\n")
	for _, h := range extra {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n")
	if method == "HEAD" {
		_, _ = io.WriteString(w, b.String())
		return
	}
	_, _ = w.Write(append([]byte(b.String()), a.Body...))
}

// statusText is the reason phrase of the statuses Server sends.
func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 400:
		return "Bad Request"
	case 404:
		return "Not Found"
	case 405:
		return "Method Not Allowed"
	case 500:
		return "Internal Server Error"
	case 503:
		return "Service Unavailable"
	}
	return "Status " + strconv.Itoa(code)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
