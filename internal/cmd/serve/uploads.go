package serve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"

	"boardbench/internal/cmdutil"
	"boardbench/internal/promexport"
	"boardbench/internal/serve"
	"boardbench/internal/store"

	"github.com/spf13/pflag"
)

// uploadOptions are serve's flags for uploads and TLS.
type uploadOptions struct {
	accept   bool
	insecure bool
	tlsCert  string
	tlsKey   string
	maxBytes int
	rate     float64
	burst    int
}

func (o *uploadOptions) addFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.accept, "accept-uploads", false, "take result uploads with a token on POST /api/v1/results (docs/lab.md)")
	fs.BoolVar(&o.insecure, "insecure-uploads", false, "take tokens over plain HTTP from other machines (a trusted network only)")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "serve HTTPS with the certificate (chain) in PEM `FILE`")
	fs.StringVar(&o.tlsKey, "tls-key", "", "the private key of --tls-cert, in PEM `FILE`")
	fs.IntVar(&o.maxBytes, "max-upload-bytes", 16<<20, "refuse an uploaded document larger than `N` bytes (413)")
	fs.Float64Var(&o.rate, "upload-rate", serve.DefaultUploadRate, "uploads a second each token may make on average (`N`, 0: no limit), per serve process")
	fs.IntVar(&o.burst, "upload-burst", serve.DefaultUploadBurst, "uploads each token may make at once (`N`)")
}

// check refuses what cannot work before anything is opened: TLS needs
// both files; uploads on an address other machines reach need TLS or
// --insecure-uploads (a token would cross the network in clear).
func (o *uploadOptions) check(listen string) error {
	if (o.tlsCert == "") != (o.tlsKey == "") {
		return cmdutil.Usagef("--tls-cert and --tls-key go together")
	}
	if !o.accept {
		if o.insecure {
			return cmdutil.Usagef("--insecure-uploads without --accept-uploads")
		}
		return nil
	}
	if o.maxBytes <= 0 || o.rate < 0 || o.burst < 1 {
		return cmdutil.Usagef("--max-upload-bytes and --upload-burst want a positive number, --upload-rate zero or more")
	}
	if o.tlsCert == "" && !o.insecure && !promexport.IsLoopback(listen) {
		return cmdutil.Usagef("--accept-uploads on %s without TLS would take tokens in clear from the network: give --tls-cert/--tls-key, listen on 127.0.0.1 behind a reverse proxy that speaks https (docs/lab.md), or say --insecure-uploads", listen)
	}
	return nil
}

// tlsListener wraps ln in TLS when --tls-cert is given.
func (o *uploadOptions) tlsListener(ln net.Listener) (net.Listener, error) {
	if o.tlsCert == "" {
		return ln, nil
	}
	cert, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
	if err != nil {
		return nil, cmdutil.Usagef("--tls-cert/--tls-key: %v", err)
	}
	return tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}), nil
}

// open opens the store for uploads (for writing; a SQLite file must
// exist) and returns the server's upload configuration, nil without
// --accept-uploads.
func (o *uploadOptions) open(ctx context.Context, spec string) (*serve.Uploads, func(), error) {
	if !o.accept {
		return nil, func() {}, nil
	}
	st, err := store.OpenExisting(ctx, spec)
	if errors.Is(err, store.ErrNoSuchStore) {
		return nil, nil, cmdutil.Usagef("%v", err)
	} else if err != nil {
		return nil, nil, fmt.Errorf("opening the store for uploads: %w", err)
	}
	return &serve.Uploads{Store: st, MaxBytes: o.maxBytes, Rate: o.rate, Burst: o.burst, Insecure: o.insecure}, func() { st.Close() }, nil
}
