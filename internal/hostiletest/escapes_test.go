package hostiletest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"boardbench/internal/result"
	"boardbench/internal/testutil/shareddata"
)

// hostileBoard is a board name a stranger's log may carry: an OSC title
// change, an OSC 52 clipboard write, a screen clear, a terminal reset, a
// raw 8-bit CSI byte, C1 controls in UTF-8, DEL, a bell and a
// right-to-left override.
const hostileBoard = "Evil\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1bc\x9b2J\u009b31m\u0085\x7f\u202eBoard"

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// builtBinary builds cmd/boardbench once for the package's tests.
func builtBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "boardbench-hostile-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "boardbench")
		out, err := exec.Command("go", "build", "-o", binPath, "boardbench/cmd/boardbench").CombinedOutput()
		if err != nil {
			binErr = err
			binPath = string(out)
		}
	})
	if binErr != nil {
		t.Fatalf("building boardbench: %v\n%s", binErr, binPath)
	}
	return binPath
}

// runBinary runs the built binary with a clean environment of its own
// (no store variable, a private HOME).
func runBinary(t *testing.T, home string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(builtBinary(t), args...)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8", "TERM=xterm"}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running boardbench %s: %v", strings.Join(args, " "), err)
	}
	return o.Bytes(), e.Bytes(), code
}

// terminalControl describes the first byte or character of b a terminal
// would act on (ESC, BEL, any other C0 control but newline and tab, DEL, a
// raw C1 byte or any byte that is not UTF-8, a C1 character, a
// bidirectional override); "" when there is none.
func terminalControl(b []byte) string {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Sprintf("the byte %#02x (not UTF-8) at %d", b[i], i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("the character %U at %d", r, i)
		}
		i += size
	}
	return ""
}

// TestTerminalEscapesFromFiles imports a log whose board name holds
// terminal escapes, and shows it through every view on the built binary:
// no byte a terminal acts on may reach standard output or standard error,
// and the JSON outputs stay valid JSON holding the name unchanged.
func TestTerminalEscapesFromFiles(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	log := shareddata.ReadLog(t, "1ET4.txt")
	first, rest, _ := strings.Cut(log, "\n")
	if !strings.HasPrefix(first, "sbc-bench v0.9.72 ") {
		t.Fatalf("unexpected first line %q", first)
	}
	hostileLog := "sbc-bench v0.9.72 " + hostileBoard + " (Mon, 10 Nov 2025 23:46:00 +0800)\n" + rest
	evil := filepath.Join(dir, "evil\x1b]0;file\x07.txt")
	clean := filepath.Join(dir, "clean.txt")
	must(t, os.WriteFile(evil, []byte(hostileLog), 0o644))
	must(t, os.WriteFile(clean, []byte(shareddata.ReadLog(t, "1ism.txt")), 0o644))

	out, errOut, code := runBinary(t, dir, "import", "--json", "--store", db, evil, clean)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var o struct{ ID, Status string }
		if err := json.Unmarshal([]byte(l), &o); err != nil || o.ID == "" {
			t.Fatalf("import line %q: %v", l, err)
		}
		ids = append(ids, o.ID)
	}
	if bad := terminalControl(append(out, errOut...)); bad != "" {
		t.Errorf("import --json printed %s", bad)
	}
	// The stored document keeps the name (escaped in JSON, not lost).
	doc, _, code := runBinary(t, dir, "results", "show", "--json", "--store", db, ids[0])
	if code != 0 {
		t.Fatalf("results show --json: exit %d", code)
	}
	resultFile := filepath.Join(dir, "evil.json")
	must(t, os.WriteFile(resultFile, doc, 0o644))
	r, err := result.Load(resultFile)
	if err != nil {
		t.Fatalf("the shown document is not a result: %v", err)
	}
	if !strings.Contains(string(mustMarshal(t, r)), `Evil\u001b]0;pwned\u0007`) {
		t.Errorf("the stored result lost the board name")
	}

	views := []struct {
		name string
		args []string
		json bool
	}{
		{"import", []string{"import", "--store", db, evil}, false},
		{"results list", []string{"results", "list", "--store", db}, false},
		{"results list --json", []string{"results", "list", "--json", "--store", db}, true},
		{"results show", []string{"results", "show", "--store", db, ids[0]}, false},
		{"results show --json", []string{"results", "show", "--json", "--store", db, ids[0]}, true},
		{"results export csv", []string{"results", "export", "--store", db, "--format", "csv", ids[0]}, false},
		{"results export markdown", []string{"results", "export", "--store", db, "--format", "markdown", ids[0]}, false},
		{"results export json", []string{"results", "export", "--store", db, "--format", "json", ids[0]}, true},
		{"report", []string{"report", resultFile}, false},
		{"report --json", []string{"report", "--json", resultFile}, true},
		{"report --markdown-row", []string{"report", "--markdown-row", resultFile}, false},
		{"report --html", []string{"report", "--html", resultFile}, false},
		{"compare", []string{"compare", "--store", db, ids[0], ids[1]}, false},
		{"compare --markdown", []string{"compare", "--markdown", "--store", db, ids[0], ids[1]}, false},
		{"compare --json", []string{"compare", "--json", "--store", db, ids[0], ids[1]}, true},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			out, errOut, code := runBinary(t, dir, v.args...)
			if code != 0 {
				t.Errorf("exit %d: %s", code, errOut)
			}
			if bad := terminalControl(out); bad != "" {
				t.Errorf("standard output carries %s:\n%q", bad, firstLines(out))
			}
			if bad := terminalControl(errOut); bad != "" {
				t.Errorf("standard error carries %s:\n%q", bad, firstLines(errOut))
			}
			if v.name != "import" && !bytes.Contains(out, []byte("Evil")) {
				t.Errorf("the board name is not shown at all:\n%s", firstLines(out))
			}
			if v.json && !json.Valid(out) && !jsonLines(out) {
				t.Errorf("not valid JSON: %q", firstLines(out))
			}
		})
	}
}

func jsonLines(b []byte) bool {
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if !json.Valid(l) {
			return false
		}
	}
	return true
}

func firstLines(b []byte) string {
	if len(b) > 600 {
		b = b[:600]
	}
	return string(b)
}

func mustMarshal(t *testing.T, r *result.Result) []byte {
	t.Helper()
	b, err := result.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
