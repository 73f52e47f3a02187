package memlat

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// Table is a latency table read from another tool's text output, for tests
// and imports: block sizes with the single-chain and dual-chain latencies.
type Table struct {
	// Context is the last line before the table that started with
	// "Executing", e.g. "Executing benchmark on cpu4 (Cortex-A76):".
	Context string
	// Variant is the text after the table header's last comma, e.g.
	// "[MADV_HUGEPAGE]", or "".
	Variant string
	// SizeBytes, NS and NSDual are parallel columns.
	SizeBytes []int64
	NS        []float64
	NSDual    []float64
}

// ParseTinymembench reads every latency table of tinymembench's format from
// r: a header line starting with "block size :" followed by lines
// "<bytes> : <ns> ns / <ns> ns". Its figures are the extra time over an L1
// hit, so the smallest blocks read 0.0 ns. Malformed lines end a table.
func ParseTinymembench(r io.Reader) []Table {
	var tables []Table
	var ctx string
	var cur *Table
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "Executing") {
			ctx = line
		}
		if strings.HasPrefix(line, "block size :") {
			t := Table{Context: ctx}
			if i := strings.LastIndex(line, ","); i >= 0 {
				t.Variant = strings.TrimSpace(line[i+1:])
			}
			tables = append(tables, t)
			cur = &tables[len(tables)-1]
			continue
		}
		if cur == nil {
			continue
		}
		size, single, dual, ok := parseTinymembenchRow(line)
		if !ok {
			cur = nil
			continue
		}
		cur.SizeBytes = append(cur.SizeBytes, size)
		cur.NS = append(cur.NS, single)
		cur.NSDual = append(cur.NSDual, dual)
	}
	return nonEmpty(tables)
}

// parseTinymembenchRow parses "1024 :    0.0 ns          /     0.0 ns".
func parseTinymembenchRow(line string) (size int64, single, dual float64, ok bool) {
	sizeText, rest, found := strings.Cut(line, ":")
	if !found {
		return 0, 0, 0, false
	}
	size, err := strconv.ParseInt(strings.TrimSpace(sizeText), 10, 64)
	if err != nil || size <= 0 {
		return 0, 0, 0, false
	}
	a, b, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, 0, false
	}
	single, ok1 := parseNS(a)
	dual, ok2 := parseNS(b)
	return size, single, dual, ok1 && ok2
}

func parseNS(s string) (float64, bool) {
	f := strings.Fields(s)
	if len(f) != 2 || f[1] != "ns" {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil && v >= 0
}

// ParseRamlat reads every table of ramlat's format from r: a header line
// "size:  1x32  2x32 ... 1xPTR 2xPTR ..." followed by lines "<n>k: v v ...".
// NS is the 1xPTR column (one pointer chain), NSDual the 2xPTR column (two
// chains at once). Its figures are absolute latencies.
func ParseRamlat(r io.Reader) []Table {
	var tables []Table
	var ctx string
	var cur *Table
	one, two := -1, -1
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "Executing") {
			ctx = line
		}
		f := strings.Fields(line)
		if len(f) > 1 && f[0] == "size:" {
			one, two = -1, -1
			for i, name := range f[1:] {
				switch name {
				case "1xPTR":
					one = i
				case "2xPTR":
					two = i
				}
			}
			if one < 0 || two < 0 {
				cur = nil
				continue
			}
			tables = append(tables, Table{Context: ctx})
			cur = &tables[len(tables)-1]
			continue
		}
		if cur == nil {
			continue
		}
		if len(f) < 2 || !strings.HasSuffix(f[0], "k:") {
			cur = nil
			continue
		}
		kib, err := strconv.ParseInt(strings.TrimSuffix(f[0], "k:"), 10, 64)
		vals := f[1:]
		if err != nil || kib <= 0 || one >= len(vals) || two >= len(vals) {
			cur = nil
			continue
		}
		single, err1 := strconv.ParseFloat(vals[one], 64)
		dual, err2 := strconv.ParseFloat(vals[two], 64)
		if err1 != nil || err2 != nil {
			cur = nil
			continue
		}
		cur.SizeBytes = append(cur.SizeBytes, kib<<10)
		cur.NS = append(cur.NS, single)
		cur.NSDual = append(cur.NSDual, dual)
	}
	return nonEmpty(tables)
}

func nonEmpty(ts []Table) []Table {
	out := ts[:0]
	for _, t := range ts {
		if len(t.SizeBytes) > 0 {
			out = append(out, t)
		}
	}
	return out
}
