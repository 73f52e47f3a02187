package importcmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/store"
	"boardbench/internal/testutil/cmdtest"
	"boardbench/internal/testutil/shareddata"
)

// run runs `import ARGS` against a store file and returns stdout, stderr
// and the exit status.
func run(t *testing.T, db string, args ...string) (string, string, int) {
	t.Helper()
	return cmdtest.Run(t, NewCmd, cmdtest.Store(db), args...)
}

func lines(t *testing.T, out string) []Outcome {
	t.Helper()
	var outcomes []Outcome
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var o Outcome
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		outcomes = append(outcomes, o)
	}
	return outcomes
}

// TestImportDuplicateAndRejected imports two logs, then the same two again
// (one under another name and with Windows line ends) and a file that is
// not a log.
func TestImportDuplicateAndRejected(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	a := shareddata.ReadLog(t, "1ET4.txt")
	b := shareddata.ReadLog(t, "1ism.txt")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pa, pb := write("a.txt", a), write("b.txt", b)
	out, _, code := run(t, db, "--json", pa, pb)
	got := lines(t, out)
	if code != 0 || len(got) != 2 || got[0].Status != StatusImported || got[1].Status != StatusImported || got[0].ID == got[1].ID {
		t.Fatalf("first import: exit %d, %+v", code, got)
	}
	copyCRLF := write("copy.log", strings.ReplaceAll(a, "\n", "\r\n"))
	notLog := write("notes.txt", "shopping list\nmilk\n")
	out, errOut, code := run(t, db, "--json", copyCRLF, pb, notLog)
	again := lines(t, out)
	if code != 2 {
		t.Errorf("exit %d, want 2 (a file rejected); stderr %q", code, errOut)
	}
	if len(again) != 3 || again[0].Status != StatusDuplicate || again[0].ID != got[0].ID ||
		again[1].Status != StatusDuplicate || again[1].ID != got[1].ID {
		t.Fatalf("second import: %+v", again)
	}
	if r := again[2]; r.Status != StatusRejected || r.ID != "" || !strings.Contains(r.Reason, "not an sbc-bench result log") {
		t.Errorf("not a log: %+v", r)
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, total, err := st.List(context.Background(), store.Query{Kind: "import"})
	if err != nil || total != 2 || len(recs) != 2 {
		t.Fatalf("store holds %d imported results (%v), want 2", total, err)
	}
	for _, rec := range recs {
		if rec.Kind != "import" || (rec.ID != got[0].ID && rec.ID != got[1].ID) {
			t.Errorf("record %+v", rec)
		}
	}
	// the identity the log states is indexed: `results list --soc` and
	// serve's filters find the import (1ET4.txt: lscpu's BIOS model name,
	// and its topology table)
	bySoC, n, err := st.List(context.Background(), store.Query{SoC: "CIX P1 CP8180", CoreType: "Cortex-A720"})
	if err != nil || n != 1 || bySoC[0].ID != got[0].ID {
		t.Fatalf("by SoC and core type: %d records (%v), want the import of 1ET4.txt", n, err)
	}
	if r := bySoC[0]; r.Board != "Micro Computer (HK) Tech Limited MS-R1 1.0" || r.Arch != "arm64" ||
		r.Kernel != "6.6.10-cix-build-generic" || r.Tools["7zip"] == "" || r.Tools["openssl"] == "" {
		t.Errorf("record %+v", r)
	}
}

// TestImportTextAndDir imports a directory in text mode: one line per
// file, a summary on standard error, and the empty file rejected.
func TestImportTextAndDir(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.Mkdir(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"x.txt": shareddata.ReadLog(t, "1ET4.txt"), "empty.txt": "", ".hidden": "x"} {
		if err := os.WriteFile(filepath.Join(logs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := run(t, filepath.Join(dir, "r.db"), logs, filepath.Join(dir, "missing.txt"))
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	want := []string{"rejected   " + filepath.Join(logs, "empty.txt") + ": not an sbc-bench result log: the file is empty",
		"imported   ", "rejected   " + filepath.Join(dir, "missing.txt") + ": no such file or directory"}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if len(got) != 3 {
		t.Fatalf("output %q", out)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("line %d = %q, want prefix %q", i+1, got[i], want[i])
		}
	}
	if !strings.Contains(errOut, "1 imported, 0 duplicate, 2 rejected") || !strings.Contains(errOut, "2 of 3 files rejected") {
		t.Errorf("stderr %q", errOut)
	}
}

// BenchmarkImportAll imports every reference log into a fresh SQLite store.
func BenchmarkImportAll(b *testing.B) {
	dir := shareddata.Dir(b, shareddata.LogsDir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for b.Loop() {
		b.StopTimer()
		db := filepath.Join(b.TempDir(), "r.db")
		st, err := store.Open(context.Background(), db)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for _, f := range files {
			if _, err := ImportFile(context.Background(), st, f); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(files)), "logs/op")
}
