package clock

import (
	"context"
	"time"

	"boardbench/internal/clockcheck"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// session runs the measurement as the one step of a session of the
// engine: monitored, validated, printed (cfg.Print) and written to
// cfg.Path when it is not "". cfg's Host, Command and Options are the
// runner's. It returns the report (nil when nothing was measured), the
// outcome, and the command's error.
func (r *runner) session(ctx context.Context, cfg session.Config) (*Report, *session.Outcome, error) {
	cfg.Host, cfg.Command = r.h, "clock"
	cfg.Options = map[string]any{"opps": r.opps, "samples": r.opt.Samples, "cpus": nil}
	if r.cpus != nil {
		cfg.Options["cpus"] = formatCPUList(r.cpus)
	}
	r.progress = cfg.Status
	var rep *Report
	var runErr error
	title := "Clock of one CPU per cluster"
	switch {
	case r.cpus != nil:
		title = "Clock of cpu" + formatCPUList(r.cpus)
	case r.opps:
		title += ", and of every cpufreq OPP"
	}
	step := session.Step{Name: result.PhaseClock, Title: title, Kind: "clock", Estimate: time.Second,
		Run: func(ctx context.Context, p *result.Phase) error {
			rep, runErr = r.clusters(ctx)
			r.rep = rep
			if rep == nil {
				return runErr
			}
			if err := clockcheck.FillPhase(p, rep, cfg.Info.CPU.Clusters); err != nil {
				return err
			}
			return runErr
		}}
	out, err := session.Measure(ctx, cfg, session.Plan{
		Prepare: func(ctx context.Context, s *session.Session) ([]session.Step, error) {
			r.sess = s
			return []session.Step{step}, nil
		},
		End: func(*session.Session) session.End {
			if runErr != nil && ctx.Err() == nil {
				return session.End{Failed: rep == nil, Err: runErr}
			}
			return session.End{}
		},
	})
	return rep, out, err
}

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
