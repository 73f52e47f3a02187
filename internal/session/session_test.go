package session

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/interrupt"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

// start opens a session on a small fixture root writing to path.
func start(t *testing.T, ctx context.Context, path string, warn *bytes.Buffer) *Session {
	t.Helper()
	h := fixture.Host(t, map[string]string{"/proc/loadavg": "0.01 0.02 0.03 1/100 42\n"})
	cfg := Config{Host: h, Info: inventory.Collect(h, inventory.Options{Redact: true}), Command: "test", Path: path}
	if warn != nil {
		cfg.Warn = warn
	}
	s, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stopKey carries the test's stand-in for a signal arriving.
type stopKey struct{}

// stopNow cancels the session's context as SIGHUP would.
func stopNow(ctx context.Context) { ctx.Value(stopKey{}).(func())() }

func TestLifecycle(t *testing.T) {
	tests := []struct {
		name        string
		steps       []Step
		end         End
		cancel      bool
		wantStatus  string
		wantPhases  []string
		wantVerdict string
	}{
		{"complete", []Step{
			{Name: "a", Run: func(ctx context.Context, p *result.Phase) error { return nil }},
			{Name: "b", Skip: "no tool"},
			{Name: "c", Run: func(ctx context.Context, p *result.Phase) error { return errors.New("boom") }},
		}, End{}, false, result.StatusComplete, []string{"a:ok", "b:skipped", "c:failed"}, "valid"},
		{"failed command", []Step{{Name: "cmd", Run: func(ctx context.Context, p *result.Phase) error {
			p.Status, p.Reason = result.PhaseFailed, "exited with status 3"
			return nil
		}}}, End{Verdict: "command failed (status 3)"}, false, result.StatusComplete, []string{"cmd:failed"}, "command failed (status 3)"},
		{"interrupted", []Step{{Name: "a", Run: func(ctx context.Context, p *result.Phase) error {
			stopNow(ctx)
			return ctx.Err()
		}}, {Name: "never"}},
			End{}, true, result.StatusInterrupted, []string{"a:interrupted"}, "interrupted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			ctx = context.WithValue(ctx, stopKey{}, func() { cancel(&interrupt.Signal{Name: "SIGHUP"}) })
			path := filepath.Join(t.TempDir(), "r.json")
			s := start(t, ctx, path, nil)
			s.Run(ctx, tt.steps)
			out, err := s.Finish(ctx, tt.end)
			var ie *interrupt.Error
			if tt.cancel != errors.As(err, &ie) {
				t.Fatalf("Finish = %v", err)
			}
			if tt.cancel && (ie.Signal != "SIGHUP" || ie.ExitCode() != 130) {
				t.Errorf("interruption %+v", ie)
			}
			r, lerr := result.Load(path)
			if lerr != nil {
				t.Fatal(lerr)
			}
			var got []string
			for _, p := range r.Phases {
				got = append(got, p.Name+":"+p.Status)
			}
			if strings.Join(got, " ") != strings.Join(tt.wantPhases, " ") || r.Status != tt.wantStatus || out.Path != path {
				t.Errorf("phases %v status %q path %q", got, r.Status, out.Path)
			}
			if !strings.HasPrefix(r.Summary.Verdict, tt.wantVerdict) {
				t.Errorf("verdict %q, want %q…", r.Summary.Verdict, tt.wantVerdict)
			}
			if tt.cancel && !strings.Contains(r.Phases[0].Reason, "interrupted by SIGHUP") {
				t.Errorf("reason %q", r.Phases[0].Reason)
			}
		})
	}
}

// TestDiskFull fills the file system of the result file during a session:
// the failed save is reported when it happens, and at the end the result,
// with every phase, goes to a fallback file that the error names.
func TestDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("this test mounts a small tmpfs and needs root (CI runs as root)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount tmpfs: %v: %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	t.Setenv("TMPDIR", t.TempDir())
	var warn bytes.Buffer
	path := filepath.Join(dir, "r.json")
	ctx := context.Background()
	s := start(t, ctx, path, &warn)
	s.Step(ctx, 0, Step{Name: "first", Run: func(ctx context.Context, p *result.Phase) error { return nil }})
	if warn.Len() != 0 {
		t.Fatalf("warning before the disk was full: %s", warn.String())
	}
	// Fill the file system.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := filler.Write(chunk); err != nil {
			break
		}
	}
	filler.Close()
	s.Step(ctx, 1, Step{Name: "second", Run: func(ctx context.Context, p *result.Phase) error {
		p.RawOutput = strings.Repeat("figures ", 1000)
		return nil
	}})
	if strings.Count(warn.String(), "\n") != 1 || !strings.Contains(warn.String(), "cannot save the result to "+path) {
		t.Errorf("warning when the save failed: %q", warn.String())
	}
	out, err := s.Finish(ctx, End{})
	var se *ErrSave
	if !errors.As(err, &se) || out.SaveErr == nil || out.Path == "" || out.Path == path {
		t.Fatalf("Finish = %v, path %q", err, out.Path)
	}
	if !strings.Contains(err.Error(), out.Path) || se.ExitCode() != 1 {
		t.Errorf("error %q does not name the fallback %s", err, out.Path)
	}
	r, err := result.Load(out.Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 2 || r.Phases[1].RawOutput == "" || r.Status != result.StatusComplete {
		t.Errorf("fallback result: %d phases, status %q", len(r.Phases), r.Status)
	}
}
