package hostiletest_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/cmd/root"
	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

// marker is the content of every file outside the fixture roots. It must
// never appear in any output, error or archive.
const marker = "BOARDBENCH-HOSTILE-SECRET-5c1e"

// hangGuard is how long one command may take on a hostile root before the
// test calls it hung. It only tells a command that blocks (on a FIFO, a
// device, a link loop) from one that ends, so it is generous: on a loaded
// machine an honest capture takes many seconds. Bounded reads are checked
// by what the commands print and store, not by their speed.
const hangGuard = 3 * time.Minute

// board is the fixture every hostile root starts from.
const board = "../../testdata/boards/rpi4b"

// TestMain lets more hostile roots run at once than there are CPUs (the
// default of -parallel): most of a case's time is spent waiting for the
// disk (the capture's fsync) and the monitor's interval. An explicit
// -parallel wins.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "8")
	}
	// The commands' results go to a store of the test's own, never the
	// developer's (production code does not know it runs under go test).
	dir, err := os.MkdirTemp("", "boardbench-hostile-store-")
	if err != nil {
		panic(err)
	}
	os.Setenv("BOARDBENCH_STORE", filepath.Join(dir, "results.db"))
	code := m.Run()
	os.RemoveAll(dir)
	if binPath != "" && binErr == nil {
		os.RemoveAll(filepath.Dir(binPath)) // the binary escapes_test.go built
	}
	os.Exit(code)
}

// outcome is how one run of boardbench ended.
type outcome struct {
	stdout, stderr string
	code           int
	timedOut       bool
}

// slowDeadline bounds a command that measures for a while (a monitor
// session): a hang, not a speed limit, on a loaded machine.
const slowDeadline = hangGuard

// execute runs boardbench with args through the real command tree, giving
// up after the hang guard. The returned stderr includes the error line main
// would print. It may run on any goroutine.
func execute(args ...string) outcome { return executeWithin(hangGuard, args...) }

// executeWithin is execute with its own deadline.
func executeWithin(limit time.Duration, args ...string) outcome {
	ios, out, errOut := iostreams.Test()
	cmd := root.NewCmd(cmdutil.NewFactory(ios))
	cmd.SetArgs(args)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			fmt.Fprintf(errOut, "boardbench: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		}
		return outcome{stdout: out.String(), stderr: errOut.String(), code: cmdutil.ExitCode(err)}
	case <-time.After(limit):
		// Stop the command and give it a moment to leave the test's
		// directories alone; if it does not end, its goroutine is left
		// behind, blocked: exactly the defect this reports.
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
		return outcome{timedOut: true}
	}
}

// run is execute on the test's goroutine, failing the test on a timeout.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runWithin(t, hangGuard, args...)
}

// runWithin is run with its own deadline.
func runWithin(t *testing.T, limit time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	o := executeWithin(limit, args...)
	if o.timedOut {
		t.Fatalf("boardbench %s hung: it did not end within %v", strings.Join(args, " "), limit)
	}
	return o.stdout, o.stderr, o.code
}

// secrets is what lies outside the roots: a single file and, for links to
// directories, trees whose every file holds the marker.
type secrets struct {
	file string // a file holding the marker
	dir  string // a directory of trees holding the marker
}

func newSecrets(t *testing.T) secrets {
	t.Helper()
	dir := t.TempDir()
	s := secrets{file: filepath.Join(dir, "shadow"), dir: filepath.Join(dir, "trees")}
	if err := os.WriteFile(s.file, []byte("root:"+marker+":19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// poisonedCopy copies the fixture tree at rel (a directory of the board)
// outside the root with every file's content replaced by the marker, and
// returns its path: a directory link to it offers the reader exactly the
// names it looks for.
func (s secrets) poisonedCopy(t *testing.T, rel string) string {
	t.Helper()
	os.MkdirAll(s.dir, 0o755)
	dst, err := os.MkdirTemp(s.dir, strings.ReplaceAll(rel, "/", "_")+"-")
	must(t, err)
	copyTree(t, filepath.Join(board, rel), dst, marker+"\n")
	return dst
}

// copyTree copies src to dst, keeping links and leaving out the
// directories skip (relative to src); with poison != "" every regular file
// gets that content instead of its own.
func copyTree(t *testing.T, src, dst, poison string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if slices.Contains(skip, filepath.ToSlash(rel)) {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case d.IsDir():
			return os.MkdirAll(target, 0o755) // dst itself may exist
		}
		data := []byte(poison)
		if poison == "" {
			if data, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// newRoot returns a fresh copy of the board with a recorded kernel log.
// The platform devices (storage, network, buses: the bulk of the files)
// stay out, to keep the suite fast; none of the attacked places lies there.
func newRoot(t *testing.T) string {
	t.Helper()
	r := filepath.Join(t.TempDir(), "root")
	copyTree(t, board, r, "", "sys/devices/platform")
	dmesg := "[    0.000000] Booting Linux on physical CPU 0x0\n[    1.000000] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n"
	if err := os.WriteFile(filepath.Join(r, ".boardbench/commands/dmesg"), []byte(dmesg), 0o644); err != nil {
		t.Fatal(err)
	}
	return r
}

// canMknod reports whether this test may create device nodes (root).
func canMknod(t *testing.T) bool {
	p := filepath.Join(t.TempDir(), "probe")
	return syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|5) == nil
}

// A hostile thing put at one place of a root.
type hostility struct {
	name string
	// device is true when it needs mknod (root).
	device bool
	put    func(t *testing.T, s secrets, root, place string)
}

func relTo(t *testing.T, fromDir, to string) string {
	t.Helper()
	r, err := filepath.Rel(fromDir, to)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fileHostilities replace a file the commands read.
var fileHostilities = []hostility{
	{"absolute link out", false, func(t *testing.T, s secrets, root, p string) { must(t, os.Symlink(s.file, p)) }},
	{"relative link out", false, func(t *testing.T, s secrets, root, p string) {
		must(t, os.Symlink(relTo(t, filepath.Dir(p), s.file), p))
	}},
	{"fifo", false, func(t *testing.T, s secrets, root, p string) { must(t, syscall.Mkfifo(p, 0o644)) }},
	{"zero device", true, func(t *testing.T, s secrets, root, p string) {
		must(t, syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|5))
	}},
	{"link to /dev/zero", false, func(t *testing.T, s secrets, root, p string) {
		// The link stays inside the root, where /dev/zero is a real
		// zero device when the test may create one.
		os.MkdirAll(filepath.Join(root, "dev"), 0o755)
		syscall.Mknod(filepath.Join(root, "dev/zero"), syscall.S_IFCHR|0o644, 1<<8|5)
		must(t, os.Symlink("/dev/zero", p))
	}},
	{"link loop", false, func(t *testing.T, s secrets, root, p string) {
		must(t, os.Symlink(filepath.Base(p)+".loop", p))
		must(t, os.Symlink(filepath.Base(p), p+".loop"))
	}},
	{"sparse 10 GiB", false, func(t *testing.T, s secrets, root, p string) {
		f, err := os.Create(p)
		must(t, err)
		must(t, f.Truncate(10<<30))
		f.Close()
	}},
}

// dirHostilities replace a directory the commands list or read below.
var dirHostilities = []hostility{
	{"absolute link out", false, func(t *testing.T, s secrets, root, p string) {
		rel := relTo(t, root, p)
		must(t, os.Symlink(s.poisonedCopy(t, filepath.ToSlash(rel)), p))
	}},
	{"relative link out", false, func(t *testing.T, s secrets, root, p string) {
		rel := relTo(t, root, p)
		must(t, os.Symlink(relTo(t, filepath.Dir(p), s.poisonedCopy(t, filepath.ToSlash(rel))), p))
	}},
	{"fifo", false, func(t *testing.T, s secrets, root, p string) { must(t, syscall.Mkfifo(p, 0o644)) }},
	{"link loop", false, func(t *testing.T, s secrets, root, p string) { must(t, os.Symlink(filepath.Base(p), p)) }},
}

// filePlaces are files the reading commands read, one of each kind:
// /proc, /sys (behind links), /etc, the device tree, recorded command
// outputs and the recorded kernel log.
var filePlaces = []string{
	"proc/cpuinfo",
	"proc/meminfo",
	"proc/cmdline",
	"proc/sys/kernel/osrelease",
	"etc/os-release",
	"sys/firmware/devicetree/base/model",
	"sys/devices/virtual/thermal/thermal_zone0/temp",
	"sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq",
	".boardbench/commands/gcc_--version",
	".boardbench/commands/vcgencmd_measure_temp",
	".boardbench/commands/uname_-m",
	".boardbench/commands/dmesg",
}

// dirPlaces are directories the reading commands list or read below.
var dirPlaces = []string{
	"proc",
	"etc",
	"sys/class/thermal",
	"sys/devices/system/cpu",
	"sys/firmware/devicetree/base",
	".boardbench/commands",
	".boardbench",
}

// readingCommands are every command that reads a machine, each given a
// hostile root; out is a path for an output file.
var readingCommands = []struct {
	name    string
	args    func(root, out string) []string
	archive bool // -o out holds a capture archive afterwards
}{
	{"info", func(r, o string) []string { return []string{"info", "--root", r} }, false},
	{"info --json", func(r, o string) []string { return []string{"info", "--json", "--root", r} }, false},
	{"capture -o FILE", func(r, o string) []string { return []string{"capture", "--root", r, "-o", o} }, true},
	{"capture -o -", func(r, o string) []string { return []string{"capture", "--root", r, "-o", "-"} }, false},
	{"monitor", func(r, o string) []string {
		return []string{"monitor", "--root", r, "--count", "1", "--interval", "0.1"}
	}, false},
	{"monitor --json", func(r, o string) []string {
		return []string{"monitor", "--json", "--root", r, "--count", "1", "--interval", "0.1"}
	}, false},
	{"clock", func(r, o string) []string { return []string{"clock", "--root", r} }, false},
	{"mem", func(r, o string) []string { return []string{"mem", "--root", r} }, false},
	{"c2c", func(r, o string) []string { return []string{"c2c", "--root", r} }, false},
}

// checkOutput fails the test when the marker shows anywhere or more than
// one line went to standard error.
func checkOutput(t *testing.T, stdout, stderr string) {
	t.Helper()
	if lines := strings.Count(strings.TrimRight(stderr, "\n"), "\n") + 1; stderr != "" && lines > 1 {
		t.Errorf("%d lines on standard error, want at most one:\n%s", lines, stderr)
	}
	if strings.Contains(stderr, marker) {
		t.Errorf("standard error shows what lies outside the root:\n%s", stderr)
	}
	if strings.Contains(stdout, marker) {
		t.Errorf("standard output shows what lies outside the root")
	}
	if looksGzip(stdout) {
		checkArchive(t, "the archive on standard output", []byte(stdout))
	}
}

func looksGzip(s string) bool { return len(s) > 2 && s[0] == 0x1f && s[1] == 0x8b }

// checkArchive fails the test when any member of a capture archive holds
// the marker.
func checkArchive(t *testing.T, what string, data []byte) {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Errorf("%s: not gzip: %v", what, err)
		return
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(tr, 64<<20))
		if bytes.Contains(body, []byte(marker)) {
			t.Errorf("%s: member %s holds what lies outside the root", what, hdr.Name)
		}
	}
}

// runAll runs every reading command against root, all at once (they are
// independent, and most of their time is the monitor's interval).
func runAll(t *testing.T, root string) {
	t.Helper()
	outs := make([]string, len(readingCommands))
	results := make([]chan outcome, len(readingCommands))
	for i, c := range readingCommands {
		outs[i] = filepath.Join(t.TempDir(), "capture.tar.gz")
		results[i] = make(chan outcome, 1)
		go func() { results[i] <- execute(c.args(root, outs[i])...) }()
	}
	for i, c := range readingCommands {
		o := <-results[i]
		t.Run(c.name, func(t *testing.T) {
			if o.timedOut {
				t.Fatalf("hung: did not end within %v", hangGuard)
			}
			checkOutput(t, o.stdout, o.stderr)
			if c.archive {
				if data, err := os.ReadFile(outs[i]); err == nil {
					checkArchive(t, outs[i], data)
				}
			}
		})
	}
}

func TestHostileRoots(t *testing.T) {
	devices := canMknod(t)
	s := newSecrets(t)
	type hostileCase struct {
		place string
		h     hostility
	}
	var cases []hostileCase
	for _, p := range filePlaces {
		for _, h := range fileHostilities {
			cases = append(cases, hostileCase{p, h})
		}
	}
	for _, p := range dirPlaces {
		for _, h := range dirHostilities {
			cases = append(cases, hostileCase{p, h})
		}
	}
	for _, c := range cases {
		t.Run(c.place+"/"+c.h.name, func(t *testing.T) {
			if c.h.device && !devices {
				t.Skip("creating device nodes needs root")
			}
			t.Parallel()
			root := newRoot(t)
			p := filepath.Join(root, filepath.FromSlash(c.place))
			must(t, os.RemoveAll(p))
			c.h.put(t, s, root, p)
			runAll(t, root)
		})
	}
}

// TestHostileResultFiles runs report on files built to hang or exhaust it.
func TestHostileResultFiles(t *testing.T) {
	s := newSecrets(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	must(t, syscall.Mkfifo(fifo, 0o644))
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	must(t, err)
	must(t, f.Truncate(10<<30))
	f.Close()
	loop := filepath.Join(dir, "loop.json")
	must(t, os.Symlink("loop.json", loop))
	secretLink := filepath.Join(dir, "shadow.json")
	must(t, os.Symlink(s.file, secretLink))
	files := []string{fifo, huge, loop, secretLink, "/dev/zero", dir}
	for _, file := range files {
		for _, view := range [][]string{{}, {"--json"}, {"--markdown-row"}} {
			args := append(append([]string{"report"}, view...), file)
			t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
				stdout, stderr, code := run(t, args...)
				checkOutput(t, stdout, stderr)
				if code != 2 {
					t.Errorf("exit status %d, want 2 (bad input); stderr: %s", code, stderr)
				}
			})
		}
	}
}
