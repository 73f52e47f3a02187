// Package shareddata finds the project's read-only reference data for tests:
// ../shared/data beside the module root (real /proc/cpuinfo files, full
// sbc-bench logs, the arm-socs table). A test that needs the data is
// skipped, with a message naming the missing path, when it is absent. It
// imports "testing" and is meant to be imported by _test.go files only.
package shareddata

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Find returns the path of ../shared/data/<rel> beside the module root (the
// nearest directory above the working directory that holds go.mod), or an
// error when the module root or that path is not found. Use it where the
// data is optional; Dir and ReadFile skip the test instead.
func Find(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("module root (go.mod) not found above the working directory")
		}
		dir = parent
	}
	p := filepath.Join(filepath.Dir(dir), "shared", "data", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// Dir returns the path of ../shared/data/<rel>, skipping the test when it
// is absent.
func Dir(t testing.TB, rel string) string {
	t.Helper()
	p, err := Find(rel)
	if err != nil {
		t.Skipf("reference data %s absent (%v): skipping", rel, err)
	}
	return p
}

// ReadFile returns the content of ../shared/data/<rel>, skipping the test
// when the file is absent.
func ReadFile(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(Dir(t, rel))
	if err != nil {
		t.Skipf("reference data %s unreadable (%v): skipping", rel, err)
	}
	return data
}

// LogsDir is the directory of the full sbc-bench logs, relative to
// ../shared/data.
const LogsDir = "sbc-bench-logs"

// Log is one full sbc-bench log of the reference data.
type Log struct {
	// Name is the log's file name, e.g. "1Xuf1O1.txt".
	Name string
	// Text is the whole log.
	Text string
}

// Logs returns every sbc-bench log (sbc-bench-logs/*.txt) sorted by name,
// skipping the test when there are none.
func Logs(t testing.TB) []Log {
	t.Helper()
	dir := Dir(t, LogsDir)
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Skipf("no sbc-bench logs in %s (reference data not present): skipping", dir)
	}
	sort.Strings(files)
	logs := make([]Log, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, Log{Name: filepath.Base(f), Text: string(b)})
	}
	return logs
}

// ReadLog returns the text of the sbc-bench log of that file name, skipping
// the test when it is absent.
func ReadLog(t testing.TB, name string) string {
	t.Helper()
	return string(ReadFile(t, LogsDir+"/"+name))
}

// SummaryRow returns the trimmed cells of a log's last one-line summary
// table row ("| board | clock | kernel | distro | 7-zip multi | ...": a line
// starting with "| " with at least ten '|'), or nil when it has none.
func SummaryRow(log string) []string {
	lines := strings.Split(log, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "| ") && strings.Count(l, "|") >= 10 {
			cells := strings.Split(strings.Trim(l, "|"), "|")
			for k := range cells {
				cells[k] = strings.TrimSpace(cells[k])
			}
			return cells
		}
	}
	return nil
}

// SummaryRowLine returns a log's last one-line summary table row (see
// SummaryRow) as printed, without the line's surrounding white space; ""
// when it has none.
func SummaryRowLine(log string) string {
	lines := strings.Split(log, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "| ") && strings.Count(l, "|") >= 10 {
			return l
		}
	}
	return ""
}
