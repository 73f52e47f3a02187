package storagerun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"boardbench/internal/benchtool/fio"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/storagebench"
	"boardbench/internal/textfmt"
	"boardbench/internal/tools"
)

// stepsFor returns the steps of the mode; the error pointer is set when
// the fio step fails (the command must then not succeed silently).
func stepsFor(ctx context.Context, env Env, opts Options, mode int, ts []*target) ([]session.Step, *error, error) {
	fioErr := new(error)
	switch mode {
	case modeSustained:
		return []session.Step{sustainedStep(env, ts[0])}, fioErr, nil
	case modeCapacity:
		return []session.Step{capacityStep(env, ts[0])}, fioErr, nil
	}
	governors, ioIsBusy := cpufreqState(env.Host)
	cells := len(storagebench.DefaultRecordsKiB)*len(storagebench.Tests) + len(storagebench.QueueDepths)*len(storagebench.LatencyTests)
	cellLimit := ts[0].cfg.CellLimit
	var measured *result.StorageFigures
	where := make([]string, 0, len(ts))
	for _, t := range ts {
		where = append(where, firstOf(t.cfg.Dir, t.cfg.Device))
	}
	title := "Native O_DIRECT storage test (iozone-style table, latency) in " + strings.Join(where, ", ")
	if len(ts) > 1 {
		title = fmt.Sprintf("Native O_DIRECT storage test on %d devices at once (%s)", len(ts), strings.Join(where, ", "))
	}
	table := session.Step{Name: result.PhaseStorage, Title: title, Kind: "storage", Estimate: time.Duration(cells) * cellLimit,
		Run: func(ctx context.Context, ph *result.Phase) error {
			irqBefore, irqOK := readInterrupts(env.Host)
			figs, err := runTable(ctx, env, ts)
			figs.Governors, figs.IOIsBusy = governors, ioIsBusy
			if irqAfter, ok := readInterrupts(env.Host); ok && irqOK {
				figs.IRQ, figs.IRQCPUs = busiestIRQ(irqBefore, irqAfter)
			}
			measured = &figs
			if ferr := ph.SetFigures(figs); ferr != nil {
				return ferr
			}
			return err
		}}
	fioSkip, fioTool := "", (*tools.Tool)(nil)
	switch {
	case !opts.Fio:
		fioSkip = "not asked for (--fio)"
	case len(ts) > 1:
		fioSkip = "not run with several paths"
	case ts[0].cfg.Device != "":
		fioSkip = "not run on a raw device"
	default:
		fioTool, fioSkip = findFio(ctx, env.Host, !opts.NoInstall)
	}
	fioStep := session.Step{Name: result.PhaseStorageFio, Title: "fio repeating the same cells", Kind: "storage", Estimate: 9 * cellLimit, Skip: fioSkip}
	if fioSkip == "" {
		fioStep.Run = func(ctx context.Context, ph *result.Phase) error {
			if measured == nil {
				return errors.New("the storage test did not run: nothing for fio to repeat")
			}
			jobs, err := fio.Plan(*measured)
			if err != nil {
				return err
			}
			figs, raw, err := fio.Run(ctx, fio.Config{Binary: fioTool.Command(), Dir: ts[0].cfg.Dir, Jobs: jobs})
			ph.RawOutput = string(raw)
			if err != nil {
				*fioErr = err
				return err
			}
			return ph.SetFigures(figs)
		}
	}
	return []session.Step{table, fioStep}, fioErr, nil
}

// runTable runs the table on each target, at the same time when there are
// several: each cell starts on every device together (a barrier), so that
// a shared bus shows up in the sum.
func runTable(ctx context.Context, env Env, ts []*target) (result.StorageFigures, error) {
	cells := len(storagebench.DefaultRecordsKiB)*len(storagebench.Tests) + len(storagebench.QueueDepths)*len(storagebench.LatencyTests)
	done := 0
	progress := func(t *target) func(int, string) {
		return func(rec int, test string) {
			if test == "fill" {
				env.Status.Show(fmt.Sprintf("writing the %s read file", textfmt.Bytes(t.cfg.FileBytes)))
				return
			}
			done++
			env.Status.Show(fmt.Sprintf("%d/%d %d KiB %s", done, cells, rec, strings.ReplaceAll(test, "_", " ")))
		}
	}
	if len(ts) == 1 {
		cfg := ts[0].cfg
		cfg.Progress = progress(ts[0])
		return storagebench.Run(ctx, cfg)
	}
	barrier := storagebench.NewBarrier(len(ts))
	devs := make([]result.StorageDevice, len(ts))
	errs := make([]error, len(ts))
	var wg sync.WaitGroup
	for i, t := range ts {
		cfg := t.cfg
		cfg.Barrier = barrier
		if i == 0 {
			cfg.Progress = progress(t)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			figs, err := storagebench.Run(ctx, cfg)
			devs[i] = result.StorageDevice{Path: t.path, Device: t.id.Name, Kind: t.id.Kind, Figures: figs}
			errs[i] = err
		}()
	}
	wg.Wait()
	return storagebench.Combine(devs), errors.Join(errs...)
}
