package outfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/outfile"
)

func TestWriteRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	linkToDevice := filepath.Join(dir, "null-link")
	os.Symlink("/dev/null", linkToDevice)
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere/x"), dangling)
	cases := []struct{ name, path, want string }{
		{"character device", "/dev/full", "not a regular file (a character device)"},
		{"null device", "/dev/null", "not a regular file (a character device)"},
		{"fifo", fifo, "not a regular file (a FIFO)"},
		{"link to a device", linkToDevice, "not a regular file (a character device)"},
		{"directory", dir, "is a directory"},
		{"missing directory", filepath.Join(dir, "no/such/out.json"), "no such file or directory"},
		{"dangling link", dangling, "cannot be followed"},
		{"empty", "", "empty output path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.Lstat(c.path)
			for what, err := range map[string]error{
				"Check":     outfile.Check(c.path),
				"WriteFile": outfile.WriteFile(c.path, []byte("data")),
			} {
				var re *outfile.RefusedError
				if !errors.As(err, &re) || re.ExitCode() != 2 || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s(%s) = %v, want a refusal saying %q", what, c.path, err, c.want)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("%s: error is more than one line: %q", what, err)
				}
			}
			if before != nil {
				after, err := os.Lstat(c.path)
				if err != nil || after.Mode() != before.Mode() {
					t.Errorf("%s changed: %v → %v (%v)", c.path, before.Mode(), after, err)
				}
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

func TestWriteReplacesRegularFilesAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	if err := outfile.Check(p); err != nil {
		t.Fatalf("Check(new file) = %v", err)
	}
	if err := outfile.WriteFile(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := outfile.WriteFile(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("content = %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != outfile.Perm {
		t.Errorf("mode = %v", st.Mode())
	}
	// A failing writer leaves the previous version and no temporary file.
	boom := errors.New("boom")
	if err := outfile.Write(p, func(w io.Writer) error { w.Write([]byte("partial")); return boom }); !errors.Is(err, boom) {
		t.Errorf("Write = %v, want boom", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("after a failed write: %q", b)
	}
	// Through a link: the target is replaced, the link kept.
	link := filepath.Join(dir, "link.json")
	os.Symlink("out.json", link)
	if err := outfile.WriteFile(link, []byte("three")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Errorf("target = %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("files left: %v", ents)
	}
}

func TestStdout(t *testing.T) {
	if !outfile.IsStdout("-") || outfile.IsStdout("./-") {
		t.Error("IsStdout")
	}
	if err := outfile.Check("-"); err != nil {
		t.Errorf("Check(-) = %v", err)
	}
	if err := outfile.WriteFile("-", nil); err == nil {
		t.Error("WriteFile(-) must be refused: callers write standard output themselves")
	}
}

// TestWriteSweepsStaleTemporaries: a SIGKILL during a write leaves
// .boardbench-NNN.tmp; the next write in that directory removes it when it
// is old enough and says so on standard error. A recent one (a write in
// progress) stays.
func TestWriteSweepsStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	stale, fresh := filepath.Join(dir, ".boardbench-123.tmp"), filepath.Join(dir, ".boardbench-456.tmp")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, make([]byte, 1000), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	werr := outfile.WriteFile(filepath.Join(dir, "out.json"), []byte("{}\n"))
	os.Stderr = saved
	w.Close()
	msg, _ := io.ReadAll(r)
	if werr != nil {
		t.Fatal(werr)
	}
	if _, err := os.Lstat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temporary file still there: %v", err)
	}
	if _, err := os.Lstat(fresh); err != nil {
		t.Errorf("recent temporary file removed: %v", err)
	}
	if !strings.Contains(string(msg), ".boardbench-123.tmp") || strings.Count(string(msg), "\n") != 1 {
		t.Errorf("stderr %q, want one line naming the removed file", msg)
	}
}
