// Command comparepublished compares the figures boardbench imports from
// sbc-bench result logs with the published results table of the bash tool
// sbc-bench (Results.md, which the user downloads: it is not part of
// boardbench). For every log in LOGDIR whose id a table row links to, it
// prints the agreement per figure (7-zip multi and single, AES, memcpy,
// memset to the table's rounding; the clock within 2%) and lists the
// disagreements. Run it through scripts/compare-published.sh.
//
//	go run ./scripts/comparepublished TABLE LOGDIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/sbcimport"
	"boardbench/internal/sbcimport/published"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: comparepublished TABLE LOGDIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "comparepublished:", err)
		os.Exit(2)
	}
}

func run(tablePath, dir string) error {
	f, err := os.Open(tablePath)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := published.ParseTable(f)
	if err != nil {
		return fmt.Errorf("%s: %w", tablePath, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	logs := map[string]string{} // id → file name
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			logs[strings.TrimSuffix(e.Name(), ".txt")] = e.Name()
		}
	}
	type tally struct{ compared, agree, either, missing int }
	tallies := map[string]*tally{}
	for _, name := range published.Figures {
		tallies[name] = &tally{}
	}
	var disagreements []string
	matched := 0
	seen := map[string]bool{}
	for _, row := range rows {
		name, ok := logs[row.ID]
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		l, err := sbcimport.Parse(data)
		if err != nil {
			disagreements = append(disagreements, fmt.Sprintf("%s: not imported: %v", name, err))
			continue
		}
		matched++
		seen[row.ID] = true
		r := l.Result(name)
		for _, o := range published.Compare(row, r) {
			t := tallies[o.Figure]
			if !o.Compared {
				t.missing++
				continue
			}
			t.compared++
			if o.Agrees {
				t.agree++
			}
			if o.AgreesEither() {
				t.either++
			}
			if o.Agrees {
				continue
			}
			if o.Alternative != "" {
				o.Note = strings.TrimSpace(o.Note + "; agrees as the " + o.Alternative)
			}
			disagreements = append(disagreements, fmt.Sprintf("%-12s %-12s table %-16q imported %-12s %s v%s", name, o.Figure, o.Table, o.Imported, o.Note, version(r)))
		}
	}
	fmt.Printf("%d table rows link a log; %d of them are in %s\n\n", len(rows), matched, dir)
	fmt.Printf("%-13s %8s %8s %9s %22s %10s\n", "figure", "compared", "agree", "agree %", "with alternative stat.", "no figure")
	for _, name := range published.Figures {
		t := tallies[name]
		pct := func(n int) float64 {
			if t.compared == 0 {
				return 0
			}
			return 100 * float64(n) / float64(t.compared)
		}
		alt := "-"
		if t.either != t.agree {
			alt = fmt.Sprintf("%d (%.1f%%)", t.either, pct(t.either))
		}
		fmt.Printf("%-13s %8d %8d %8.1f%% %22s %10d\n", name, t.compared, t.agree, pct(t.agree), alt, t.missing)
	}
	fmt.Println("\n(7-zip multi: the mean of all runs, as the logs' rows; alternative: the best run.")
	fmt.Println(" AES: the highest cluster, the mean where one cluster ran twice; alternatives: the highest or the mean of all runs.")
	fmt.Println(" Clock: the measured clock of each cluster, clusters within 2% of each other once, within 2% of the table's.)")
	sort.Strings(disagreements)
	fmt.Printf("\n%d disagreements:\n", len(disagreements))
	for _, d := range disagreements {
		fmt.Println("  " + d)
	}
	return nil
}

func version(r *result.Result) string {
	if r.Summary.ImportedSummary == nil || r.Summary.ImportedFormatVersion == "" {
		return "?"
	}
	return r.Summary.ImportedFormatVersion
}
