package httplite

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Post sends body to u (http; https where the build has TLS) as Get
// fetches, with the headers given (names and values must not hold CR or
// LF) and a Content-Length, and returns the answer, reading at most
// maxBody bytes of it. No redirect is followed and no proxy used.
func Post(ctx context.Context, u *url.URL, header map[string]string, body []byte, maxBody int64) (*Response, error) {
	var b strings.Builder
	b.WriteString("POST " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n")
	b.WriteString("User-Agent: boardbench\r\nAccept: application/json\r\nConnection: close\r\n")
	for k, v := range header {
		if strings.ContainsAny(k, "\r\n:") || strings.ContainsAny(v, "\r\n") {
			return nil, fmt.Errorf("header %q: CR, LF or ':' in a header", k)
		}
		b.WriteString(k + ": " + v + "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
	return exchange(ctx, u, b.String(), body, maxBody)
}
