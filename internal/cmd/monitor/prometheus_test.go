package monitor

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
)

func TestListenPrometheus(t *testing.T) {
	var w bytes.Buffer
	x, err := listenPrometheus("", &w)
	if x != nil || err != nil {
		t.Fatalf("no address: %v %v", x, err)
	}
	x, err = listenPrometheus("127.0.0.1:0", &w)
	if err != nil {
		t.Fatal(err)
	}
	defer x.ln.Close()
	if w.Len() != 0 {
		t.Errorf("loopback warned: %q", w.String())
	}
	// The same port again is in use: a usage error before anything runs.
	_, err = listenPrometheus(x.ln.Addr().String(), &w)
	var ue *cmdutil.UsageError
	if !errors.As(err, &ue) {
		t.Errorf("port in use: %v, want a usage error", err)
	}
	if _, err := listenPrometheus("nonsense", &w); !errors.As(err, &ue) {
		t.Errorf("malformed address: %v, want a usage error", err)
	}
	all, err := listenPrometheus("0.0.0.0:0", &w)
	if err != nil {
		t.Fatal(err)
	}
	defer all.ln.Close()
	if !strings.Contains(w.String(), "warning: --prometheus 0.0.0.0:0: the metrics are open to other machines") {
		t.Errorf("no warning for 0.0.0.0: %q", w.String())
	}
}
