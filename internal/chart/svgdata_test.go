package chart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// svgData is what a chart's SVG says about its data, read back from the
// data attributes its elements carry: every polyline with its points in
// data units and in pixels, every bar, histogram bin, shaded span and
// mark, in document order.
type svgData struct {
	Lines []svgLine
	Bars  []svgBar
	Bins  []string
	Spans []string
	Marks []string
	Texts []string
}

type svgLine struct {
	Series  string
	Segment int
	Data    []pt // data units
	Pixels  []pt
}

type svgBar struct {
	Category, Series string
	Value            float64
	X, Y, W, H       float64
}

// parseSVG reads a chart's SVG back; it fails the test on malformed XML.
func parseSVG(t *testing.T, svg []byte) svgData {
	t.Helper()
	var d svgData
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var inText bool
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			a := map[string]string{}
			for _, at := range e.Attr {
				a[at.Name.Local] = at.Value
			}
			switch {
			case e.Name.Local == "polyline" && a["class"] == "series":
				seg, _ := strconv.Atoi(a["data-segment"])
				d.Lines = append(d.Lines, svgLine{Series: a["data-series"], Segment: seg, Data: parsePoints(t, a["data-points"]), Pixels: parsePoints(t, a["points"])})
			case e.Name.Local == "rect" && a["class"] == "bar":
				d.Bars = append(d.Bars, svgBar{a["data-category"], a["data-series"], atof(t, a["data-value"]), atof(t, a["x"]), atof(t, a["y"]), atof(t, a["width"]), atof(t, a["height"])})
			case e.Name.Local == "rect" && a["class"] == "bin":
				d.Bins = append(d.Bins, a["data-x0"]+".."+a["data-x1"]+": "+a["data-count"])
			case e.Name.Local == "rect" && a["class"] == "span":
				d.Spans = append(d.Spans, a["data-x0"]+".."+a["data-x1"])
			case e.Name.Local == "line" && a["class"] == "mark":
				d.Marks = append(d.Marks, a["data-x"]+" "+a["data-label"])
			case e.Name.Local == "text" || e.Name.Local == "title":
				inText = true
				text.Reset()
			}
		case xml.CharData:
			if inText {
				text.Write(e)
			}
		case xml.EndElement:
			if inText && (e.Name.Local == "text" || e.Name.Local == "title") {
				d.Texts = append(d.Texts, text.String())
				inText = false
			}
		}
	}
	return d
}

func parsePoints(t *testing.T, s string) []pt {
	t.Helper()
	var out []pt
	for _, f := range strings.Fields(s) {
		x, y, ok := strings.Cut(f, ",")
		if !ok {
			t.Fatalf("bad point %q", f)
		}
		out = append(out, pt{atof(t, x), atof(t, y)})
	}
	return out
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad number %q", s)
	}
	return v
}

// golden writes the data of a chart as text for its golden file: every
// line's points in data units, every bar, bin, span and mark, in order.
func (d svgData) golden() string {
	var b strings.Builder
	for _, l := range d.Lines {
		fmt.Fprintf(&b, "line %q segment %d:", l.Series, l.Segment)
		for _, p := range l.Data {
			fmt.Fprintf(&b, " %s,%s", num(p.X), num(p.Y))
		}
		b.WriteString("\n")
	}
	for _, r := range d.Bars {
		fmt.Fprintf(&b, "bar %q %q: %s\n", r.Category, r.Series, num(r.Value))
	}
	for _, s := range d.Bins {
		fmt.Fprintf(&b, "bin %s\n", s)
	}
	for _, s := range d.Spans {
		fmt.Fprintf(&b, "span %s\n", s)
	}
	for _, s := range d.Marks {
		fmt.Fprintf(&b, "mark %s\n", s)
	}
	return b.String()
}

// hasText reports whether some text element of the chart holds s.
func (d svgData) hasText(s string) bool {
	for _, t := range d.Texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// checkPixels checks that the pixels of every line follow its data: x
// and y in the same order as the data (y upside down), inside the chart.
func (d svgData) checkPixels(t *testing.T, name string) {
	t.Helper()
	for _, l := range d.Lines {
		if len(l.Data) != len(l.Pixels) {
			t.Errorf("%s %q: %d data points, %d pixels", name, l.Series, len(l.Data), len(l.Pixels))
			continue
		}
		idx := make([]int, len(l.Data))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return l.Data[idx[a]].X < l.Data[idx[b]].X })
		for k := 1; k < len(idx); k++ {
			i, j := idx[k-1], idx[k]
			if l.Data[i].X < l.Data[j].X && l.Pixels[i].X > l.Pixels[j].X {
				t.Errorf("%s %q: x pixels out of order", name, l.Series)
				break
			}
		}
		for i := range l.Data {
			for j := range l.Data {
				if l.Data[i].Y < l.Data[j].Y && l.Pixels[i].Y < l.Pixels[j].Y {
					t.Fatalf("%s %q: y pixels not upside down of the data", name, l.Series)
				}
			}
			if p := l.Pixels[i]; p.X < 0 || p.X > Width || p.Y < 0 {
				t.Errorf("%s %q: point %v outside the chart", name, l.Series, p)
			}
		}
	}
}
