package serve

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/result"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
	"boardbench/internal/testutil/wait"
)

func TestUploadFlagsRefusedBeforeServing(t *testing.T) {
	for _, c := range []struct {
		listen string
		up     uploadOptions
	}{
		{"0.0.0.0:0", uploadOptions{accept: true, maxBytes: 1, burst: 1}},
		{"192.0.2.1:0", uploadOptions{accept: true, maxBytes: 1, burst: 1}},
		{"127.0.0.1:0", uploadOptions{accept: true, tlsCert: "x.pem", maxBytes: 1, burst: 1}},
		{"127.0.0.1:0", uploadOptions{insecure: true}},
		{"127.0.0.1:0", uploadOptions{accept: true, maxBytes: 0, burst: 1}},
		{"127.0.0.1:0", uploadOptions{accept: true, tlsCert: "/nonexistent.pem", tlsKey: "/nonexistent.key", maxBytes: 1, burst: 1}},
	} {
		ios, _, _ := iostreams.Test()
		f := cmdutil.NewFactory(ios)
		f.Store.Spec = newStore(t)
		err := runWith(context.Background(), f, c.listen, nil, false, c.up)
		if cmdutil.ExitCode(err) != 2 {
			t.Errorf("%s %+v: %v (exit %d), want exit 2", c.listen, c.up, err, cmdutil.ExitCode(err))
		}
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool that trusts it.
func selfSigned(t *testing.T) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "lab"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "lab.crt"), filepath.Join(dir, "lab.key")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return cert, key, pool
}

// TestUploadOverTLS serves with --tls-cert/--tls-key and --accept-uploads
// and uploads a result over HTTPS with a token.
func TestUploadOverTLS(t *testing.T) {
	cert, key, pool := selfSigned(t)
	path := newStore(t)
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := store.AddToken(ctx, st, "tls-board")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	ios, _, _ := iostreams.Test()
	stderr := &lockedBuffer{}
	ios.ErrOut = stderr
	f := cmdutil.NewFactory(ios)
	f.Store.Spec = path
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	up := uploadOptions{accept: true, tlsCert: cert, tlsKey: key, maxBytes: 1 << 20, burst: 10, rate: 10}
	go func() { done <- runWith(sctx, f, "127.0.0.1:0", nil, false, up) }()
	wait.Until(t, "the serving line", func() bool { return containsLine(stderr.String(), "serving") })
	m := regexp.MustCompile(`on (https://127\.0\.0\.1:[0-9]+)/ `).FindStringSubmatch(stderr.String())
	if m == nil {
		cancel()
		t.Fatalf("no https address in %q", stderr.String())
	}
	r, _ := servetest.Result(4)
	doc, err := result.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest("POST", m[1]+"/api/v1/results", bytes.NewReader(doc))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 || resp.TLS == nil {
		t.Errorf("upload over TLS: %d (TLS %v)", resp.StatusCode, resp.TLS != nil)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}
