// Package httplite is the small HTTP/1.1 that a board build needs: a GET
// client for networked power meters and a responder for the Prometheus
// exporter's /metrics. It stands in for net/http's client and server,
// which with crypto/tls weigh 2.5 MB more in the static arm64 board
// binary (proxies, cookies, redirects, TLS); docs/architecture.md,
// "Board builds". Every read is bounded in bytes and time.
package httplite

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// MaxHeaderBytes bounds the status or request line and headers read.
const MaxHeaderBytes = 64 << 10

// Response is a complete answer to a GET.
type Response struct {
	StatusCode int
	Status     string // "404 Not Found"
	Header     textproto.MIMEHeader
	Body       []byte
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrTooLarge is returned (wrapped) when an answer's body is larger than
// the limit given to Get.
const ErrTooLarge = constError("answer too large")

// ErrNoTLS is the answer of a build without TLS (a board build) to an https URL.
const ErrNoTLS = constError("https needs the full build (the board build speaks plain http; docs/architecture.md, \"Board builds\")")

// Get fetches u (http; https where the build has TLS, see tls.go) with one
// HTTP/1.1 request on a fresh connection, reading at most maxBody bytes of
// body; ctx bounds the whole exchange. Credentials in u's user info go as
// basic authentication. Redirects are not followed (a 3xx is an answer),
// and no proxy is used: the meters it serves are on the local network.
func Get(ctx context.Context, u *url.URL, maxBody int64) (*Response, error) {
	return exchange(ctx, u, requestText(u), nil, maxBody)
}

// exchange sends head (the request line and headers) and body to u's
// host on a fresh connection (TLS for https) and reads the answer.
func exchange(ctx context.Context, u *url.URL, head string, body []byte, maxBody int64) (*Response, error) {
	if u.Host == "" {
		return nil, fmt.Errorf("no host in URL")
	}
	port := u.Port()
	switch u.Scheme {
	case "http":
		if port == "" {
			port = "80"
		}
	case "https":
		if port == "" {
			port = "443"
		}
	default:
		return nil, fmt.Errorf("unsupported scheme %q", u.Scheme)
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if u.Scheme == "https" {
		if conn, err = clientTLS(ctx, conn, u.Hostname()); err != nil {
			return nil, ctxErr(ctx, err)
		}
		defer conn.Close()
	}
	if _, err := io.WriteString(conn, head); err != nil {
		return nil, ctxErr(ctx, err)
	}
	if len(body) > 0 {
		if _, err := conn.Write(body); err != nil {
			return nil, ctxErr(ctx, err)
		}
	}
	resp, err := readResponse(bufio.NewReader(conn), maxBody)
	if err != nil {
		return nil, ctxErr(ctx, err)
	}
	return resp, nil
}

// requestText is the request Get sends for u.
func requestText(u *url.URL) string {
	var b strings.Builder
	target := u.RequestURI()
	b.WriteString("GET " + target + " HTTP/1.1\r\nHost: " + u.Host + "\r\n")
	b.WriteString("User-Agent: boardbench\r\nAccept: */*\r\nConnection: close\r\n")
	if u.User != nil {
		pw, _ := u.User.Password()
		b.WriteString("Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw)) + "\r\n")
	}
	b.WriteString("\r\n")
	return b.String()
}

// ctxErr turns a failure caused by ctx's end into ctx's error.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return context.DeadlineExceeded
	}
	return err
}

// readResponse reads one response from r: status line, headers (at most
// MaxHeaderBytes, 1xx answers skipped) and a body framed by chunked
// transfer coding, Content-Length or the end of the connection.
func readResponse(r *bufio.Reader, maxBody int64) (*Response, error) {
	for {
		lr := &io.LimitedReader{R: r, N: MaxHeaderBytes}
		tp := textproto.NewReader(bufio.NewReader(lr))
		line, err := tp.ReadLine()
		if err != nil {
			return nil, headErr(lr, err)
		}
		proto, status, ok := strings.Cut(line, " ")
		if !ok || !strings.HasPrefix(proto, "HTTP/1.") {
			return nil, fmt.Errorf("malformed HTTP response %q", short(line))
		}
		codeText, _, _ := strings.Cut(status, " ")
		code, err := strconv.Atoi(codeText)
		if err != nil || len(codeText) != 3 || code < 100 {
			return nil, fmt.Errorf("malformed HTTP status code %q", short(codeText))
		}
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return nil, headErr(lr, err)
		}
		// The header reader may have buffered part of the body: go on
		// reading from it, then from r.
		rest := io.MultiReader(tp.R, r)
		if code >= 100 && code < 200 && code != 101 {
			r = bufio.NewReader(rest)
			continue
		}
		resp := &Response{StatusCode: code, Status: strings.TrimSpace(status), Header: h}
		body, err := readBody(rest, h, maxBody)
		if err != nil {
			return nil, err
		}
		resp.Body = body
		return resp, nil
	}
}

// headErr says that a header was too long when lr ran out.
func headErr(lr *io.LimitedReader, err error) error {
	if lr.N <= 0 {
		return fmt.Errorf("HTTP header larger than %d bytes", MaxHeaderBytes)
	}
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readBody reads a body framed as h says, at most max bytes.
func readBody(r io.Reader, h textproto.MIMEHeader, max int64) ([]byte, error) {
	var src io.Reader
	switch te := strings.ToLower(strings.TrimSpace(h.Get("Transfer-Encoding"))); {
	case te == "chunked":
		src = &chunkedReader{r: bufio.NewReader(r)}
	case te != "" && te != "identity":
		return nil, fmt.Errorf("unsupported transfer coding %q", short(te))
	case h.Get("Content-Length") != "":
		n, err := strconv.ParseInt(strings.TrimSpace(h.Get("Content-Length")), 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad Content-Length %q", short(h.Get("Content-Length")))
		}
		if n > max {
			return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, n, max)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return b, nil
	default:
		src = r // until the server closes the connection
	}
	b, err := io.ReadAll(io.LimitReader(src, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	return b, nil
}

// chunkedReader decodes the chunked transfer coding (RFC 9112 section 7.1);
// chunk extensions and trailers are read and dropped.
type chunkedReader struct {
	r    *bufio.Reader
	left int64 // bytes left in the current chunk
	done bool
}

func (c *chunkedReader) Read(p []byte) (int, error) {
	if c.done {
		return 0, io.EOF
	}
	if c.left == 0 {
		line, err := readLine(c.r)
		if err != nil {
			return 0, err
		}
		size, _, _ := strings.Cut(line, ";")
		n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("malformed chunk size %q", short(line))
		}
		if n == 0 {
			for { // trailers, up to the empty line
				line, err := readLine(c.r)
				if err != nil {
					return 0, err
				}
				if line == "" {
					break
				}
			}
			c.done = true
			return 0, io.EOF
		}
		c.left = n
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left == 0 && err == nil {
		if line, lerr := readLine(c.r); lerr != nil || line != "" {
			return n, errors.New("malformed chunked encoding")
		}
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// readLine reads one CRLF- or LF-ended line of at most 4 KiB.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		frag, err := r.ReadSlice('\n')
		b = append(b, frag...)
		if len(b) > 4096 {
			return "", errors.New("line too long in chunked encoding")
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
}

// short cuts s for an error message.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
