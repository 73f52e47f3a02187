//go:build board

package httplite

import (
	"context"
	"net"
)

// TLS says whether Get speaks https in this build.
const TLS = false

// clientTLS refuses: a board build leaves out crypto/tls (and x509 and
// their ciphers); meters on a board's network speak plain http.
func clientTLS(ctx context.Context, conn net.Conn, host string) (net.Conn, error) {
	return nil, ErrNoTLS
}
