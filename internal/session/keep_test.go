package session

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"path/filepath"

	"boardbench/internal/interrupt"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

// TestKeep: a finished result, complete or interrupted, goes to the
// Config's Keeper as the file's document; a failing Keeper is one warning
// line and the file is still written.
func TestKeep(t *testing.T) {
	for _, tc := range []struct {
		name      string
		interrupt bool
		keepErr   error
	}{
		{"complete", false, nil},
		{"interrupted", true, nil},
		{"store fails", false, errors.New("disk full")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var kept []byte
			keep := Keeper(func(ctx context.Context, doc []byte) (string, error) {
				if ctx.Err() != nil {
					t.Error("the keeper got a cancelled context")
				}
				kept = doc
				return "id-1", tc.keepErr
			})
			path := filepath.Join(t.TempDir(), "r.json")
			var warn bytes.Buffer
			h := fixture.Host(t, map[string]string{"/proc/loadavg": "0.01 0.02 0.03 1/100 42\n"})
			s, err := Start(ctx, Config{Host: h, Info: inventory.Collect(h, inventory.Options{Redact: true}), Command: "test", Path: path, Warn: &warn, Keep: keep})
			if err != nil {
				t.Fatal(err)
			}
			s.Run(ctx, []Step{{Name: "a", Run: func(ctx context.Context, p *result.Phase) error { return nil }}})
			if tc.interrupt {
				cancel(&interrupt.Signal{Name: "SIGINT"})
			}
			out, _ := s.Finish(ctx, End{})
			if _, err := result.Load(path); err != nil {
				t.Fatalf("result file: %v", err)
			}
			r, err := result.Parse(kept)
			if err != nil {
				t.Fatalf("kept document: %v", err)
			}
			wantStatus := result.StatusComplete
			if tc.interrupt {
				wantStatus = result.StatusInterrupted
			}
			if r.Status != wantStatus || r.ID != out.Result.ID {
				t.Errorf("kept %s %s, want %s %s", r.Status, r.ID, wantStatus, out.Result.ID)
			}
			if tc.keepErr != nil {
				if out.StoreID != "" || strings.Count(warn.String(), "the result was not saved to the results store") != 1 || !strings.Contains(warn.String(), "disk full") {
					t.Errorf("StoreID %q, warning %q", out.StoreID, warn.String())
				}
			} else if out.StoreID != "id-1" {
				t.Errorf("StoreID = %q", out.StoreID)
			}
		})
	}
}
