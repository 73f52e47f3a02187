package hostiletest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"boardbench/internal/cmd/root"
	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory"
	"boardbench/internal/iostreams"
	"boardbench/internal/result"
)

// fullDisk is standard output on a full disk, like /dev/full.
type fullDisk struct{}

func (fullDisk) Write(p []byte) (int, error) { return 0, syscall.ENOSPC }

// savedResult writes a small complete result and returns its path.
func savedResult(t *testing.T) string {
	t.Helper()
	r := result.New("run", &inventory.Info{}, map[string]any{})
	r.Status = result.StatusComplete
	p := filepath.Join(t.TempDir(), "r.json")
	if err := result.Save(p, r); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWriteErrorsOnStandardOutput: output that cannot be written (a full
// disk, `> /dev/full`) is a failure, exit status 1 with one line.
func TestWriteErrorsOnStandardOutput(t *testing.T) {
	r := savedResult(t)
	cases := [][]string{
		{"version"},
		{"version", "--json"},
		{"info", "--root", board},
		{"info", "--json", "--root", board},
		{"report", r},
		{"report", "--json", r},
		{"report", "--markdown-row", r},
		{"capture", "--root", board, "-o", "-"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ios, _, stderr := iostreams.Test()
			ios.Out = iostreams.NewErrWriter(fullDisk{})
			cmd := root.NewCmd(cmdutil.NewFactory(ios))
			cmd.SetArgs(args)
			err := cmd.ExecuteContext(context.Background())
			if code := cmdutil.ExitCode(err); code != 1 || err == nil || !strings.Contains(err.Error(), "no space left on device") {
				t.Errorf("exit %d, err %v; want 1 and the write error", code, err)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
			if strings.Contains(stderr.String(), "wrote") {
				t.Errorf("claims success on standard error: %s", stderr)
			}
		})
	}
}

// TestOutputNeverReplacesSpecialFiles: -o naming a device, FIFO or
// directory is refused with one line and exit status 2, and the file stays
// what it was.
func TestOutputNeverReplacesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	must(t, syscall.Mkfifo(fifo, 0o644))
	targets := []string{fifo, dir}
	if dev := filepath.Join(dir, "full"); syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|7) == nil {
		targets = append(targets, dev) // a copy of /dev/full's node
	}
	link := filepath.Join(dir, "link-to-fifo")
	must(t, os.Symlink(fifo, link))
	targets = append(targets, link)
	for _, target := range targets {
		t.Run(filepath.Base(target), func(t *testing.T) {
			before, _ := os.Lstat(target)
			stdout, stderr, code := run(t, "capture", "--root", board, "-o", target)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr: %s", code, stderr)
			}
			if n := strings.Count(strings.TrimRight(stderr, "\n"), "\n") + 1; n != 1 || stdout != "" {
				t.Errorf("want one line on stderr and nothing on stdout, got %q / %q", stderr, stdout)
			}
			after, err := os.Lstat(target)
			if err != nil || after.Mode() != before.Mode() {
				t.Errorf("%s changed from %v to %v (%v)", target, before.Mode(), after, err)
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != len(targets)-1 {
		t.Errorf("temporary files left in %s: %v", dir, ents)
	}
}

// TestCaptureToStandardOutput: "-o -" is the explicit choice of standard
// output, and the archive there is the same as in a file.
func TestCaptureToStandardOutput(t *testing.T) {
	stdout, stderr, code := run(t, "capture", "--root", board, "-o", "-")
	if code != 0 || !looksGzip(stdout) {
		t.Fatalf("exit %d, stderr %s, stdout starts %q", code, stderr, stdout[:min(len(stdout), 8)])
	}
	checkArchive(t, "standard output", []byte(stdout))
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a file named "-" was written`)
	}
}
