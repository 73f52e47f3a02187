//go:build board

package report

import (
	"context"

	"boardbench/internal/cmdutil"
	"boardbench/internal/result"
)

// In a board build (go build -tags board) the HTML page and the SVG charts
// are left out with the chart renderer; report --html and --charts refuse
// in one line naming the command to run on a lab machine (exit 2).

// writeHTML refuses: the board build has no HTML page.
func writeHTML(f *cmdutil.Factory, src *sources, arg, out string) error {
	return cmdutil.LabOnly("report --html", "boardbench report --html FILE|ID -o OUT.html")
}

// chartsBuilt refuses: the board build draws no charts.
func chartsBuilt() error {
	return cmdutil.LabOnly("report --charts", "boardbench report --charts DIR FILE|ID")
}

// writeCharts refuses: the board build draws no charts.
func writeCharts(ctx context.Context, r *result.Result, dir string, list func(string)) error {
	return chartsBuilt()
}
