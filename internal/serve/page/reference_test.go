package page

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
)

// TestStandalonePlacement: `report --html` carries the placement block with
// its strips, and no link to serve's reference pages (no link may leave
// the file).
func TestStandalonePlacement(t *testing.T) {
	multi := 16000.0
	r := &result.Result{ID: "0123456789abcdef", Command: "run", Status: result.StatusComplete, Options: map[string]any{},
		Info: &inventory.Info{}, Tools: []result.ToolVersion{{Name: "7z", Version: "16.02"}},
		Summary: result.Summary{ClockMHz: []result.Value{{CPU: 4, Value: 2350}}, SevenZipMultiMIPS: &multi}}
	r.Info.SoC.Guess = "Rockchip RK3588"
	var b bytes.Buffer
	if err := WriteStandalone(context.Background(), &b, r, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, `id="reference"`) || !strings.Contains(out, "7-Zip 16.02") || !strings.Contains(out, `fill="#cf222e"`) {
		t.Errorf("no placement block with a marked strip:\n%s", out)
	}
	if strings.Contains(out, `href="/reference`) {
		t.Error("the standalone page links to serve's reference pages")
	}
	p := BuildResult(r, nil)
	if p.Reference == nil || p.Reference.Key != "rk3588" || p.Reference.ResultID != r.ID {
		t.Errorf("served placement: %+v", p.Reference)
	}
}
