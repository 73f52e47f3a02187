package result

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/outfile"
	"boardbench/internal/regfile"
	"boardbench/internal/testutil/wait"
)

func TestParseValidatesVersionAndStatus(t *testing.T) {
	cases := []struct {
		doc     string
		wantErr string // "" for accepted
	}{
		{`{"schema_version": "1.0", "status": "complete"}`, ""},
		{`{"schema_version": "1.7", "status": "interrupted"}`, ""}, // newer minor: only added fields
		{`{"schema_version": "10.0", "status": "complete"}`, `schema version "10.0" is not supported`},
		{`{"schema_version": "1", "status": "complete"}`, `schema version "1" is not supported`},
		{`{"schema_version": "1.x", "status": "complete"}`, `schema version "1.x" is not supported`},
		{`{"schema_version": "2.0", "status": "complete"}`, `schema version "2.0" is not supported`},
		{`{"schema_version": "1.0", "status": "bogus"}`, `unknown status "bogus"`},
		{`{"schema_version": "1.0", "status": "Complete"}`, `unknown status "Complete"`},
		{`{"schema_version": "1.0"}`, "no schema_version/status"},
		{`[1, 2]`, "not a boardbench result"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.doc))
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("Parse(%s) = %v, want accepted", c.doc, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("Parse(%s) = %v, want %q", c.doc, err, c.wantErr)
		}
	}
}

func TestLoadRefusesSpecialAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	syscall.Mkfifo(fifo, 0o644)
	huge := filepath.Join(dir, "huge.json")
	f, _ := os.Create(huge)
	f.Truncate(10 << 30)
	f.Close()
	for _, p := range []string{fifo, "/dev/zero", huge} {
		done := make(chan error, 1)
		go func() { _, err := Load(p); done <- err }()
		select {
		case err := <-done:
			var tl *regfile.TooLargeError
			if !errors.Is(err, regfile.ErrNotRegular) && !errors.As(err, &tl) {
				t.Errorf("Load(%s) = %v, want not regular or too large", p, err)
			}
		case <-time.After(wait.HangGuard):
			t.Fatalf("hung: Load(%s) did not return within %v", p, wait.HangGuard)
		}
	}
}

func TestSaveNeverReplacesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o644)
	targets := []string{fifo}
	dev := filepath.Join(dir, "full")
	if syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|7) == nil { // /dev/full's numbers
		targets = append(targets, dev)
	}
	for _, p := range targets {
		before, _ := os.Lstat(p)
		err := Save(p, New("run", nil, nil))
		var re *outfile.RefusedError
		if !errors.As(err, &re) {
			t.Errorf("Save(%s) = %v, want a refusal", p, err)
		}
		if after, err := os.Lstat(p); err != nil || after.Mode() != before.Mode() {
			t.Errorf("Save replaced %s: %v → %v", p, before.Mode(), after.Mode())
		}
	}
}

// FuzzParse checks that any bytes either fail with a one-line error or give
// a result with a supported version and a known status that survives a
// round trip.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"schema_version": "1.0", "status": "complete", "phases": [{"name": "x", "figures": {"a": 1}}]}`))
	f.Add([]byte(`{"schema_version": "10.0", "status": "complete"}`))
	f.Add([]byte(`{"schema_version": "1.0", "status": "bogus"}`))
	f.Add([]byte(`{"schema_version": "1.0", "status": "running", "summary": {"clock_mhz": [{"cpu": 0, "value": 1800}]}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		if !schemaSupported(r.SchemaVersion) {
			t.Fatalf("accepted schema version %q", r.SchemaVersion)
		}
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("accepted result cannot be written again: %v", err)
		}
		if _, err := Parse(again); err != nil {
			t.Fatalf("accepted result does not survive a round trip: %v", err)
		}
	})
}
