package store

import (
	"context"
	"strings"
	"testing"
)

// TestExplain checks that Explain shows each statement of a page with
// its plan, and that a SoC-filtered deep page is walked SoC by SoC in
// results_soc_order (schema 7), and a headline figure under a text
// filter in result_figure_filters (schema 8), on SQLite and PostgreSQL.
func TestExplain(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			var st Store
			if engine == "sqlite" {
				st, _ = openTemp(t)
			} else {
				st = openPG(t, pgDatabase(t))
			}
			fillVaried(t, st, 60)
			out, err := Explain(context.Background(), st, Query{SoC: "RK3588", Sort: "created_at", Desc: true, Limit: 5, Offset: 10})
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"FROM result_counts", "r.soc_lc = ?", "UNION ALL", `arguments: "rockchip rk3588", "replay"`} {
				if engine == "postgres" {
					want = strings.ReplaceAll(want, "?", "$1")
				}
				if !strings.Contains(out, want) {
					t.Errorf("no %q in\n%s", want, out)
				}
			}
			if engine == "sqlite" && !strings.Contains(out, "results_soc_order") {
				t.Errorf("the SoC's index is not used:\n%s", out)
			}
			out, err = Explain(context.Background(), st, Query{SoC: "RK3588", Sort: "sevenzip_multi_mips", Limit: 5, Offset: 10})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "f.name = 'sevenzip_multi_mips' AND f.name IN (") {
				t.Errorf("a headline figure's page is not walked SoC by SoC:\n%s", out)
			}
			if engine == "sqlite" && !strings.Contains(out, "result_figures_soc_sort") {
				t.Errorf("the SoC's figure index is not used:\n%s", out)
			}
			// A headline figure under the text field (schema 8): walked in
			// result_figure_filters, deep pages included.
			out, err = Explain(context.Background(), st, Query{Kinds: []string{"run", "import"}, Text: "raspberry", Sort: "sevenzip_multi_mips", Desc: true, Limit: 50, Offset: 4950})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "FROM result_figure_filters f WHERE") {
				t.Errorf("a headline figure under a text filter is not read from result_figure_filters:\n%s", out)
			}
			if engine == "sqlite" && !strings.Contains(out, "USING COVERING INDEX result_figure_filters_sort") {
				t.Errorf("the figure filters' index is not walked alone:\n%s", out)
			}
			if engine == "postgres" && !strings.Contains(out, "Execution Time") {
				t.Errorf("no EXPLAIN ANALYZE:\n%s", out)
			}
		})
	}
}
