//go:build board

package compare

import (
	"boardbench/internal/cmdutil"
	"boardbench/internal/compare"
)

// chartsBuilt refuses: the board build draws no charts.
func chartsBuilt() error {
	return cmdutil.LabOnly("compare --charts", "boardbench compare --charts DIR A B [C...]")
}

// writeCharts refuses: the board build draws no charts.
func writeCharts(in []compare.Input, dir string, list func(string)) error { return chartsBuilt() }
