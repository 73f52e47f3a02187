// Package reference implements `boardbench reference [SOC]`: the reference
// set of published sbc-bench results shipped with boardbench, listed by
// SoC with counts, or one SoC's distribution of each headline figure.
package reference

import (
	"fmt"
	"strings"

	"boardbench/internal/cmdutil"
	ref "boardbench/internal/reference"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

// NewCmd returns the reference command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "reference [SOC] [--json]",
		Short: "Show the published results boardbench places figures among, by SoC",
		Long: `boardbench ships a reference set built from published sbc-bench result logs:
per log its SoC, core configuration, measured clock, headline figures (7-zip
multi and single, AES-256 16 KiB, memcpy, memset) and the conditions they ran
under. Reports place each figure of a result among the results of its SoC.

Without an argument, list the SoCs with their number of results. With SOC (a
name such as "Rockchip RK3588" or a model such as rk3588), print the
distribution of each figure: n, median, the 10th–90th percentile range and the
range, separately for 7-Zip 16.02 and 7-Zip 21 or later, and for 32- and
64-bit userlands where the SoC's results hold both. Results their own log
judged disturbed are left out. docs/reference.md describes the set.`,
		Example: `  boardbench reference
  boardbench reference rk3588
  boardbench reference --json "Amlogic S922X"`,
		Args: cmdutil.MaximumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := ref.Embedded()
			if err != nil {
				return err
			}
			if len(args) == 0 {
				return list(f, set, asJSON)
			}
			g, ok := set.Group(args[0])
			if !ok {
				return cmdutil.Usagef("no reference results for SoC %q (boardbench reference lists the SoCs)", args[0])
			}
			return show(f, g, asJSON)
		},
	}
	cmdutil.AddJSONFlag(cmd, &asJSON)
	return cmd
}

// socJSON is one SoC of the list.
type socJSON struct {
	SoC       string   `json:"soc"`
	Key       string   `json:"key"`
	Results   int      `json:"results"`
	Disturbed int      `json:"disturbed"`
	Cores     []string `json:"cores"`
}

func summarize(g ref.Group) socJSON {
	s := socJSON{SoC: g.Label, Key: g.Key, Cores: []string{}}
	for _, e := range g.Entries {
		if e.Usable() {
			s.Results++
		} else {
			s.Disturbed++
		}
		if e.Cores != "" && !contains(s.Cores, e.Cores) {
			s.Cores = append(s.Cores, e.Cores)
		}
	}
	return s
}

func list(f *cmdutil.Factory, set *ref.Set, asJSON bool) error {
	var socs []socJSON
	for _, g := range set.Groups() {
		socs = append(socs, summarize(g))
	}
	if asJSON {
		return f.WriteJSON(struct {
			Source  string    `json:"source"`
			Entries int       `json:"entries"`
			SoCs    []socJSON `json:"socs"`
		}{set.Source, len(set.Entries), socs})
	}
	w := textfmt.New(f.IO.Out, f.IO.ColorEnabled())
	w.Section(fmt.Sprintf("Reference set: %d results from %s, %d SoCs", len(set.Entries), set.Source, len(socs)))
	t := textfmt.NewTable("SoC", "key", "results", "disturbed", "cores")
	for _, s := range socs {
		t.Row(s.SoC, s.Key, fmt.Sprint(s.Results), fmt.Sprint(s.Disturbed), textfmt.OrUnknown(strings.Join(s.Cores, "; ")))
	}
	w.Table(t)
	return f.IO.OutErr()
}

func show(f *cmdutil.Factory, g ref.Group, asJSON bool) error {
	s := summarize(g)
	ds := ref.Distributions(g)
	if asJSON {
		return f.WriteJSON(struct {
			socJSON
			Figures []ref.FigurePlacement `json:"figures"`
		}{s, ds})
	}
	w := textfmt.New(f.IO.Out, f.IO.ColorEnabled())
	w.Section(fmt.Sprintf("%s: %d reference results", s.SoC, s.Results))
	pairs := [][2]string{{"cores", strings.Join(s.Cores, "; ")}}
	if s.Disturbed > 0 {
		pairs = append(pairs, [2]string{"left out", fmt.Sprintf("%d judged disturbed by their own log", s.Disturbed)})
	}
	w.KV(pairs...)
	t := textfmt.NewTable("figure", "population", "n", "median", "p10–p90", "min–max")
	for _, d := range ds {
		p := fmt.Sprintf("(n < %d)", ref.MinForPercentile)
		if d.P10 != nil {
			p = fmt.Sprintf("%.0f–%.0f", *d.P10, *d.P90)
		}
		t.Row(d.Label, d.Population, fmt.Sprint(d.N), ref.FormatValue(*d.Median, d.Unit), p, fmt.Sprintf("%.0f–%.0f", *d.Min, *d.Max))
	}
	w.Table(t)
	return f.IO.OutErr()
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
