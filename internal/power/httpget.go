package power

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// MaxResponseBytes bounds what a networked meter may send for one reading.
const MaxResponseBytes = 1 << 20

// errNotFound is an HTTP 404: the meter does not speak that protocol.
type errNotFound struct{ url string }

func (e errNotFound) Error() string { return e.url + ": not found (404)" }

// httpGet fetches base with path replaced, bounded by ctx and
// MaxResponseBytes. Credentials in base's URL go as basic authentication
// (net/http does that) and never into error messages.
func httpGet(ctx context.Context, client *http.Client, base *url.URL, p string) ([]byte, error) {
	u := *base
	u.Path = p
	u.RawQuery, u.Fragment = "", ""
	shown := u.Redacted()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", shown, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", shown, shortNetErr(err, ctx))
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, errNotFound{shown}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %s", shown, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %s", shown, shortNetErr(err, ctx))
	}
	if len(data) > MaxResponseBytes {
		return nil, fmt.Errorf("%s: answer larger than %d bytes", shown, MaxResponseBytes)
	}
	return data, nil
}

// shortNetErr says "timed out" for a read cut by its deadline, else the
// error without the URL net/http repeats.
func shortNetErr(err error, ctx context.Context) string {
	if ctx.Err() == context.DeadlineExceeded {
		return "timed out"
	}
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		if ue.Timeout() {
			return "timed out"
		}
		return strings.TrimSpace(ue.Err.Error())
	}
	return err.Error()
}

// newHTTPClient returns a client that does not follow redirects to other
// hosts silently and uses no proxy from the environment for a meter on the
// local network.
func newHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	return &http.Client{Transport: tr, Timeout: DefaultTimeout}
}
