//go:build !board

package report

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"boardbench/internal/chart"
	"boardbench/internal/outfile"
	"boardbench/internal/result"
)

// chartsBuilt is nil: this build draws charts (a board build does not).
func chartsBuilt() error { return nil }

// writeCharts writes every chart of r as DIR/NAME.svg and lists them
// (at most chart.MaxCharts; the list says how many more there were).
func writeCharts(ctx context.Context, r *result.Result, dir string, list func(string)) error {
	charts, omitted, err := chart.ForResultContext(ctx, r)
	if err != nil {
		return err
	}
	defer func() {
		if omitted > 0 {
			list(fmt.Sprintf("%d more charts not drawn (at most %d per result)", omitted, chart.MaxCharts))
		}
	}()
	if len(charts) == 0 {
		list("no charts: " + chart.NoneReason(r))
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--charts %s: %v", dir, err)
	}
	written := map[string]bool{}
	for _, c := range charts {
		p := filepath.Join(dir, c.Name+".svg")
		if written[p] {
			return fmt.Errorf("chart %s drawn twice: not overwriting %s", c.Name, p)
		}
		written[p] = true
		if err := outfile.WriteFile(p, c.SVG); err != nil {
			return fmt.Errorf("writing %s: %v", p, err)
		}
		list(p + ": " + c.Title)
	}
	return nil
}
