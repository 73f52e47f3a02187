package labapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/httplite"
	"boardbench/internal/regfile"
)

// TokenEnv names the environment variable that holds the upload token
// when --token-file is not given.
const TokenEnv = "BOARDBENCH_TOKEN"

// MaxAnswerBytes bounds an answer the client reads.
const MaxAnswerBytes = 64 << 10

// IsLab reports whether target is a lab's URL (http:// or https://), not
// a store.
func IsLab(target string) bool {
	return strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://")
}

// ParseLab checks a lab's base URL: http or https, a host, no user
// information (the token is sent as a header, never in a URL), no query
// or fragment. The path, if any, is where the lab is mounted behind a
// reverse proxy.
func ParseLab(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("lab URL: %v", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("lab URL %q: want http:// or https://", Target(u))
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("lab URL %q: no host", Target(u))
	case u.User != nil:
		return nil, fmt.Errorf("lab URL: no user or password in it (the token goes in --token-file or %s)", TokenEnv)
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("lab URL %q: no query or fragment", Target(u))
	case u.Scheme == "https" && !httplite.TLS:
		return nil, httplite.ErrNoTLS
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// Target is the lab's URL as pending pushes record it: scheme, host and
// path, without user information, query or trailing slash.
func Target(u *url.URL) string {
	c := url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimRight(u.Path, "/")}
	return c.String()
}

// PlainOverNetwork reports whether u sends the token in clear to another
// machine: http to a host that is not a loopback address or localhost.
func PlainOverNetwork(u *url.URL) bool {
	if u.Scheme != "http" {
		return false
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return false
	}
	ip := net.ParseIP(h)
	return ip == nil || !ip.IsLoopback()
}

// ReadToken returns the upload token: the first line of file when it is
// given (a regular file of at most 1 KiB), else $BOARDBENCH_TOKEN. A
// token has no space or control character.
func ReadToken(file string) (string, error) {
	var tok, from string
	if file != "" {
		b, err := regfile.Read(file, 1024, regfile.Follow)
		if err != nil {
			return "", fmt.Errorf("--token-file: %v", err)
		}
		tok, _, _ = strings.Cut(string(b), "\n")
		tok, from = strings.TrimSpace(tok), "--token-file "+file
	} else {
		tok, from = strings.TrimSpace(os.Getenv(TokenEnv)), TokenEnv
	}
	if tok == "" {
		return "", fmt.Errorf("no upload token: give --token-file FILE or set %s (boardbench lab token add NAME makes one on the lab)", TokenEnv)
	}
	for _, r := range tok {
		if r <= ' ' || r >= 0x7f {
			return "", fmt.Errorf("the token in %s has a space or a character a token never has", from)
		}
	}
	return tok, nil
}

// HTTPError is an answer of the lab that is not a success.
type HTTPError struct {
	Status  int
	Message string
	// RetryAfter is the wait the lab asked for (429, 503), 0 if none.
	RetryAfter time.Duration
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("the lab answered %d: %s", e.Status, e.Message)
}

// Temporary reports whether trying again later may succeed: a rate
// limit, a busy or restarting server, a proxy without its upstream.
func (e *HTTPError) Temporary() bool {
	switch e.Status {
	case 429, 502, 503, 504:
		return true
	}
	return false
}

// Client uploads results to one lab.
type Client struct {
	Base  *url.URL
	Token string
	// Timeout bounds each request; 0 means 60 s.
	Timeout time.Duration
	// Attempts is how often an upload is tried while the lab is
	// unreachable or answers that it is busy; 0 means 4.
	Attempts int
	// Sleep waits between attempts (tests replace it); nil sleeps.
	Sleep func(context.Context, time.Duration) error
}

// Upload sends one result document. Answers 429 and 5xx proxies' 502-504,
// and failures to connect, are tried again (after the lab's Retry-After,
// at most 30 s, else 1 s, 2 s, 4 s...); any other refusal is returned at
// once as an *HTTPError.
func (c *Client) Upload(ctx context.Context, doc []byte) (UploadAnswer, error) {
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = 4
	}
	wait := time.Second
	var err error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			d := wait
			var he *HTTPError
			if errors.As(err, &he) && he.RetryAfter > 0 {
				d = min(he.RetryAfter, 30*time.Second)
			}
			if serr := c.sleep(ctx, d); serr != nil {
				return UploadAnswer{}, err
			}
			wait *= 2
		}
		var ans UploadAnswer
		ans, err = c.uploadOnce(ctx, doc)
		if err == nil {
			return ans, nil
		}
		var he *HTTPError
		if (errors.As(err, &he) && !he.Temporary()) || ctx.Err() != nil {
			return UploadAnswer{}, err
		}
	}
	return UploadAnswer{}, err
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Client) uploadOnce(ctx context.Context, doc []byte) (UploadAnswer, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	u := *c.Base
	u.Path = strings.TrimRight(u.Path, "/") + ResultsPath
	resp, err := httplite.Post(ctx, &u, map[string]string{
		"Authorization": "Bearer " + c.Token,
		"Content-Type":  "application/json",
	}, doc, MaxAnswerBytes)
	if err != nil {
		return UploadAnswer{}, err
	}
	if resp.StatusCode == 200 || resp.StatusCode == 201 {
		var ans UploadAnswer
		if err := json.Unmarshal(resp.Body, &ans); err != nil || ans.ID == "" {
			return UploadAnswer{}, fmt.Errorf("the lab answered %d but not with an upload's answer (is %s a boardbench lab?)", resp.StatusCode, Target(c.Base))
		}
		return ans, nil
	}
	he := &HTTPError{Status: resp.StatusCode, Message: resp.Status}
	var ea ErrorAnswer
	if json.Unmarshal(resp.Body, &ea) == nil && ea.Error.Message != "" {
		he.Message = short80(ea.Error.Message)
	}
	if s, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && s >= 0 {
		he.RetryAfter = time.Duration(s) * time.Second
	}
	return UploadAnswer{}, he
}

// short80 keeps a lab's message to one printable line of at most 200 bytes.
func short80(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 200 {
			b.WriteString("…")
			break
		}
		if _, bad := badRune(string(r)); bad || r < ' ' {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Link returns the absolute URL of a path of the lab (an answer's URL).
func (c *Client) Link(path string) string {
	return Target(c.Base) + path
}

// NewClient returns the client of the lab at target with the token from
// tokenFile (else $BOARDBENCH_TOKEN); its errors are bad input. warn,
// when not "", is a warning to print: the token would cross the network
// in clear.
func NewClient(target, tokenFile string) (c *Client, warn string, err error) {
	u, err := ParseLab(target)
	if err != nil {
		return nil, "", err
	}
	tok, err := ReadToken(tokenFile)
	if err != nil {
		return nil, "", err
	}
	if PlainOverNetwork(u) {
		warn = Target(u) + " is plain http: the token crosses the network in clear (the lab takes it only with --insecure-uploads)"
	}
	return &Client{Base: u, Token: tok}, warn, nil
}
