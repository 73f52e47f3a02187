package storagerun

import (
	"context"
	"fmt"
	"time"

	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/storagebench"
	"boardbench/internal/textfmt"
)

// sustainedStep writes until the rate falls or --sustained SIZE.
func sustainedStep(env Env, t *target) session.Step {
	size := t.cfg.FileBytes
	return session.Step{Name: result.PhaseStorageSustained, Kind: "storage",
		Title:    fmt.Sprintf("Sustained sequential writes in %s until the rate falls, at most %s", t.cfg.Dir, textfmt.Bytes(size)),
		Estimate: time.Duration(size/(20<<20)) * time.Second,
		Run: func(ctx context.Context, ph *result.Phase) error {
			figs, err := storagebench.Sustained(ctx, storagebench.SustainedConfig{Dir: t.cfg.Dir, MaxBytes: size,
				Progress: func(done, total int64) {
					env.Status.Show(fmt.Sprintf("written %s of at most %s", textfmt.Bytes(done), textfmt.Bytes(total)))
				}})
			if ferr := ph.SetFigures(figs); ferr != nil {
				return ferr
			}
			return err
		}}
}

// capacityStep fills the free space with tagged blocks and reads them back.
func capacityStep(env Env, t *target) session.Step {
	free, _ := storagebench.FreeBytes(t.cfg.Dir)
	return session.Step{Name: result.PhaseStorageCapacity, Kind: "storage",
		Title:    fmt.Sprintf("Fake-capacity check: %s of tagged blocks in %s, read back", textfmt.Bytes(max(free-storagebench.CapacityMargin, 0)), t.cfg.Dir),
		Estimate: time.Duration(free/(10<<20)) * time.Second,
		Run: func(ctx context.Context, ph *result.Phase) error {
			figs, err := storagebench.VerifyCapacity(ctx, storagebench.CapacityConfig{Dir: t.cfg.Dir,
				Progress: func(stage string, done, total int64) {
					env.Status.Show(fmt.Sprintf("%s %s of %s", stage, textfmt.Bytes(done), textfmt.Bytes(total)))
				}})
			if err != nil && figs.StoppedBy == "done" {
				figs.StoppedBy, figs.Error = "error", err.Error()
			}
			if ferr := ph.SetFigures(figs); ferr != nil {
				return ferr
			}
			return err
		}}
}
