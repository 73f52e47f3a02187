package chart

import (
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
)

// TestSustainedChart: a sustained-write result gets one chart with the
// rate per window and the fall marked.
func TestSustainedChart(t *testing.T) {
	cache := int64(8 << 20)
	f := result.StorageSustainedFigures{Fell: true, CacheBytes: &cache}
	for i, kbs := range []float64{90000, 91000, 89000, 90000, 88000, 91000, 90000, 89000, 20000, 21000, 19000} {
		f.Windows = append(f.Windows, result.StorageWindow{WrittenBytes: int64(i+1) << 20, KBs: kbs})
	}
	fig, err := jsonOf(f)
	if err != nil {
		t.Fatal(err)
	}
	r := &result.Result{Command: "storage", Info: &inventory.Info{}, Phases: []result.Phase{{Name: result.PhaseStorageSustained, Figures: fig}}}
	charts, err := ForResult(r)
	if err != nil {
		t.Fatal(err)
	}
	var svg string
	for _, c := range charts {
		if c.Name == "storage-sustained" {
			svg = string(c.SVG)
		}
	}
	if svg == "" {
		t.Fatalf("no sustained-write chart among %d", len(charts))
	}
	for _, want := range []string{"rate fell after 8 MiB", "written (MiB)", "rate (MB/s)"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
}
