package serve

import (
	"boardbench/internal/result"
	"boardbench/internal/serve/page"
)

// charts draws a result's charts for the result page; nil until the chart
// package is wired in.
var charts page.ChartFunc = func(r *result.Result) ([]page.Chart, error) { return nil, nil }
