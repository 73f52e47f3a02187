package sbcimport

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"

	"boardbench/internal/report/mdrow"
	"boardbench/internal/result"
	"boardbench/internal/testutil/shareddata"
)

// importAll parses every reference log; the empty one must be rejected.
func importAll(t *testing.T) map[string]*result.Result {
	t.Helper()
	out := map[string]*result.Result{}
	for _, lg := range shareddata.Logs(t) {
		l, err := Parse([]byte(lg.Text))
		if strings.TrimSpace(lg.Text) == "" {
			if !IsNotALog(err) {
				t.Errorf("%s: empty file: err = %v, want not-a-log", lg.Name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", lg.Name, err)
			continue
		}
		r := l.Result(lg.Name)
		// the document must survive a JSON round trip as a result
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%s: %v", lg.Name, err)
		}
		back, err := result.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", lg.Name, err)
		}
		out[lg.Name] = back
	}
	if len(out) < 200 {
		t.Fatalf("only %d logs imported", len(out))
	}
	return out
}

var (
	reFirstLine = regexp.MustCompile(`^sbc-bench v(\S+) (.*) \(`)
	reUnameR    = regexp.MustCompile(`(?m)^Linux (\d\S*) \(`)
)

// TestEveryLog checks facts of every log against the text by means
// independent of the parser: device and version from the first line,
// kernel from the first iostat line, 7-Zip totals and their mean.
func TestEveryLog(t *testing.T) {
	logs := shareddata.Logs(t)
	results := importAll(t)
	for _, lg := range logs {
		r, ok := results[lg.Name]
		if !ok {
			continue
		}
		t.Run(lg.Name, func(t *testing.T) {
			if r.Command != result.CommandImport || r.ID != ID([]byte(lg.Text)) || len(r.ID) != 32 {
				t.Errorf("command %q id %q", r.Command, r.ID)
			}
			first, _, _ := strings.Cut(lg.Text, "\n")
			if m := reFirstLine.FindStringSubmatch(first); m != nil {
				if r.Summary.ImportedFormatVersion != m[1] {
					t.Errorf("version %q, first line says %q", r.Summary.ImportedFormatVersion, m[1])
				}
				if strings.Join(strings.Fields(m[2]), " ") != r.Info.Board.Model {
					t.Errorf("device %q, first line %q", r.Info.Board.Model, first)
				}
			}
			if m := reUnameR.FindStringSubmatch(lg.Text); m != nil && r.Info.OS.Kernel.Release != m[1] {
				t.Errorf("kernel %q, log has %q", r.Info.OS.Kernel.Release, m[1])
			}
			// 7-Zip: the summary's runs are the totals the log lists, the
			// mean their mean
			if line := totalsLine(lg.Text); line != "" {
				var want []float64
				for _, f := range strings.Split(line, ",") {
					want = append(want, mustFloat(t, f))
				}
				got := r.Summary.SevenZipMultiRuns
				if len(got) == 0 && len(r.Info.CPU.CPUs) == 1 {
					// one CPU: the totals are those of the single-threaded run
					got = nil
					for _, v := range r.Summary.SevenZipSingleMIPS {
						got = append(got, v.Value)
					}
				}
				if len(got) != len(want) {
					t.Fatalf("7-Zip runs %v, log lists %v", got, want)
				}
				var sum float64
				for k := range want {
					if got[k] != want[k] {
						t.Errorf("7-Zip run %d = %v, log lists %v", k+1, got[k], want[k])
					}
					sum += want[k]
				}
				if m := r.Summary.SevenZipMultiMIPS; len(r.Summary.SevenZipMultiRuns) > 0 && (m == nil || math.Abs(*m-sum/float64(len(want))) > 0.05) {
					t.Errorf("7-Zip mean %v, mean of %v is %.1f", m, want, sum/float64(len(want)))
				}
			}
			if imp := result.ImportedOf(r); imp == nil || r.Phases[len(r.Phases)-1].RawOutput != Normalize([]byte(lg.Text)) {
				t.Errorf("the original text is not kept")
			}
		})
	}
}

func totalsLine(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "Total: "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	var v float64
	if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// TestRowReproduced: the markdown row of every imported log that printed
// one is that row, as printed, to the space.
func TestRowReproduced(t *testing.T) {
	logs := shareddata.Logs(t)
	results := importAll(t)
	n, noDevice := 0, 0
	for _, lg := range logs {
		want := shareddata.SummaryRowLine(lg.Text)
		r := results[lg.Name]
		if want == "" || r == nil {
			continue
		}
		n++
		if strings.HasPrefix(want, "|  /") {
			noDevice++
		}
		if got := mdrow.Row(r); got != want {
			t.Errorf("%s: row\n got %s\nwant %s", lg.Name, got, want)
		}
	}
	if n < 100 {
		t.Errorf("only %d logs with a row", n)
	}
	// 41Kb, 4eOo, 4iDX, 4pEc and 4xwq name no device: "|  / Celeron…"
	if noDevice < 5 {
		t.Errorf("only %d rows without a device name, want 5", noDevice)
	}
	t.Logf("%d rows reproduced, as printed", n)
}

// TestRowDerived: where the log printed a row in the current ten-column
// format (0.9.9 builds from November 2022 on), the row derived from the
// imported figures alone matches it, column by column, but for the known
// differences.
func TestRowDerived(t *testing.T) {
	logs := shareddata.Logs(t)
	results := importAll(t)
	names := []string{"Device", "Clockspeed", "Kernel", "Distro", "7-zip multi", "7-zip single", "AES", "memcpy", "memset", "kH/s"}
	compared := 0
	perColumn := make([]int, 10)
	unmarked := 0
	for _, lg := range logs {
		r := results[lg.Name]
		if r == nil || !tenColumns(r) {
			continue
		}
		want := r.Summary.ImportedRow
		compared++
		got := mdrow.Derive(r).Cells()
		for i := range got {
			w, g := strings.Join(strings.Fields(want[i]), " "), got[i]
			if i == 3 {
				w, g = lastWord(w), lastWord(g)
			}
			if g == w {
				continue
			}
			if _, known := derivedDifferences[lg.Name][i]; known {
				continue
			}
			if i == 1 && g == w+" (throttled)" {
				// the log's validation reports throttling, its row does not
				// mark the clockspeed: the script marks it by other criteria
				unmarked++
				continue
			}
			perColumn[i]++
			t.Errorf("%s %s: derived %q, log has %q", lg.Name, names[i], g, w)
		}
	}
	t.Logf("%d rows compared; differences per column %v; %d throttled clockspeeds the row leaves unmarked", compared, perColumn, unmarked)
	if unmarked > 6 {
		t.Errorf("%d rows leave a throttled clockspeed unmarked", unmarked)
	}
	if compared < 50 {
		t.Errorf("only %d ten-column rows", compared)
	}
}

func tenColumns(r *result.Result) bool {
	if len(r.Summary.ImportedRow) != 10 {
		return false
	}
	v := r.Summary.ImportedFormatVersion
	var a, b, c int
	if n, _ := fmtSscanf(v, &a, &b, &c); n != 3 || a != 0 || b != 9 || c < 9 {
		return false
	}
	return c > 9 || !r.StartedAt.Before(sevenZipSingleSince)
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// BenchmarkParseAll parses every reference log and builds its result,
// without a store (BenchmarkImportAll in internal/cmd/import adds the
// store).
func BenchmarkParseAll(b *testing.B) {
	logs := shareddata.Logs(b)
	for b.Loop() {
		for _, lg := range logs {
			if l, err := Parse([]byte(lg.Text)); err == nil {
				if _, err := json.Marshal(l.Result(lg.Name)); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(len(logs)), "logs/op")
}
