package chart

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of the charts' data points")

// TestGolden reads every chart of the fixtures back from its SVG (the
// points, bars, bins, shaded spans and marks its elements carry as data
// attributes) and compares that with testdata/golden/NAME.txt: a point
// drawn out of order, lost or moved is caught, while a change of style or
// layout is not. The pixels of every line must follow its data. With
// -update the golden files are written anew.
func TestGolden(t *testing.T) {
	charts := allCharts(t)
	names := make([]string, 0, len(charts))
	for n := range charts {
		names = append(names, n)
	}
	sort.Strings(names)
	dir := filepath.Join("testdata", "golden")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range names {
		d := parseSVG(t, charts[name].SVG)
		d.checkPixels(t, name)
		got := "title " + charts[name].Title + "\n" + d.golden()
		path := filepath.Join(dir, name+".txt")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go test -run TestGolden -update)", name, err)
			continue
		}
		if got != string(want) {
			t.Errorf("%s: the chart's data differs from %s:\n%s", name, path, firstDiff(string(want), got))
		}
	}
	if !*update {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range files {
			if _, ok := charts[strings.TrimSuffix(filepath.Base(f), ".txt")]; !ok {
				t.Errorf("%s: no such chart drawn any more", f)
			}
		}
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n want " + cut(a) + "\n got  " + cut(b)
		}
	}
	return "(no line differs)"
}

func cut(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
