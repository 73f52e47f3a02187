package main_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// boardBinary builds the board build (go build -tags board) once.
var boardBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(filepath.Dir(binary), "boardbench-board")
	// build-all's flags that change what runs at init: no inlining outside
	// the standard library, so a package-level call is not folded away.
	out, err := exec.Command("go", "build", "-tags", "board,nethttpomithttp2", "-gcflags=all=-l", "-gcflags=std=", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{string(out), err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string {
	return "building the board build: " + e.err.Error() + "\n" + e.out
}

func needBoard(t *testing.T) string {
	t.Helper()
	bin, err := boardBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// initLine is one line of GODEBUG=inittrace=1:
// "init boardbench/internal/host @0.52 ms, 0.004 ms clock, 984 bytes, 4 allocs".
var initLine = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, ([0-9]+) bytes, ([0-9]+) allocs$`)

// TestNoInitWork runs `boardbench version` of the full and the board
// build with GODEBUG=inittrace=1 and fails for each of boardbench's
// packages that runs code when the program starts (the runtime traces every
// package with init work). Issue 22 asks for none: a package whose init
// runs makes every command map that package's code and data, 64 KiB
// windows of the binary a board then keeps in memory. Tables are static
// data (slices of structs, switch statements, lazyre.Regexp constants) or
// built on first use (docs/architecture.md).
func TestNoInitWork(t *testing.T) {
	for _, tc := range []struct {
		name string
		bin  func(*testing.T) string
	}{
		{"full", func(*testing.T) string { return binary }},
		{"board", needBoard},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(tc.bin(t), "version")
			cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("version: %v\n%s", err, stderr.String())
			}
			lines := 0
			for _, l := range strings.Split(stderr.String(), "\n") {
				m := initLine.FindStringSubmatch(strings.TrimSpace(l))
				if m == nil {
					continue
				}
				lines++
				pkg := m[1]
				if tc.name == "board" && (strings.HasPrefix(pkg, "gonum.org/") || strings.HasPrefix(pkg, "github.com/prometheus/") ||
					strings.HasPrefix(pkg, "github.com/jackc/") || strings.HasPrefix(pkg, "boardbench/internal/serve")) {
					t.Errorf("the board build links %s", pkg)
				}
				if strings.HasPrefix(pkg, "boardbench/") {
					t.Errorf("%s runs code at start-up (%s bytes in %s allocations): make its tables static data or build them on first use",
						pkg, m[2], m[3])
				}
			}
			if lines == 0 {
				t.Fatalf("no init trace on stderr:\n%s", stderr.String())
			}
		})
	}
}

// TestBoardBuildCommands checks that the board build keeps every command a
// board needs, and that each lab part it leaves out refuses in one line
// naming what to run on a lab machine (exit 2).
func TestBoardBuildCommands(t *testing.T) {
	bin := needBoard(t)
	out, err := exec.Command(bin, "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	inList := false
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "Available Commands:"):
			inList = true
		case inList && strings.TrimSpace(l) == "":
			inList = false
		case inList:
			listed[strings.Fields(l)[0]] = true
		}
	}
	for _, c := range []string{"info", "capture", "restore", "version", "monitor", "run", "clock", "mem", "c2c",
		"storage", "writes", "net", "sweep", "thermal", "review", "kernel", "report", "results", "compare", "import"} {
		if !listed[c] {
			t.Errorf("the board build lacks %q", c)
		}
	}
	if v, _ := exec.Command(bin, "version").Output(); !strings.Contains(string(v), "board build") {
		t.Errorf("version does not say it is a board build: %q", v)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--listen", "0.0.0.0:8080"}, "run: boardbench serve with the same arguments"},
		{[]string{"report", "--html", "r.json", "-o", "r.html"}, "run: boardbench report --html"},
		{[]string{"report", "--charts", "c", "r.json"}, "run: boardbench report --charts"},
		{[]string{"results", "list", "--store", "postgres://u:secret@db/b"}, "PostgreSQL store is not in this board build"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "BOARDBENCH_STORE="+filepath.Join(dir, "results.db"))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		msg := stderr.String()
		if err == nil || code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) ||
			(tc.args[0] != "results" && !strings.Contains(msg, "go build -o boardbench ./cmd/boardbench")) || strings.Contains(msg, "secret") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", tc.args, code, msg, tc.want)
		}
	}
	// The full build has them all.
	if out, err := exec.Command(binary, "serve", "--help").Output(); err != nil || !strings.Contains(string(out), "--listen") {
		t.Errorf("the full build's serve: %v", err)
	}
}
