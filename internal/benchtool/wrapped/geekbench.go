package wrapped

import (
	"boardbench/internal/lazyre"
)

// GeekbenchFigures are what Geekbench's command-line edition prints: the
// result's URL on the Geekbench Browser and the scores where it prints them.
type GeekbenchFigures struct {
	// ResultURL is the public result page, e.g.
	// "https://browser.geekbench.com/v6/cpu/1234567"; "" when the upload
	// did not happen. The claim URL (which holds a private key) is never
	// kept.
	ResultURL string `json:"result_url"`
	// SingleCoreScore and MultiCoreScore are the printed scores; nil when
	// the output does not hold them (the scores are then on the result
	// page).
	SingleCoreScore *int64 `json:"single_core_score"`
	MultiCoreScore  *int64 `json:"multi_core_score"`
}

var (
	geekbenchVersionRE = lazyre.Regexp(`(?m)^\s*Geekbench\s+(\d+\.\d+(?:\.\d+)?)`)
	geekbenchURLRE     = lazyre.Regexp(`https://browser\.geekbench\.com/v\d+/cpu/\d+`)
	geekbenchSingleRE  = lazyre.Regexp(`(?m)^\s*Single-Core Score\s+(\d+)\s*$`)
	geekbenchMultiRE   = lazyre.Regexp(`(?m)^\s*Multi-Core Score\s+(\d+)\s*$`)
)

// parseGeekbench finds the result URL and the scores; either is a result.
func parseGeekbench(_ []string, out string, f *Figures) bool {
	fig := &GeekbenchFigures{ResultURL: geekbenchURLRE.FindString(out)}
	if m := geekbenchSingleRE.FindStringSubmatch(out); m != nil {
		if n, ok := integer(m[1]); ok {
			fig.SingleCoreScore = &n
		}
	}
	if m := geekbenchMultiRE.FindStringSubmatch(out); m != nil {
		if n, ok := integer(m[1]); ok {
			fig.MultiCoreScore = &n
		}
	}
	if fig.ResultURL == "" && fig.SingleCoreScore == nil && fig.MultiCoreScore == nil {
		return false
	}
	if m := geekbenchVersionRE.FindStringSubmatch(out); m != nil {
		f.Version = m[1]
	}
	f.Geekbench = fig
	return true
}
