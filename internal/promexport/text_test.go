package promexport

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// collectAndCompare compares the families names of e's output with want,
// a text exposition whose families may come in any order (as the client
// library's testutil.CollectAndCompare did).
func collectAndCompare(e *Exporter, want string, names ...string) error {
	var out strings.Builder
	if err := e.WriteText(&out); err != nil {
		return err
	}
	got, wantBlocks := blocks(out.String(), names), blocks(want, names)
	if got != wantBlocks {
		return fmt.Errorf("exposition differs:\n--- got\n%s--- want\n%s", got, wantBlocks)
	}
	return nil
}

// blocks returns the families named in names (all when none) of the
// exposition text, sorted by name.
func blocks(text string, names []string) string {
	byName := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if l == "" {
			continue
		}
		name := l
		if f := strings.Fields(l); f[0] == "#" && len(f) > 2 {
			name = f[2]
		} else {
			name = l[:strings.IndexAny(l+" ", "{ ")]
		}
		if len(names) == 0 || slices.Contains(names, name) {
			byName[name] += l + "\n"
		}
	}
	keys := make([]string, 0, len(byName))
	for k := range byName {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(byName[k])
	}
	return b.String()
}

// collectAndCount counts the series of e's output in the families names
// (all when none).
func collectAndCount(e *Exporter, names ...string) int {
	var out strings.Builder
	if err := e.WriteText(&out); err != nil {
		return -1
	}
	n := 0
	for _, l := range strings.Split(blocks(out.String(), names), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			n++
		}
	}
	return n
}

// TestWriteText checks the text format itself: order, escaping, values,
// empty families and repeated series.
func TestWriteText(t *testing.T) {
	for _, tc := range []struct {
		name string
		fams func() []*family
		want string
	}{
		{"sorted families and series, constant labels merged by name", func() []*family {
			b := &family{name: "b_total", help: "B.", typ: counterType, labels: []string{"cpu"}}
			b.add(2, "10")
			b.add(1, "2")
			a := &family{name: "a", help: "A.", typ: gaugeType}
			a.add(0.5)
			return []*family{b, a}
		}, "# HELP a A.\n# TYPE a gauge\na{board=\"X\",soc=\"Y\"} 0.5\n" +
			"# HELP b_total B.\n# TYPE b_total counter\nb_total{board=\"X\",cpu=\"10\",soc=\"Y\"} 2\nb_total{board=\"X\",cpu=\"2\",soc=\"Y\"} 1\n"},
		{"escaping of help and label values, invalid UTF-8 replaced", func() []*family {
			f := &family{name: "m", help: "back\\slash\nline", typ: gaugeType, labels: []string{"l"}}
			f.add(1, "q\"b\\n\nx\xff")
			return []*family{f}
		}, "# HELP m back\\\\slash\\nline\n# TYPE m gauge\nm{board=\"X\",l=\"q\\\"b\\\\n\\nx\uFFFD\",soc=\"Y\"} 1\n"},
		{"special and large values", func() []*family {
			f := &family{name: "v", help: "V.", typ: gaugeType, labels: []string{"k"}}
			f.add(math.Inf(1), "a")
			f.add(math.Inf(-1), "b")
			f.add(math.NaN(), "c")
			f.add(1.8e9, "d")
			f.add(1e-7, "e")
			return []*family{f}
		}, "# HELP v V.\n# TYPE v gauge\nv{board=\"X\",k=\"a\",soc=\"Y\"} +Inf\nv{board=\"X\",k=\"b\",soc=\"Y\"} -Inf\n" +
			"v{board=\"X\",k=\"c\",soc=\"Y\"} NaN\nv{board=\"X\",k=\"d\",soc=\"Y\"} 1.8e+09\nv{board=\"X\",k=\"e\",soc=\"Y\"} 1e-07\n"},
		{"a family without samples is left out, a repeated series kept once", func() []*family {
			empty := &family{name: "empty", help: "E.", typ: gaugeType}
			f := &family{name: "s", help: "S.", typ: gaugeType, labels: []string{"sensor"}}
			f.add(1, "in0")
			f.add(2, "in0")
			return []*family{empty, f}
		}, "# HELP s S.\n# TYPE s gauge\ns{board=\"X\",sensor=\"in0\",soc=\"Y\"} 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			if err := writeText(&out, tc.fams(), [][2]string{{"board", "X"}, {"soc", "Y"}}); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out.String(), tc.want)
			}
		})
	}
}
