package sbcimport

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/testutil/shareddata"
)

// hugeLog returns a real log with n monitor lines added to its 7-Zip
// multi block; line hot is 99.9°C, all others below 90°C.
func hugeLog(t *testing.T, n, hot int) []byte {
	t.Helper()
	data := shareddata.ReadFile(t, "sbc-bench-logs/4E5J.txt")
	lines := strings.Split(string(data), "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "System health while running 7-zip multi core") {
			at = i + 2 // its header line
			break
		}
	}
	if at < 0 || !strings.HasPrefix(lines[at], "Time ") {
		t.Fatal("4E5J.txt: no 7-Zip multi monitor block")
	}
	var extra []string
	for k := range n {
		s := k % 86400
		temp := 40 + float64(k%500)/10
		if k == hot {
			temp = 99.9
		}
		extra = append(extra, fmt.Sprintf("%02d:%02d:%02d: %4d/1800MHz  4.%02d  93%%   1%%  92%%   0%%   0%%   0%%  %4.1f°C",
			s/3600, s/60%60, s%60, 2400-k%3*100, k%100, temp))
	}
	out := append(append(append([]string{}, lines[:at+1]...), extra...), lines[at+1:]...)
	return []byte(strings.Join(out, "\n"))
}

// TestHugeLogStoredOnce imports a 7 MB log of 100,000 monitor lines: the
// original text is kept whole, but the monitor rows beside it are thinned
// to MaxMonitorRows (the hottest line kept), so that the result is not
// the log twice over.
func TestHugeLogStoredOnce(t *testing.T) {
	const n, hot = 100_000, 54_321
	data := hugeLog(t, n, hot)
	l, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	r := l.Result("huge.txt")
	doc, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	// The text once (JSON escapes add a little), the rest small.
	if limit := len(data) + len(data)/5; len(doc) > limit {
		t.Errorf("the result of a %d-byte log is %d bytes, want at most %d (the text once)", len(data), len(doc), limit)
	}
	f := result.ImportedOf(r)
	var block *result.ImportedMonitoring
	for i := range f.Monitoring {
		if strings.HasPrefix(f.Monitoring[i].While, "7-zip multi") {
			block = &f.Monitoring[i]
		}
	}
	if block == nil {
		t.Fatal("no 7-Zip multi monitor block")
	}
	if len(block.Rows) > MaxMonitorRows || len(block.Rows) < MaxMonitorRows/2 {
		t.Errorf("%d rows kept, want at most %d", len(block.Rows), MaxMonitorRows)
	}
	if block.RowsInLog < n {
		t.Errorf("rows_in_log %d, want at least %d", block.RowsInLog, n)
	}
	found := false
	for _, row := range block.Rows {
		found = found || row[len(row)-1] == "99.9°C"
	}
	if !found {
		t.Error("the hottest line was not kept")
	}
	noted := false
	for _, note := range f.Notes {
		noted = noted || strings.Contains(note, "lines kept")
	}
	if !noted {
		t.Errorf("no note says lines were left out: %q", f.Notes)
	}
	for _, p := range r.Phases {
		if p.Name == result.PhaseImportedLog && (!strings.Contains(p.RawOutput, "99.9°C") || strings.Count(p.RawOutput, "MHz  4.") < n) {
			t.Error("the original text is not kept whole")
		}
	}
}
