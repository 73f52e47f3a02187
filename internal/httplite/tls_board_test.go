//go:build board

package httplite

import (
	"context"
	"errors"
	"net"
	"net/url"
	"testing"
)

// TestBoardBuildRefusesHTTPS: the board build has no TLS and says so.
func TestBoardBuildRefusesHTTPS(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	u, _ := url.Parse("https://" + ln.Addr().String() + "/")
	if _, err := Get(context.Background(), u, 10); !errors.Is(err, ErrNoTLS) {
		t.Errorf("err = %v, want ErrNoTLS", err)
	}
}
