//go:build !board

package compare

import (
	"fmt"
	"os"
	"path/filepath"

	"boardbench/internal/chart"
	"boardbench/internal/compare"
	"boardbench/internal/outfile"
)

// chartsBuilt is nil: this build draws charts (a board build does not).
func chartsBuilt() error { return nil }

// writeCharts writes the headline figures of the inputs side by side
// (chart.Compare) as DIR/compare-KEY.svg and lists them.
func writeCharts(in []compare.Input, dir string, list func(string)) error {
	items := make([]chart.Item, 0, len(in))
	for _, i := range in {
		items = append(items, chart.Item{Label: i.Label, Result: i.Result})
	}
	charts, err := chart.Compare(items)
	if err != nil {
		return err
	}
	if len(charts) == 0 {
		list("no charts: none of the results has a headline figure")
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--charts %s: %v", dir, err)
	}
	for _, c := range charts {
		p := filepath.Join(dir, c.Name+".svg")
		if err := outfile.WriteFile(p, c.SVG); err != nil {
			return fmt.Errorf("writing %s: %v", p, err)
		}
		list(p + ": " + c.Title)
	}
	return nil
}
