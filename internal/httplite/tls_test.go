//go:build !board

package httplite

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestGetOverTLSChecksTheCertificate: the full build speaks https and
// refuses a certificate that no known authority signed.
func TestGetOverTLSChecksTheCertificate(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secure")) }))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/")
	_, err := Get(context.Background(), u, 100)
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("err = %v, want a certificate error", err)
	}
}
