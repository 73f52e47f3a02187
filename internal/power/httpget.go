package power

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"boardbench/internal/httplite"
)

// MaxResponseBytes bounds what a networked meter may send for one reading.
const MaxResponseBytes = 1 << 20

// errNotFound is an HTTP 404: the meter does not speak that protocol.
type errNotFound struct{ url string }

func (e errNotFound) Error() string { return e.url + ": not found (404)" }

// httpGet fetches base with path replaced, bounded by ctx (and
// DefaultTimeout) and MaxResponseBytes, with httplite: one HTTP/1.1
// request, no proxy, no redirect followed. Credentials in base's URL go as
// basic authentication and never into error messages.
func httpGet(ctx context.Context, base *url.URL, p string) ([]byte, error) {
	u := *base
	u.Path = p
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	shown := u.Redacted()
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	resp, err := httplite.Get(ctx, &u, MaxResponseBytes)
	switch {
	case errors.Is(err, httplite.ErrTooLarge):
		return nil, fmt.Errorf("%s: answer larger than %d bytes", shown, MaxResponseBytes)
	case err != nil:
		return nil, fmt.Errorf("%s: %s", shown, shortNetErr(err, ctx))
	case resp.StatusCode == 404:
		return nil, errNotFound{shown}
	case resp.StatusCode != 200:
		return nil, fmt.Errorf("%s: HTTP %s", shown, resp.Status)
	}
	return resp.Body, nil
}

// shortNetErr says "timed out" for a read cut by its deadline, else the
// error.
func shortNetErr(err error, ctx context.Context) string {
	if ctx.Err() == context.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	return err.Error()
}
