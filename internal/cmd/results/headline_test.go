package results

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/compare"
	"boardbench/internal/inventory"
	"boardbench/internal/report/mdrow"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/serve"
	"boardbench/internal/store"
)

// disturbedResult is a run on a 2-CPU board whose first multi-threaded
// 7-Zip run got 127 % of its 200 % (the recorded runs: 7692, 10432
// and 10206 MIPS), and whose single-threaded run on cpu1 ran while other
// tasks took 30 % of the CPU time: the headline 7-Zip multi figure is the
// mean of runs 2 and 3 (10319), the single-threaded headline cpu0's 1500.
func disturbedResult(t *testing.T) *result.Result {
	t.Helper()
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	in := &inventory.Info{}
	in.Board.Model = "Test Board"
	in.SoC.Guess = "Rockchip RK3566"
	in.OS.Kernel.Release = "6.1.0"
	r := result.New("run", in, map[string]any{})
	r.ID, r.Status, r.StartedAt = "cccc0000000000000000000000000003", result.StatusComplete, t0
	samples := func(own, foreign float64) []result.Sample {
		out := []result.Sample{{Time: t0}}
		for i := 1; i <= 10; i++ {
			out = append(out, result.Sample{Time: t0.Add(time.Duration(i) * time.Second), CPUPct: f64(own + foreign), WorkPct: f64(own), StealPct: f64(0)})
		}
		return out
	}
	zip := func(name string, cpus []int, threads int, usage []float64, totals ...float64) result.Phase {
		f := result.SevenZipFigures{CPUs: cpus, Threads: threads}
		for i, v := range totals {
			f.Runs = append(f.Runs, result.SevenZipRun{TotMIPS: f64(v), UsagePct: f64(usage[i])})
		}
		f.TotMIPS, f.DriftPct = result.MeanAndDrift(f.Runs)
		p := result.Phase{Name: name, CPUs: cpus, Status: result.PhaseOK}
		if err := p.SetFigures(f); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s0 := zip(result.PhaseSevenZipSingle, []int{0}, 1, []float64{100}, 1500)
	s0.Samples = samples(50, 0)
	s1 := zip(result.PhaseSevenZipSingle, []int{1}, 1, []float64{100}, 3000)
	s1.Samples = samples(50, 30)
	m := zip(result.PhaseSevenZipMulti, []int{0, 1}, 2, []float64{127, 178, 175}, 7692, 10432, 10206)
	m.Samples = samples(98, 1)
	r.Phases = []result.Phase{s0, s1, m}
	check.Validate(r, check.Facts{NCPU: 2}, result.BuildSummary, nil)
	return r
}

var number = regexp.MustCompile(`\d+(\.\d+)?`)

// TestOneHeadlineInEveryView renders one result with disturbed runs
// through every view that shows its headline figures — report, markdown
// row, compare (text and JSON), results list (text and JSON), CSV and JSON
// export, serve's table and result page — and checks that each shows the
// headline computed once in result (7-Zip multi 10319, the mean of the
// valid runs; 7-Zip single 1500, the disturbed 3000 left out), within the
// rounding the view documents (the published row rounds to 10).
func TestOneHeadlineInEveryView(t *testing.T) {
	r := disturbedResult(t)
	s := r.Summary
	if s.SevenZipMultiMIPS == nil || *s.SevenZipMultiMIPS != 10319 || *s.SevenZipMultiMIPSAllRuns != 9443.3 ||
		len(s.SevenZipSingleMIPS) != 1 || s.SevenZipSingleMIPS[0].Value != 1500 {
		t.Fatalf("summary: multi %v (all runs %v), single %+v", s.SevenZipMultiMIPS, s.SevenZipMultiMIPSAllRuns, s.SevenZipSingleMIPS)
	}
	if s.Valid {
		t.Errorf("a result that lost cpu1's single-threaded figure is valid: %q", s.Verdict)
	}
	const multi, single = 10319.0, 1500.0
	views := map[string]float64{}
	var multiViews, singleViews []string
	see := func(view string, v float64, isMulti bool) {
		views[view] = v
		if isMulti {
			multiViews = append(multiViews, view)
		} else {
			singleViews = append(singleViews, view)
		}
	}
	parse := func(view, s string) float64 {
		v, err := strconv.ParseFloat(number.FindString(s), 64)
		if err != nil {
			t.Errorf("%s: no number in %q", view, s)
		}
		return v
	}

	// report
	var b bytes.Buffer
	runtext.Render(&b, r, false)
	for _, line := range strings.Split(b.String(), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "7-Zip multi:"); ok {
			see("report", parse("report", v), true)
		}
		if f := strings.Fields(line); len(f) > 3 && f[0] == "cpu0" {
			see("report cpu0", parse("report", f[3]), false)
		}
		if f := strings.Fields(line); len(f) > 3 && f[0] == "cpu1" && f[3] != "disturbed" {
			t.Errorf("report shows cpu1's disturbed single-threaded figure: %q", line)
		}
	}
	// markdown row: | device | clock | kernel | distro | 7-Zip multi | 7-Zip single | ...
	cells := strings.Split(mdrow.Row(r), "|")
	see("markdown row", parse("markdown row", cells[5]), true)
	see("markdown row single", parse("markdown row", cells[6]), false)

	// compare
	other := disturbedResult(t)
	other.ID = "dddd0000000000000000000000000004"
	cmp, err := compare.Compare([]compare.Input{{Label: "a", Result: r}, {Label: "b", Result: other}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cmp.Figures {
		switch {
		case f.Key == "sevenzip_multi_mips":
			see("compare", *f.Values[0], true)
		case strings.HasPrefix(f.Key, "sevenzip_single_mips") && f.Values[0] != nil:
			see("compare single "+f.Key, *f.Values[0], false)
		}
	}
	var cb bytes.Buffer
	cmp.WriteText(&cb)
	for _, line := range strings.Split(cb.String(), "\n") {
		if strings.HasPrefix(line, "7-Zip multi-threaded") {
			see("compare text", parse("compare text", strings.TrimPrefix(line, "7-Zip multi-threaded (MIPS)")), true)
		}
	}

	// the store: results list, list --json, CSV and JSON export
	path := filepath.Join(t.TempDir(), "r.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(r)
	if _, _, err := st.Put(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out, _, err := run(t, path, false, "", "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	f := strings.Fields(lines[len(lines)-1])
	see("results list", parse("results list", f[len(f)-1]), true)
	out, _, _ = run(t, path, false, "", "list", "--json")
	var items []ListItem
	if err := json.Unmarshal([]byte(out), &items); err != nil || len(items) != 1 {
		t.Fatalf("list --json: %v", err)
	}
	see("results list --json", items[0].Summary["sevenzip_multi_mips"], true)
	out, _, _ = run(t, path, false, "", "export", "--all", "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	for _, col := range []string{"sevenzip_multi_mips", "sevenzip_single_mips.max"} {
		i := slices.Index(rows[0], col)
		if i < 0 {
			t.Fatalf("csv has no %s column: %v", col, rows[0])
		}
		see("csv "+col, parse("csv", rows[1][i]), col == "sevenzip_multi_mips")
	}
	out, _, _ = run(t, path, false, "", "export", "--all", "--format", "json")
	var docs []result.Result
	if err := json.Unmarshal([]byte(out), &docs); err != nil || len(docs) != 1 {
		t.Fatalf("export json: %v", err)
	}
	see("export json", *docs[0].Summary.SevenZipMultiMIPS, true)

	// serve: the table and the result page
	st, err = store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := serve.New(serve.Config{Store: st}).Handler()
	get := func(url string) string {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", url, nil))
		body, _ := io.ReadAll(w.Result().Body)
		return string(body)
	}
	table := get("/")
	if m := regexp.MustCompile(`data-v="([0-9.]+)"`).FindAllStringSubmatch(table, -1); len(m) > 0 {
		see("serve table (sort key)", parse("serve", m[0][1]), true)
	}
	for _, want := range []string{">10319<", ">1500<"} {
		if !strings.Contains(table, want) {
			t.Errorf("serve table lacks %s", want)
		}
	}
	for _, bad := range []string{">9443<", ">3000<"} {
		if strings.Contains(table, bad) {
			t.Errorf("serve table shows %s, a figure left out of the headline", bad)
		}
	}
	page := get("/results/" + r.ID)
	if !strings.Contains(page, "7-Zip multi: 10319 MIPS") {
		t.Errorf("serve result page lacks the headline 10319")
	}

	for _, v := range multiViews {
		want := multi
		if v == "markdown row" {
			want = 10320 // the published row rounds to 10
		}
		if views[v] != want {
			t.Errorf("%s shows 7-Zip multi %v, want %v", v, views[v], want)
		}
	}
	for _, v := range singleViews {
		if views[v] != single {
			t.Errorf("%s shows 7-Zip single %v, want %v", v, views[v], single)
		}
	}
	t.Logf("views: %v", views)
	if len(multiViews) < 8 || len(singleViews) < 4 {
		t.Errorf("views seen: multi %v, single %v", multiViews, singleViews)
	}
}
