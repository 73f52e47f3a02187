//go:build !board

package httplite

import (
	"context"
	"crypto/tls"
	"net"
)

// TLS says whether Get speaks https in this build.
const TLS = true

// clientTLS starts TLS on conn for host, checking its certificate.
func clientTLS(ctx context.Context, conn net.Conn, host string) (net.Conn, error) {
	c := tls.Client(conn, &tls.Config{ServerName: host})
	if err := c.HandshakeContext(ctx); err != nil {
		return nil, err
	}
	return c, nil
}
