package tempsweep

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSweep(t *testing.T) {
	pats := []*regexp.Regexp{regexp.MustCompile(`^\.boardbench-[0-9]+\.tmp$`)}
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "precious")
	old := time.Now().Add(-time.Hour)
	write := func(name string, age time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("data"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, age, age); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(".boardbench-123.tmp", old)        // stale: swept
	write(".boardbench-456.tmp", time.Now()) // in use: kept
	write(".boardbench-abc.tmp", old)        // not boardbench's name: kept
	write("boardbench-789.tmp", old)         // not hidden: kept
	write(".boardbench-1.tmp.bak", old)      // not the whole name: kept
	if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(outside, old, old)
	if err := os.Symlink(outside, filepath.Join(dir, ".boardbench-777.tmp")); err != nil { // a link: kept, not followed
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".boardbench-888.tmp"), 0o700); err != nil { // a directory: kept
		t.Fatal(err)
	}
	os.Chtimes(filepath.Join(dir, ".boardbench-888.tmp"), old, old)
	if err := syscall.Mkfifo(filepath.Join(dir, ".boardbench-999.tmp"), 0o600); err != nil { // a FIFO: kept
		t.Fatal(err)
	}
	os.Chtimes(filepath.Join(dir, ".boardbench-999.tmp"), old, old)

	// Another owner's file is kept (root can make one).
	other := write(".boardbench-555.tmp", old)
	otherOwned := os.Chown(other, 12345, 12345) == nil
	os.Chtimes(other, old, old)
	if !otherOwned {
		os.Remove(other)
		t.Log("cannot chown: another owner's file not tested")
	}

	swept := Sweep(dir, Options{Patterns: pats, UID: -1})
	if len(swept) != 1 || swept[0].Name != ".boardbench-123.tmp" || swept[0].Bytes != 4 {
		t.Errorf("swept %+v, want .boardbench-123.tmp only", swept)
	}
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	want := []string{".boardbench-1.tmp.bak", ".boardbench-456.tmp", ".boardbench-777.tmp", ".boardbench-888.tmp", ".boardbench-999.tmp", ".boardbench-abc.tmp", "boardbench-789.tmp"}
	if otherOwned {
		want = append(want, ".boardbench-555.tmp")
		slices.Sort(want)
	}
	slices.Sort(left)
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Errorf("link target changed: %q", b)
	}
	if line := Line(dir, swept); !strings.Contains(line, ".boardbench-123.tmp") || !strings.Contains(line, dir) || strings.Contains(line, "\n") {
		t.Errorf("line %q", line)
	}
	if Line(dir, nil) != "" || Sweep(filepath.Join(dir, "missing"), Options{Patterns: pats, UID: -1}) != nil {
		t.Error("nothing to sweep should say nothing")
	}
}
