package promexport

import (
	"bufio"
	"cmp"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The Prometheus text exposition format (version 0.0.4), written here
// rather than through the official client library: the exporter only
// sends gauges and counters of the latest sample, and the library would
// add about 2 MB to a board's binary and milliseconds to every start-up.
// `promtool check metrics` and a real Prometheus check the output in
// the tests.

// ContentType is the Content-Type of a /metrics answer.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Metric types of a family.
const (
	gaugeType   = "gauge"
	counterType = "counter"
)

// family is one metric family: its name, help text, type and samples.
type family struct {
	name, help, typ string
	labels          []string // label names of every sample, in order
	samples         []sample
}

// sample is one series of a family: label values (in the order of the
// family's label names) and the value.
type sample struct {
	values []string
	v      float64
}

// add appends a sample with the given label values.
func (f *family) add(v float64, values ...string) {
	f.samples = append(f.samples, sample{values: values, v: v})
}

// writeText writes families in the text exposition format: families
// sorted by name, each with # HELP and # TYPE lines, its samples sorted
// by label values with the constant labels merged in and every label
// sorted by name. A family without samples is left out, as is a repeated
// series (same labels) after its first sample.
func writeText(w io.Writer, fams []*family, constLabels [][2]string) error {
	bw := bufio.NewWriter(w)
	slices.SortFunc(fams, func(a, b *family) int { return cmp.Compare(a.name, b.name) })
	for _, f := range fams {
		if len(f.samples) == 0 {
			continue
		}
		type series struct {
			labels [][2]string
			v      float64
		}
		all := make([]series, 0, len(f.samples))
		for _, s := range f.samples {
			ls := make([][2]string, 0, len(constLabels)+len(f.labels))
			ls = append(ls, constLabels...)
			for i, name := range f.labels {
				v := ""
				if i < len(s.values) {
					v = s.values[i]
				}
				ls = append(ls, [2]string{name, v})
			}
			slices.SortFunc(ls, func(a, b [2]string) int { return cmp.Compare(a[0], b[0]) })
			all = append(all, series{ls, s.v})
		}
		slices.SortStableFunc(all, func(a, b series) int {
			for i := range min(len(a.labels), len(b.labels)) {
				if c := cmp.Compare(a.labels[i][1], b.labels[i][1]); c != 0 {
					return c
				}
			}
			return cmp.Compare(len(a.labels), len(b.labels))
		})
		bw.WriteString("# HELP " + f.name + " " + escapeHelp(f.help) + "\n")
		bw.WriteString("# TYPE " + f.name + " " + f.typ + "\n")
		for i, s := range all {
			if i > 0 && slices.Equal(s.labels, all[i-1].labels) {
				continue // a repeated series would make the scrape invalid
			}
			bw.WriteString(f.name)
			if len(s.labels) > 0 {
				bw.WriteByte('{')
				for j, l := range s.labels {
					if j > 0 {
						bw.WriteByte(',')
					}
					bw.WriteString(l[0] + `="` + escapeLabel(l[1]) + `"`)
				}
				bw.WriteByte('}')
			}
			bw.WriteByte(' ')
			bw.WriteString(formatValue(s.v))
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// escapeHelp escapes a help text: backslash and line feed; invalid
// UTF-8 becomes U+FFFD.
func escapeHelp(s string) string { return escape(s, false) }

// escapeLabel escapes a label value: backslash, double quote and line
// feed; invalid UTF-8 (which Prometheus refuses) becomes U+FFFD.
func escapeLabel(s string) string { return escape(s, true) }

// escape escapes backslash and line feed, and double quote when quote is
// set; invalid UTF-8 becomes U+FFFD.
func escape(s string, quote bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !strings.ContainsAny(s, "\\\n\"") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '"' && quote:
			b.WriteString(`\"`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// formatValue writes a sample value as Prometheus reads it: the shortest
// decimal or exponent form, +Inf, -Inf or NaN.
func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
