package chart

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The size of every chart in CSS pixels: the width is fixed, the height
// grows with the title, the marks above the plot and the legend below it.
const (
	Width      = 800
	plotHeight = 300
)

// FontFamily is the font stack of every text in a chart: the one the web
// pages (internal/serve, report --html) use, so that charts inline in a
// page look like the page. No font is embedded.
const FontFamily = "system-ui, sans-serif"

// Font sizes in pixels.
const (
	titleSize  = 15
	noteSize   = 11
	labelSize  = 12
	tickSize   = 11
	legendSize = 12
	markSize   = 10.5
)

// palette holds the series colours: distinct for colour-blind readers
// (Okabe and Ito's set, then darker tones).
var palette = [...]string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B", "#7F7F7F", "#B8860B", "#1F4E79", "#A83232", "#2E6B30", "#6A3D9A", "#B15928", "#4D4D4D"}

func colour(i int) string { return palette[i%len(palette)] }

// pt is one data point.
type pt struct{ X, Y float64 }

// line is one series drawn as a polyline, broken into segments at gaps.
type line struct {
	label    string
	segments [][]pt
	colour   string
	dashed   bool
	// noMarkers draws the points without glyphs whatever their number.
	noMarkers bool
	// markersOnly draws the points without joining them.
	markersOnly bool
}

func (l line) points() int {
	n := 0
	for _, s := range l.segments {
		n += len(s)
	}
	return n
}

// mark is a vertical line at X across the plot, labelled above the plot.
type mark struct {
	X      float64
	label  string
	kind   markKind
	colour string
}

type markKind int

const (
	markFound  markKind = iota // dashed grey: something found in the data
	markKernel                 // dotted green: what the kernel reports
	markValue                  // solid red: this result's value
	markStat                   // thin solid grey: a statistic (median)
)

// span is a shaded stretch of the x axis.
type span struct{ X0, X1 float64 }

// bin is one bar of a histogram on a numeric x axis: N readings in
// [X0, X1).
type bin struct{ X0, X1, N float64 }

// barSet is a grouped bar chart: one group of bars per category, one bar
// per series in each group. Horizontal bars run along x with the
// categories down the y axis.
type barSet struct {
	categories []string
	series     []string
	// values[c][s] is series s in category c; nil is not measured.
	values     [][]*float64
	horizontal bool
}

// legendItem is one entry of the legend.
type legendItem struct {
	label  string
	colour string
	kind   string // "line", "dashed", "marker", "box", "span", "mark-found", "mark-kernel", "mark-value", "mark-stat"
	shape  int
}

// figure is a chart before it is written as SVG.
type figure struct {
	name, title string
	// notes are small lines under the title (what was left out and why).
	notes      []string
	x, y       axis
	lines      []line
	spans      []span
	spanLabel  string
	marks      []mark
	markLegend []legendItem
	bars       *barSet
	hist       []bin
	// legendNote is a last legend entry without a swatch ("3 more
	// lines not drawn").
	legendNote string
}

// axis is one axis: its label, its scale and the range it shows.
type axis struct {
	label string
	// log draws the axis on a log scale; base2 puts its ticks at powers
	// of two (for sizes in bytes), else at 1, 2 and 5 times powers of ten.
	log, base2 bool
	// format labels a tick; nil: a plain number with the step's decimals.
	format func(float64) string
	// zero makes a linear axis include 0.
	zero bool
	// fixed sets the range instead of the data's (lo < hi).
	fixedLo, fixedHi float64
	// integer ticks only (thread counts).
	integer bool

	lo, hi float64
	ticks  []tick
}

type tick struct {
	v     float64
	label string
}

// layout is where the plot area sits in the chart.
type layout struct {
	left, top, width, height float64
	total                    float64 // the chart's height
}

func (a *axis) pos(v float64) float64 {
	if a.log {
		return (math.Log(v) - math.Log(a.lo)) / (math.Log(a.hi) - math.Log(a.lo))
	}
	return (v - a.lo) / (a.hi - a.lo)
}

// px maps a data x to a pixel column; py a data y to a pixel row.
func (f *figure) px(l layout, x float64) float64 { return l.left + f.x.pos(x)*l.width }
func (f *figure) py(l layout, y float64) float64 { return l.top + l.height - f.y.pos(y)*l.height }

// extent returns the smallest and largest finite value (positive on a log
// axis) that get(p) gives over the figure's lines; ok is false when there
// is none.
func (f *figure) extent(getX bool, logScale bool) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	add := func(v float64) {
		if !finite(v) || (logScale && v <= 0) {
			return
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	for _, l := range f.lines {
		for _, s := range l.segments {
			for _, p := range s {
				if getX {
					add(p.X)
				} else {
					add(p.Y)
				}
			}
		}
	}
	for _, h := range f.hist {
		if getX {
			add(h.X0)
			add(h.X1)
		} else {
			add(0)
			add(h.N)
		}
	}
	if getX {
		for _, m := range f.marks {
			add(m.X)
		}
		for _, s := range f.spans {
			add(s.X0)
			add(s.X1)
		}
	}
	return lo, hi, lo <= hi
}

// scale sets the axes' ranges and ticks from the data.
func (f *figure) scale() {
	if f.bars != nil {
		lo, hi := 0.0, 0.0
		for _, c := range f.bars.values {
			for _, v := range c {
				if v != nil && finite(*v) {
					lo, hi = min(lo, *v), max(hi, *v)
				}
			}
		}
		val := &f.y
		if f.bars.horizontal {
			val = &f.x
		}
		val.zero = true
		val.setRange(lo, hi)
		f.extendForMarks(val)
		return
	}
	xlo, xhi, ok := f.extent(true, f.x.log)
	if !ok {
		xlo, xhi = 0, 1
	}
	f.x.setRange(xlo, xhi)
	ylo, yhi, ok := f.extent(false, f.y.log)
	if !ok {
		ylo, yhi = 0, 1
	}
	f.y.setRange(ylo, yhi)
}

func (f *figure) extendForMarks(a *axis) {
	lo, hi := a.lo, a.hi
	for _, m := range f.marks {
		if finite(m.X) {
			lo, hi = min(lo, m.X), max(hi, m.X)
		}
	}
	if lo < a.lo || hi > a.hi {
		a.setRange(lo, hi)
	}
}

// margin is the share of the data's range added on each side of a linear
// axis, so that no point sits on the frame.
const margin = 0.06

// setRange sets the axis to show [lo, hi] with a margin, ending on ticks.
func (a *axis) setRange(lo, hi float64) {
	if a.fixedLo < a.fixedHi {
		lo, hi = a.fixedLo, a.fixedHi
		a.lo, a.hi = lo, hi
		if a.log {
			a.ticks = logTicks(lo, hi, a.base2, a.format)
		} else {
			a.ticks = linTicks(lo, hi, a.format, a.integer)
		}
		return
	}
	if a.log {
		if lo <= 0 || hi <= 0 || !finite(lo) || !finite(hi) {
			lo, hi = 1, 10
		}
		if a.base2 {
			// A third of a doubling around the data.
			a.lo, a.hi = lo/math.Cbrt(2), hi*math.Cbrt(2)
		} else {
			f := 1.25
			a.lo, a.hi = lo/f, hi*f
		}
		a.ticks = logTicks(a.lo, a.hi, a.base2, a.format)
		return
	}
	if a.zero {
		lo, hi = min(lo, 0), max(hi, 0)
	}
	span := hi - lo
	if span <= 0 {
		span = max(math.Abs(hi)*0.1, 1)
		lo, hi = lo-span/2, hi+span/2
		span = hi - lo
	}
	plo, phi := lo-margin*span, hi+margin*span
	if a.zero && lo >= 0 {
		plo = 0
	}
	if a.zero && hi <= 0 {
		phi = 0
	}
	if lo >= 0 && plo < 0 {
		// Quantities that cannot be negative never show negative ticks.
		plo = 0
	}
	step, _ := niceStep(plo, phi)
	if a.integer {
		step = max(1, math.Round(step))
	}
	// The ends on half steps (the unlabelled ticks): round, without
	// wasting up to a whole step of the plot.
	h := step / 2
	a.lo, a.hi = math.Floor(plo/h+1e-9)*h, math.Ceil(phi/h-1e-9)*h
	if a.integer {
		a.lo, a.hi = math.Floor(lo)-0.5, math.Ceil(hi)+0.5
		if a.zero && lo >= 0 {
			a.lo, a.hi = 0, math.Ceil(hi+max(1, 0.1*hi))
		}
	}
	a.ticks = linTicks(a.lo, a.hi, a.format, a.integer)
}

// textWidth estimates the width in pixels of s in the sans-serif font at
// size px, from average glyph widths (DejaVu Sans, the widest common
// sans-serif, so that the estimate errs on the wide side).
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r == ' ':
			w += 0.32
		case strings.ContainsRune("iljI.,:;|!'`", r):
			w += 0.3
		case strings.ContainsRune("frt()[]{}-/\\", r):
			w += 0.42
		case strings.ContainsRune("mwMW%@", r):
			w += 0.95
		case r >= 'A' && r <= 'Z':
			w += 0.72
		case r >= '0' && r <= '9':
			w += 0.64
		case r >= 'a' && r <= 'z':
			w += 0.6
		case r == '—' || r == '×':
			w += 0.84
		default:
			w += 0.7
		}
	}
	return w * size
}

// fit shortens s with "…" to at most w pixels at size.
func fit(s string, size, w float64) string {
	if textWidth(s, size) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 1 && textWidth(string(rs)+"…", size) > w {
		rs = rs[:len(rs)-1]
	}
	return string(rs) + "…"
}

// wrap breaks s into lines of at most w pixels at size, at spaces.
func wrap(s string, size, w float64) []string {
	var out []string
	cur := ""
	for _, word := range strings.Fields(s) {
		next := word
		if cur != "" {
			next = cur + " " + word
		}
		if cur != "" && textWidth(next, size) > w {
			out = append(out, cur)
			cur = word
			continue
		}
		cur = next
	}
	if cur != "" {
		out = append(out, cur)
	}
	for i := range out {
		out[i] = fit(out[i], size, w)
	}
	return out
}

// valueText writes a figure for a label: whole numbers from 100 up, else
// three significant digits.
func valueText(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// esc escapes text for SVG.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		default:
			if r < 0x20 && r != '\t' {
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// num formats a data value for a data attribute.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 7, 64) }

// pxs formats a pixel coordinate.
func pxs(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// placed is a label placed in the band above the plot.
type placed struct {
	x0, x1 float64
	row    int
}

// svg writes the figure.
func (f *figure) svg() []byte {
	f.scale()
	legend := f.legendItems()
	// Horizontal layout: the y tick labels set the left margin.
	yTickW := 0.0
	if f.bars != nil && f.bars.horizontal {
		for _, c := range f.bars.categories {
			yTickW = max(yTickW, textWidth(c, tickSize))
		}
		yTickW = min(yTickW, Width*0.4)
	} else {
		for _, t := range f.y.ticks {
			yTickW = max(yTickW, textWidth(t.label, tickSize))
		}
	}
	l := layout{left: 16 + labelSize + 8 + yTickW + 6}
	if f.y.label == "" {
		l.left = 14 + yTickW + 6
	}
	l.width = Width - l.left - 24
	// Bold text is about a tenth wider.
	titleLines := wrap(f.title, titleSize*1.1, Width-24)
	top := 14.0 + float64(len(titleLines))*(titleSize+4)
	top += float64(len(f.notes)) * (noteSize + 4)
	// Labels of marks in rows above the plot, never over each other.
	var rows []placed
	nRows := 0
	markPos := make([]placed, len(f.marks))
	if len(f.marks) > 0 && !(f.bars != nil && f.bars.horizontal) {
		// positions depend on the layout's left and width, known now.
		for i, m := range f.marks {
			x := f.px(l, m.X)
			w := textWidth(m.label, markSize)
			x0 := min(max(x-w/2, 4), Width-4-w)
			row := 0
			for ; ; row++ {
				free := true
				for _, p := range rows {
					if p.row == row && x0 < p.x1+8 && p.x0 < x0+w+8 {
						free = false
						break
					}
				}
				if free {
					break
				}
			}
			p := placed{x0, x0 + w, row}
			rows = append(rows, p)
			markPos[i] = p
			nRows = max(nRows, row+1)
		}
	}
	top += float64(nRows) * (markSize + 5)
	l.top = top + 8
	l.height = plotHeight
	if f.bars != nil && f.bars.horizontal {
		l.height = max(120, float64(len(f.bars.categories)*max(1, len(f.bars.series)))*22+20)
	}
	// Below the plot: tick labels, the axis label, the legend.
	bottom := l.top + l.height + 6 + tickSize + 6
	if f.x.label != "" {
		bottom += labelSize + 8
	}
	legendRows := f.layoutLegend(legend)
	legendTop := bottom + 6
	if len(legendRows) > 0 {
		bottom = legendTop + float64(len(legendRows))*(legendSize+8)
	}
	l.total = math.Ceil(bottom + 10)

	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%s" viewBox="0 0 %d %s" style="max-width:100%%;height:auto" font-family="%s" data-chart="%s">`+"\n",
		Width, pxs(l.total), Width, pxs(l.total), FontFamily, esc(f.name))
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", esc(f.title))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#fff"/>`+"\n")
	y := 14.0
	for _, t := range titleLines {
		y += titleSize
		fmt.Fprintf(&b, `<text x="%d" y="%s" text-anchor="middle" font-size="%d" font-weight="600" fill="#1b1f24">%s</text>`+"\n", Width/2, pxs(y), titleSize, esc(t))
		y += 4
	}
	for _, n := range f.notes {
		y += noteSize
		fmt.Fprintf(&b, `<text class="note" x="%d" y="%s" text-anchor="middle" font-size="%d" fill="#57606a">%s</text>`+"\n", Width/2, pxs(y), noteSize, esc(fit(n, noteSize, Width-24)))
		y += 4
	}
	// The plot frame and grid.
	fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="#fff" stroke="#8c959f"/>`+"\n", pxs(l.left), pxs(l.top), pxs(l.width), pxs(l.height))
	f.writeSpans(&b, l)
	f.writeAxes(&b, l)
	f.writeBars(&b, l)
	f.writeHist(&b, l)
	f.writeMarks(&b, l, markPos, top)
	f.writeLines(&b, l)
	f.writeLegend(&b, legendRows, legendTop)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func (f *figure) writeSpans(b *bytes.Buffer, l layout) {
	for _, s := range f.spans {
		x0, x1 := f.px(l, max(s.X0, f.x.lo)), f.px(l, min(s.X1, f.x.hi))
		if x1 < x0 {
			continue
		}
		fmt.Fprintf(b, `<rect class="span" data-x0="%s" data-x1="%s" x="%s" y="%s" width="%s" height="%s" fill="#D55E00" fill-opacity="0.14"/>`+"\n",
			num(s.X0), num(s.X1), pxs(x0), pxs(l.top), pxs(max(x1-x0, 1.5)), pxs(l.height))
	}
}

func (f *figure) writeAxes(b *bytes.Buffer, l layout) {
	horizontal := f.bars != nil && f.bars.horizontal
	// x ticks (values), unless x holds categories.
	if f.bars == nil || horizontal {
		for _, t := range f.x.ticks {
			x := f.px(l, t.v)
			if t.label == "" {
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#8c959f"/>`+"\n", pxs(x), pxs(l.top+l.height), pxs(x), pxs(l.top+l.height+3))
				continue
			}
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#d8dee4"/>`+"\n", pxs(x), pxs(l.top), pxs(x), pxs(l.top+l.height))
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#8c959f"/>`+"\n", pxs(x), pxs(l.top+l.height), pxs(x), pxs(l.top+l.height+5))
			// Kept inside the chart at its edges.
			w := textWidth(t.label, tickSize)
			tx := min(max(x, w/2+2), Width-w/2-2)
			fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="middle" font-size="%d" fill="#1b1f24">%s</text>`+"\n", pxs(tx), pxs(l.top+l.height+6+tickSize), tickSize, esc(t.label))
		}
	} else {
		n := len(f.bars.categories)
		for i, c := range f.bars.categories {
			x := l.left + (float64(i)+0.5)*l.width/float64(n)
			fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="middle" font-size="%d" fill="#1b1f24">%s</text>`+"\n", pxs(x), pxs(l.top+l.height+6+tickSize), tickSize, esc(fit(c, tickSize, l.width/float64(n))))
		}
	}
	if !horizontal {
		for _, t := range f.y.ticks {
			y := f.py(l, t.v)
			if t.label == "" {
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#8c959f"/>`+"\n", pxs(l.left-3), pxs(y), pxs(l.left), pxs(y))
				continue
			}
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#d8dee4"/>`+"\n", pxs(l.left), pxs(y), pxs(l.left+l.width), pxs(y))
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#8c959f"/>`+"\n", pxs(l.left-5), pxs(y), pxs(l.left), pxs(y))
			fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="end" font-size="%d" fill="#1b1f24">%s</text>`+"\n", pxs(l.left-7), pxs(y+tickSize*0.35), tickSize, esc(t.label))
		}
	} else {
		n := len(f.bars.categories)
		for i, c := range f.bars.categories {
			y := l.top + (float64(i)+0.5)*l.height/float64(n)
			fmt.Fprintf(b, `<text class="tick" x="%s" y="%s" text-anchor="end" font-size="%d" fill="#1b1f24">%s</text>`+"\n", pxs(l.left-7), pxs(y+tickSize*0.35), tickSize, esc(fit(c, tickSize, Width*0.4)))
		}
	}
	if f.x.label != "" {
		fmt.Fprintf(b, `<text class="axis-label" x="%s" y="%s" text-anchor="middle" font-size="%d" fill="#1b1f24">%s</text>`+"\n", pxs(l.left+l.width/2), pxs(l.top+l.height+6+tickSize+6+labelSize+2), labelSize, esc(fit(f.x.label, labelSize, l.width)))
	}
	if f.y.label != "" {
		x, y := 16+labelSize*0.8, l.top+l.height/2
		fmt.Fprintf(b, `<text class="axis-label" x="%s" y="%s" transform="rotate(-90 %s %s)" text-anchor="middle" font-size="%d" fill="#1b1f24">%s</text>`+"\n", pxs(x), pxs(y), pxs(x), pxs(y), labelSize, esc(fit(f.y.label, labelSize, l.height+60)))
	}
}

func (f *figure) writeBars(b *bytes.Buffer, l layout) {
	bs := f.bars
	if bs == nil {
		return
	}
	n, k := len(bs.categories), max(1, len(bs.series))
	for ci, c := range bs.categories {
		for si, s := range bs.series {
			if ci >= len(bs.values) || si >= len(bs.values[ci]) || bs.values[ci][si] == nil || !finite(*bs.values[ci][si]) {
				if bs.horizontal {
					band := l.height / float64(n)
					h := band * 0.8 / float64(k)
					y := l.top + float64(ci)*band + band*0.1 + float64(si)*h
					fmt.Fprintf(b, `<text class="value" data-category="%s" data-series="%s" x="%s" y="%s" font-size="%d" fill="#57606a">unknown</text>`+"\n",
						esc(c), esc(s), pxs(f.px(l, 0)+4), pxs(y+h*0.46+tickSize*0.35), tickSize)
				}
				continue
			}
			v := *bs.values[ci][si]
			if bs.horizontal {
				band := l.height / float64(n)
				h := band * 0.8 / float64(k)
				y := l.top + float64(ci)*band + band*0.1 + float64(si)*h
				x0, x1 := f.px(l, min(0, v)), f.px(l, max(0, v))
				fmt.Fprintf(b, `<rect class="bar" data-category="%s" data-series="%s" data-value="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
					esc(c), esc(s), num(v), pxs(x0), pxs(y), pxs(max(x1-x0, 1)), pxs(h*0.92), colour(si))
				// The value at the bar's end, inside it when there is no
				// room after it.
				text := valueText(v)
				tw := textWidth(text, tickSize)
				tx, anchor, fill := x1+4, "start", "#1b1f24"
				if tx+tw > l.left+l.width-2 {
					tx, anchor, fill = x1-4, "end", "#fff"
				}
				fmt.Fprintf(b, `<text class="value" x="%s" y="%s" text-anchor="%s" font-size="%d" fill="%s">%s</text>`+"\n", pxs(tx), pxs(y+h*0.46+tickSize*0.35), anchor, tickSize, fill, esc(text))
				continue
			}
			band := l.width / float64(n)
			w := band * 0.8 / float64(k)
			x := l.left + float64(ci)*band + band*0.1 + float64(si)*w
			y0, y1 := f.py(l, max(0, v)), f.py(l, min(0, v))
			fmt.Fprintf(b, `<rect class="bar" data-category="%s" data-series="%s" data-value="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
				esc(c), esc(s), num(v), pxs(x), pxs(y0), pxs(w*0.92), pxs(max(y1-y0, 1)), colour(si))
		}
	}
}

func (f *figure) writeHist(b *bytes.Buffer, l layout) {
	for _, h := range f.hist {
		x0, x1 := f.px(l, h.X0), f.px(l, h.X1)
		y0, y1 := f.py(l, h.N), f.py(l, 0)
		fmt.Fprintf(b, `<rect class="bin" data-x0="%s" data-x1="%s" data-count="%s" x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.75"/>`+"\n",
			num(h.X0), num(h.X1), num(h.N), pxs(x0+0.5), pxs(y0), pxs(max(x1-x0-1, 1)), pxs(y1-y0), colour(0))
	}
}

func (f *figure) writeMarks(b *bytes.Buffer, l layout, pos []placed, bandTop float64) {
	for i, m := range f.marks {
		horizontal := f.bars != nil && f.bars.horizontal
		if !horizontal && (m.X < f.x.lo || m.X > f.x.hi) {
			continue
		}
		x := f.px(l, m.X)
		style := markStyle(m.kind, m.colour)
		fmt.Fprintf(b, `<line class="mark" data-label="%s" data-x="%s" x1="%s" y1="%s" x2="%s" y2="%s" %s/>`+"\n", esc(m.label), num(m.X), pxs(x), pxs(l.top), pxs(x), pxs(l.top+l.height), style)
		if horizontal || i >= len(pos) {
			continue
		}
		p := pos[i]
		ty := bandTop - float64(p.row)*(markSize+5) + 2
		// A thin leader from the label to the line.
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#afb8c1" stroke-width="0.8"/>`+"\n", pxs(x), pxs(ty+2), pxs(x), pxs(l.top))
		fmt.Fprintf(b, `<text class="mark-label" x="%s" y="%s" font-size="%s" fill="%s">%s</text>`+"\n", pxs(p.x0), pxs(ty), pxs(markSize), markTextColour(m), esc(m.label))
	}
}

func markStyle(k markKind, c string) string {
	switch k {
	case markKernel:
		return `stroke="#2E6B30" stroke-width="1.6" stroke-dasharray="1.5 3"`
	case markValue:
		if c == "" {
			c = "#A83232"
		}
		return `stroke="` + c + `" stroke-width="2.2"`
	case markStat:
		return `stroke="#57606a" stroke-width="1.2"`
	}
	return `stroke="#57606a" stroke-width="1.2" stroke-dasharray="5 3"`
}

func markTextColour(m mark) string {
	switch m.kind {
	case markKernel:
		return "#2E6B30"
	case markValue:
		if m.colour != "" {
			return m.colour
		}
		return "#A83232"
	}
	return "#3d444d"
}

func (f *figure) writeLines(b *bytes.Buffer, l layout) {
	for i, ln := range f.lines {
		c := ln.colour
		if c == "" {
			c = colour(i)
		}
		markers := !ln.noMarkers && ln.points() <= GlyphPoints
		for si, seg := range ln.segments {
			if len(seg) == 0 {
				continue
			}
			var data, pix []string
			for _, p := range seg {
				data = append(data, num(p.X)+","+num(p.Y))
				pix = append(pix, pxs(f.px(l, p.X))+","+pxs(f.py(l, p.Y)))
			}
			dash := ""
			if ln.dashed {
				dash = ` stroke-dasharray="6 4"`
			}
			stroke := c
			if ln.markersOnly {
				stroke = "none"
			}
			fmt.Fprintf(b, `<polyline class="series" data-series="%s" data-segment="%d" data-points="%s" points="%s" fill="none" stroke="%s" stroke-width="1.8" stroke-linejoin="round"%s/>`+"\n",
				esc(ln.label), si, strings.Join(data, " "), strings.Join(pix, " "), stroke, dash)
			if markers || ln.markersOnly || len(seg) == 1 {
				for _, p := range seg {
					writeGlyph(b, i, f.px(l, p.X), f.py(l, p.Y), c)
				}
			}
		}
	}
}

// writeGlyph draws the point marker of series i: circle, square,
// triangle, diamond in turn.
func writeGlyph(b *bytes.Buffer, i int, x, y float64, c string) {
	switch i % 4 {
	case 0:
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="3.2" fill="%s"/>`+"\n", pxs(x), pxs(y), c)
	case 1:
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="6" height="6" fill="%s"/>`+"\n", pxs(x-3), pxs(y-3), c)
	case 2:
		fmt.Fprintf(b, `<path d="M%s %sl3.6 6.2h-7.2z" fill="%s"/>`+"\n", pxs(x), pxs(y-4), c)
	default:
		fmt.Fprintf(b, `<path d="M%s %sl4 4l-4 4l-4 -4z" fill="%s"/>`+"\n", pxs(x), pxs(y-4), c)
	}
}

// legendItems lists the legend: the lines, the bar series, the shaded
// spans and the kinds of marks.
func (f *figure) legendItems() []legendItem {
	var out []legendItem
	for i, ln := range f.lines {
		c := ln.colour
		if c == "" {
			c = colour(i)
		}
		kind := "line"
		if ln.dashed {
			kind = "dashed"
		}
		if ln.markersOnly {
			kind = "marker"
		}
		out = append(out, legendItem{label: ln.label, colour: c, kind: kind, shape: i})
	}
	if len(f.hist) > 0 {
		out = append(out, legendItem{label: "reference results per bin", colour: colour(0), kind: "box"})
	}
	if f.bars != nil && len(f.bars.series) > 1 {
		for i, s := range f.bars.series {
			out = append(out, legendItem{label: s, colour: colour(i), kind: "box"})
		}
	}
	if len(f.spans) > 0 && f.spanLabel != "" {
		out = append(out, legendItem{label: f.spanLabel, colour: "#D55E00", kind: "span"})
	}
	out = append(out, f.markLegend...)
	if f.legendNote != "" {
		out = append(out, legendItem{label: f.legendNote})
	}
	return out
}

type legendPlaced struct {
	item legendItem
	x    float64
}

// layoutLegend flows the legend's entries into rows under the plot.
func (f *figure) layoutLegend(items []legendItem) [][]legendPlaced {
	var rows [][]legendPlaced
	var row []legendPlaced
	x := 16.0
	for _, it := range items {
		label := fit(it.label, legendSize, Width-60)
		w := 30 + textWidth(label, legendSize) + 18
		if it.kind == "" {
			w -= 30
		}
		if len(row) > 0 && x+w > Width-16 {
			rows = append(rows, row)
			row, x = nil, 16
		}
		it.label = label
		row = append(row, legendPlaced{it, x})
		x += w
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

func (f *figure) writeLegend(b *bytes.Buffer, rows [][]legendPlaced, top float64) {
	if len(rows) == 0 {
		return
	}
	b.WriteString(`<g class="legend">` + "\n")
	for r, row := range rows {
		y := top + float64(r)*(legendSize+8) + legendSize
		for _, p := range row {
			x, c := p.x, p.item.colour
			sy := y - legendSize*0.35
			switch p.item.kind {
			case "line", "dashed":
				dash := ""
				if p.item.kind == "dashed" {
					dash = ` stroke-dasharray="6 4"`
				}
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>`+"\n", pxs(x), pxs(sy), pxs(x+24), pxs(sy), c, dash)
			case "marker":
				writeGlyph(b, p.item.shape, x+12, sy, c)
			case "box":
				fmt.Fprintf(b, `<rect x="%s" y="%s" width="14" height="10" fill="%s"/>`+"\n", pxs(x+5), pxs(sy-5), c)
			case "span":
				fmt.Fprintf(b, `<rect x="%s" y="%s" width="24" height="12" fill="%s" fill-opacity="0.14" stroke="%s" stroke-opacity="0.4"/>`+"\n", pxs(x), pxs(sy-6), c, c)
			case "mark-found", "mark-kernel", "mark-value", "mark-stat":
				k := map[string]markKind{"mark-found": markFound, "mark-kernel": markKernel, "mark-value": markValue, "mark-stat": markStat}[p.item.kind]
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" %s/>`+"\n", pxs(x+12), pxs(sy-7), pxs(x+12), pxs(sy+7), markStyle(k, c))
			}
			tx := x + 30
			if p.item.kind == "" {
				tx = x
			}
			fmt.Fprintf(b, `<text class="legend-label" x="%s" y="%s" font-size="%d" fill="#1b1f24">%s</text>`+"\n", pxs(tx), pxs(y), legendSize, esc(p.item.label))
		}
	}
	b.WriteString("</g>\n")
}
