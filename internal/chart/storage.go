package chart

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"

	"boardbench/internal/result"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// sustainedPlots draws the sustained-write test: the rate of each window
// against what was written, in MB/s (10^6 bytes) against MiB, with the fall
// (the end of the write cache) marked.
func sustainedPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	var out []named
	for _, ph := range r.Phases {
		if ph.Name != result.PhaseStorageSustained || len(ph.Figures) == 0 {
			continue
		}
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		var f result.StorageSustainedFigures
		if json.Unmarshal(ph.Figures, &f) != nil || len(f.Windows) == 0 {
			continue
		}
		s := series{label: "write rate per window"}
		for _, w := range f.Windows {
			if finite(w.KBs) && w.KBs >= 0 {
				s.xys = append(s.xys, plotter.XY{X: float64(w.WrittenBytes) / (1 << 20), Y: w.KBs * 1024 / 1e6})
			}
		}
		if !hasPoints([]series{s}) {
			continue
		}
		title := "Sustained writes — " + board
		p, err := linePlot(title, "written (MiB)", "rate (MB/s)", []series{s})
		if err != nil {
			return nil, err
		}
		if f.Fell && f.CacheBytes != nil {
			x, top := float64(*f.CacheBytes)/(1<<20), maxY(s)
			line, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
			if err != nil {
				return nil, err
			}
			line.Color = color.Gray{Y: 120}
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(line)
			label := fmt.Sprintf("rate fell after %s", sizeText(*f.CacheBytes))
			lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: []plotter.XY{{X: x, Y: top * 0.95}}, Labels: []string{label}})
			if err != nil {
				return nil, err
			}
			p.Add(lbl)
		}
		p.Y.Min = 0
		out = append(out, named{"storage-sustained", title, p})
	}
	return out, nil
}
