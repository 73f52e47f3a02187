package clock

import "boardbench/internal/result"

// jsonReport is the JSON of `boardbench clock`: the report with the
// measurement's verdict.
type jsonReport struct {
	*Report
	Valid   bool   `json:"valid"`
	Verdict string `json:"verdict"`
}

// withVerdict returns the JSON document of rep with the verdict of res
// (the result alone when nothing was measured).
func withVerdict(rep *Report, res *result.Result) any {
	if rep == nil {
		return res
	}
	return jsonReport{Report: rep, Valid: res.Summary.Valid, Verdict: res.Summary.Verdict}
}
