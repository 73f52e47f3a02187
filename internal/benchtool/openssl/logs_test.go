package openssl

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/testutil/shareddata"
)

// extractTables cuts every openssl result table out of a log,
// independently of the parser: a "type ... bytes" header and the lines
// after it up to the first blank line.
func extractTables(log string) []string {
	var tables []string
	lines := strings.Split(log, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "type ") || !strings.Contains(lines[i], " bytes") {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "" {
			j++
		}
		tables = append(tables, strings.Join(lines[i:j], "\n"))
		i = j
	}
	return tables
}

// TestSbcBenchLogs parses every openssl table in the reference logs:
// every row must carry one positive value per block size (5 for OpenSSL
// 1.0.x, 6 since 1.1.0). Then it checks the figures against the log's own
// summaries:
//
//   - rows quoted in the summary ("  * `aes-256-cbc  ...`") must equal a
//     parsed row exactly;
//   - the one-line summary table's AES column is the AES-256-CBC 16 KiB
//     figure, rounded to 10: the highest per-cluster row in later versions,
//     the sum of the per-cluster rows divided by two in earlier ones, the
//     first cluster's row in a few.
func TestSbcBenchLogs(t *testing.T) {
	var tablesTotal, rowsTotal, quotedChecked, tableChecked int
	columns := map[int]int{}
	for _, l := range shareddata.Logs(t) {
		name, log := l.Name, l.Text
		var rows []Row
		var sizes []int
		for _, table := range extractTables(log) {
			r, err := Parse(table)
			if err != nil {
				t.Errorf("%s: %v\n%s", name, err, table)
				continue
			}
			tablesTotal++
			if want := strings.Count(table, "\n"); len(r.Rows) != want || len(r.Notes) > 0 {
				t.Errorf("%s: %d rows parsed of %d, notes %v", name, len(r.Rows), want, r.Notes)
			}
			for _, row := range r.Rows {
				rowsTotal++
				columns[len(row.Values)]++
				if len(row.Values) != 5 && len(row.Values) != 6 {
					t.Errorf("%s: %s has %d values", name, row.Cipher, len(row.Values))
				}
				for _, v := range row.Values {
					if v.KBPerSec <= 0 {
						t.Errorf("%s: %s %d bytes: %v KB/s", name, row.Cipher, v.BlockBytes, v.KBPerSec)
					}
				}
			}
			rows = append(rows, r.Rows...)
			sizes = r.BlockSizes
		}

		for _, line := range strings.Split(log, "\n") {
			quoted, ok := strings.CutPrefix(strings.TrimSpace(line), "* `aes-")
			if !ok || sizes == nil {
				continue
			}
			want, ok := parseRow("aes-"+strings.TrimSuffix(quoted, "`"), sizes)
			if !ok {
				t.Errorf("%s: summary row %q unreadable", name, line)
				continue
			}
			quotedChecked++
			if !containsRow(rows, want) {
				t.Errorf("%s: summary row %q matches no parsed row", name, line)
			}
		}

		if row := shareddata.SummaryRow(log); row != nil && row[6] != "" {
			cell := row[6]
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || v == 0 {
				continue // no openssl result on that board
			}
			var perCluster []float64
			for _, row := range rows {
				if row.Cipher == "aes-256-cbc" {
					if x := row.KBPerSecAt(16384); x != nil {
						perCluster = append(perCluster, *x)
					}
				}
			}
			perCluster = perCluster[:singleInstanceRows(log, len(perCluster))]
			if len(perCluster) == 0 {
				t.Errorf("%s: summary AES %v but no AES-256-CBC 16 KiB figure parsed", name, v)
				continue
			}
			tableChecked++
			var sum, best float64
			for _, x := range perCluster {
				sum += x
				best = math.Max(best, x)
			}
			halfSum := sum / 2
			if len(perCluster) == 1 {
				halfSum = sum
			}
			if math.Abs(best-v) > 10 && math.Abs(halfSum-v) > 10 && math.Abs(perCluster[0]-v) > 10 {
				t.Errorf("%s: summary AES %v; parsed AES-256-CBC 16 KiB rows %v (max %.0f, sum/2 %.0f, first %.0f)", name, v, perCluster, best, halfSum, perCluster[0])
			}
		}
	}
	t.Logf("openssl tables: %d, rows: %d (by value count %v), quoted summary rows: %d, summary table cells: %d", tablesTotal, rowsTotal, columns, quotedChecked, tableChecked)
	if tablesTotal < 200 || rowsTotal < 1000 || quotedChecked < 20 || tableChecked < 100 {
		t.Errorf("too little covered: %d tables, %d rows, %d quoted rows, %d table cells", tablesTotal, rowsTotal, quotedChecked, tableChecked)
	}
}

// singleInstanceRows returns how many of the first n AES-256-CBC rows are
// single-instance ones: rows marked "(fully parallel)" come last and are
// left out of the summary.
func singleInstanceRows(log string, n int) int {
	parallel := 0
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "aes-256-cbc ") && strings.HasSuffix(strings.TrimSpace(line), "(fully parallel)") {
			parallel++
		}
	}
	if parallel > n {
		return 0
	}
	return n - parallel
}

func containsRow(rows []Row, want Row) bool {
	for _, r := range rows {
		if r.Cipher != want.Cipher || len(r.Values) != len(want.Values) {
			continue
		}
		same := true
		for k := range r.Values {
			if r.Values[k] != want.Values[k] {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}
