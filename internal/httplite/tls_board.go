//go:build board

package httplite

import (
	"context"
	"errors"
	"net"
)

// ErrNoTLS is the answer of a board build to an https URL.
var ErrNoTLS = errors.New("https needs the full build (the board build speaks plain http; docs/architecture.md, \"Board builds\")")

// clientTLS refuses: a board build leaves out crypto/tls, which would
// weigh about 1 MB for meters that speak plain http on the local network.
func clientTLS(ctx context.Context, conn net.Conn, host string) (net.Conn, error) {
	return nil, ErrNoTLS
}
