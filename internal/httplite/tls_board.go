//go:build board

package httplite

import (
	"context"
	"net"
)

// TLS says whether Get speaks https in this build.
const TLS = false

// clientTLS refuses: a board build leaves out crypto/tls, which would
// weigh about 1 MB for meters that speak plain http on the local network.
func clientTLS(ctx context.Context, conn net.Conn, host string) (net.Conn, error) {
	return nil, ErrNoTLS
}
